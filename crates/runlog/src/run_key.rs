//! The key that seals one data folder's run files ([`RunKey`]): XChaCha20-Poly1305 from the
//! `chacha20poly1305` crate, and a short public id derived from the key (SHA-256) that sealed
//! files name in their header. Encrypts and decrypts one record's bytes; what a record and a
//! file look like is `seal`'s and `chain`'s. `Debug` never shows the key.

use std::fmt;

use chacha20poly1305::aead::AeadInPlace as _;
use chacha20poly1305::{KeyInit as _, XChaCha20Poly1305, XNonce};
use sha2::{Digest as _, Sha256};

/// Bytes of the key id (shown as hex in a sealed file's header).
pub(crate) const ID_BYTES: usize = 8;
pub(crate) const NONCE_LEN: usize = 24;
pub(crate) const TAG_LEN: usize = 16;

/// The 256-bit key that seals the run files of one data folder (kept in its encrypted
/// database, `vibe_store::Store::run_file_key`). `Debug` never shows it.
#[derive(Clone)]
pub struct RunKey {
    cipher: XChaCha20Poly1305,
    id: String,
}

impl RunKey {
    pub fn new(raw: &[u8; 32]) -> Self {
        let mut hash = Sha256::new();
        hash.update(b"vibelife run file key id\0");
        hash.update(raw);
        let id = hex::encode(&hash.finalize()[..ID_BYTES]);
        Self { cipher: XChaCha20Poly1305::new(raw.into()), id }
    }

    /// A short public name of the key (in each sealed file's header): tells "sealed with
    /// another key" from "damaged" without trying to decrypt.
    pub fn id(&self) -> &str {
        &self.id
    }

    /// `plain` encrypted with `aad`: the ciphertext and its tag.
    pub(crate) fn encrypt(&self, nonce: &[u8; NONCE_LEN], aad: &[u8], plain: &[u8]) -> Vec<u8> {
        let mut body = plain.to_vec();
        // Encrypting into a Vec only fails when it cannot grow, which aborts anyway.
        if self.cipher.encrypt_in_place(XNonce::from_slice(nonce), aad, &mut body).is_err() {
            body.clear();
        }
        body
    }

    /// The clear text of `sealed` (ciphertext and tag), when it authenticates with `aad`.
    pub(crate) fn decrypt(&self, nonce: &[u8], aad: &[u8], sealed: &[u8]) -> Option<Vec<u8>> {
        if nonce.len() != NONCE_LEN || sealed.len() < TAG_LEN {
            return None;
        }
        let mut body = sealed.to_vec();
        self.cipher.decrypt_in_place(XNonce::from_slice(nonce), aad, &mut body).ok()?;
        Some(body)
    }
}

impl RunKey {
    /// `plain` sealed as one blob bound to `aad`: a fresh random 24-byte nonce, then the
    /// ciphertext and its tag. For whole files other crates keep sealed with this key (the
    /// embedded engine's saved prompt states); `None` when the OS gives no random bytes.
    pub fn seal_blob(&self, aad: &[u8], plain: &[u8]) -> Option<Vec<u8>> {
        let mut nonce = [0u8; NONCE_LEN];
        getrandom::fill(&mut nonce).ok()?;
        let mut blob = Vec::with_capacity(NONCE_LEN + plain.len() + TAG_LEN);
        blob.extend_from_slice(&nonce);
        blob.extend_from_slice(plain);
        let mut body = blob.split_off(NONCE_LEN);
        self.cipher.encrypt_in_place(XNonce::from_slice(&nonce), aad, &mut body).ok()?;
        blob.append(&mut body);
        Some(blob)
    }

    /// The clear text of a [`seal_blob`](Self::seal_blob) blob, when it authenticates with
    /// `aad` under this key (`None`: another key, other associated data, cut or damaged).
    pub fn open_blob(&self, aad: &[u8], blob: &[u8]) -> Option<Vec<u8>> {
        if blob.len() < NONCE_LEN + TAG_LEN {
            return None;
        }
        let (nonce, sealed) = blob.split_at(NONCE_LEN);
        self.decrypt(nonce, aad, sealed)
    }
}

impl fmt::Debug for RunKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "RunKey({}, ***)", self.id)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sealed_blob_opens_only_with_its_key_and_associated_data() {
        let key = RunKey::new(&[7; 32]);
        let blob = key.seal_blob(b"aad", b"the clear words").unwrap();
        assert!(!blob.windows(5).any(|w| w == b"clear"), "no clear text in the blob");
        assert_eq!(key.open_blob(b"aad", &blob).unwrap(), b"the clear words");
        assert_eq!(key.open_blob(b"other", &blob), None);
        assert_eq!(RunKey::new(&[8; 32]).open_blob(b"aad", &blob), None);
        assert_eq!(key.open_blob(b"aad", &blob[..blob.len() - 1]), None);
    }
}
