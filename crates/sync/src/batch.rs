//! The file format of everything VibeLife writes to a sync target: a clear header naming the
//! device and the file's number (both already in its path), then the XChaCha20-Poly1305
//! (`chacha20poly1305` crate) ciphertext of the content with a random 24-byte nonce; the whole
//! header is the associated data, so a file renamed or copied to another device's place is
//! refused ([`SyncError::Replayed`]), a changed byte fails authentication
//! ([`SyncError::Tampered`]) and a short file is [`SyncError::Truncated`]. It owns sealing and
//! opening bytes; what the content means is `content`'s, where files go is `layout`'s.
//!
//! ```text
//! "VLSYNC01" | device id length (u8) | device id | number (u64 BE) | ciphertext length (u32 BE)
//!   | nonce (24) | ciphertext and tag
//! ```

use chacha20poly1305::aead::{Aead as _, Payload};
use chacha20poly1305::{KeyInit as _, XChaCha20Poly1305, XNonce};

use crate::error::{Result, SyncError};
use crate::key::SyncKey;

const MAGIC: &[u8; 8] = b"VLSYNC01";
const NONCE_LEN: usize = 24;

/// Who wrote a file and its number: the file's place on the target, bound into it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Place<'a> {
    /// The writing device's id ("" for the target's key check).
    pub device: &'a str,
    pub number: u64,
}

fn header(place: &Place, ct_len: usize) -> Vec<u8> {
    let mut h = Vec::with_capacity(8 + 1 + place.device.len() + 8 + 4);
    h.extend_from_slice(MAGIC);
    h.push(u8::try_from(place.device.len()).unwrap_or(u8::MAX));
    h.extend_from_slice(place.device.as_bytes());
    h.extend_from_slice(&place.number.to_be_bytes());
    h.extend_from_slice(&u32::try_from(ct_len).unwrap_or(u32::MAX).to_be_bytes());
    h
}

/// `plain` sealed with `key` for `place`.
pub fn seal(key: &SyncKey, place: &Place, plain: &[u8]) -> Result<Vec<u8>> {
    let cipher = XChaCha20Poly1305::new(key.raw().into());
    let mut nonce = [0u8; NONCE_LEN];
    getrandom::fill(&mut nonce)
        .map_err(|e| SyncError::Local(format!("the OS gave no random bytes: {e}")))?;
    let ct_len = plain.len() + 16;
    let aad = header(place, ct_len);
    let ct = cipher
        .encrypt(XNonce::from_slice(&nonce), Payload { msg: plain, aad: &aad })
        .map_err(|_| SyncError::Local("a batch too large to encrypt".into()))?;
    let mut out = aad;
    out.extend_from_slice(&nonce);
    out.extend_from_slice(&ct);
    Ok(out)
}

/// Reads big-endian numbers and slices off the front, or says the file is cut short.
struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
    file: &'a str,
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize, expected_total: usize) -> Result<&'a [u8]> {
        let end = self.at + n;
        let Some(slice) = self.bytes.get(self.at..end) else {
            return Err(SyncError::Truncated {
                file: self.file.to_string(),
                found: self.bytes.len(),
                expected: expected_total.max(end),
            });
        };
        self.at = end;
        Ok(slice)
    }
}

/// The clear content of `bytes`, read from `file` (shown in errors), which must be `expected`'s.
pub fn open(key: &SyncKey, file: &str, expected: &Place, bytes: &[u8]) -> Result<Vec<u8>> {
    let mut r = Reader { bytes, at: 0, file };
    if r.take(MAGIC.len(), 0)? != MAGIC {
        return Err(SyncError::Tampered { file: file.into() });
    }
    let len = usize::from(r.take(1, 0)?[0]);
    let device = String::from_utf8_lossy(r.take(len, 0)?).into_owned();
    let number = u64::from_be_bytes(r.take(8, 0)?.try_into().unwrap_or([0; 8]));
    let ct_len = u32::from_be_bytes(r.take(4, 0)?.try_into().unwrap_or([0; 4])) as usize;
    if device != expected.device || number != expected.number {
        let claims = if device.is_empty() {
            "the target's key check".to_string()
        } else {
            format!("batch {number} of device {device}")
        };
        return Err(SyncError::Replayed { file: file.into(), claims });
    }
    let header_len = r.at;
    let total = header_len + NONCE_LEN + ct_len;
    let nonce = r.take(NONCE_LEN, total)?;
    let ct = r.take(ct_len, total)?;
    if r.at != bytes.len() {
        return Err(SyncError::Tampered { file: file.into() });
    }
    let cipher = XChaCha20Poly1305::new(key.raw().into());
    let aad = &bytes[..header_len];
    cipher
        .decrypt(XNonce::from_slice(nonce), Payload { msg: ct, aad })
        .map_err(|_| SyncError::Tampered { file: file.into() })
}

#[cfg(test)]
mod tests {
    use super::{Place, open, seal};
    use crate::{SyncError, SyncKey};

    const AT: Place = Place { device: "dev-a", number: 7 };

    #[test]
    fn a_sealed_file_opens_with_its_key_at_its_place() {
        let key = SyncKey::generate().unwrap();
        let sealed = seal(&key, &AT, b"hello marker").unwrap();
        assert!(!sealed.windows(6).any(|w| w == b"marker"));
        assert_eq!(open(&key, "f", &AT, &sealed).unwrap(), b"hello marker");
    }

    #[test]
    fn another_key_a_flipped_byte_a_short_file_or_another_place_is_refused() {
        let key = SyncKey::generate().unwrap();
        let sealed = seal(&key, &AT, b"hello").unwrap();
        let other = SyncKey::generate().unwrap();
        assert!(matches!(open(&other, "f", &AT, &sealed), Err(SyncError::Tampered { .. })));
        let mut flipped = sealed.clone();
        let last = flipped.len() - 3;
        flipped[last] ^= 1;
        assert!(matches!(open(&key, "f", &AT, &flipped), Err(SyncError::Tampered { .. })));
        let cut = &sealed[..sealed.len() - 4];
        assert!(matches!(open(&key, "f", &AT, cut), Err(SyncError::Truncated { .. })));
        assert!(matches!(open(&key, "f", &AT, &sealed[..5]), Err(SyncError::Truncated { .. })));
        let elsewhere = Place { device: "dev-b", number: 7 };
        assert!(matches!(open(&key, "f", &elsewhere, &sealed), Err(SyncError::Replayed { .. })));
        let later = Place { device: "dev-a", number: 8 };
        assert!(matches!(open(&key, "f", &later, &sealed), Err(SyncError::Replayed { .. })));
    }
}
