//! The sync key: 32 random bytes from the OS, shown once to the person as a recovery code
//! (`VL1-` and the key in base32, in groups of four) that joins another device. It owns making,
//! showing and reading the key; where it is kept (the OS keychain) is the app's business.
//! `Debug` never shows it; the bytes are wiped when dropped.

use std::fmt;

use zeroize::Zeroizing;

use crate::error::{Result, SyncError};

/// The prefix of a recovery code (its format's version).
const CODE_PREFIX: &str = "VL1";

/// The 256-bit key every batch file of one sync target is encrypted with.
#[derive(Clone)]
pub struct SyncKey(Zeroizing<[u8; 32]>);

impl SyncKey {
    /// A new random key.
    pub fn generate() -> Result<Self> {
        let mut raw = Zeroizing::new([0u8; 32]);
        getrandom::fill(raw.as_mut())
            .map_err(|e| SyncError::BadCode { why: format!("the OS gave no random bytes: {e}") })?;
        Ok(Self(raw))
    }

    pub(crate) fn raw(&self) -> &[u8; 32] {
        &self.0
    }

    /// The recovery code: `VL1-XXXX-XXXX-…` (base32, 52 characters of key).
    pub fn code(&self) -> Zeroizing<String> {
        let text = Zeroizing::new(data_encoding::BASE32_NOPAD.encode(self.0.as_ref()));
        let groups: Vec<&str> =
            text.as_bytes().chunks(4).filter_map(|c| std::str::from_utf8(c).ok()).collect();
        Zeroizing::new(format!("{CODE_PREFIX}-{}", groups.join("-")))
    }

    /// The key of a recovery code; spaces, dashes and case do not matter.
    pub fn from_code(code: &str) -> Result<Self> {
        let clean: Zeroizing<String> = Zeroizing::new(
            code.chars()
                .filter(|c| !c.is_whitespace() && *c != '-')
                .map(|c| c.to_ascii_uppercase())
                .collect(),
        );
        let Some(body) = clean.strip_prefix(CODE_PREFIX) else {
            return Err(SyncError::BadCode {
                why: format!("it does not start with {CODE_PREFIX}-"),
            });
        };
        let bytes =
            Zeroizing::new(data_encoding::BASE32_NOPAD.decode(body.as_bytes()).map_err(|_| {
                SyncError::BadCode { why: "it holds a character that is not in a code".into() }
            })?);
        let raw: [u8; 32] = bytes.as_slice().try_into().map_err(|_| SyncError::BadCode {
            why: format!("it has {} characters after {CODE_PREFIX}-, a code has 52", body.len()),
        })?;
        Ok(Self(Zeroizing::new(raw)))
    }
}

impl fmt::Debug for SyncKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("SyncKey(***)")
    }
}

#[cfg(test)]
mod tests {
    use super::SyncKey;
    use crate::SyncError;

    #[test]
    fn a_code_gives_back_its_key_whatever_the_case_and_spacing() {
        let key = SyncKey::generate().unwrap();
        let code = key.code();
        assert!(code.starts_with("VL1-"), "{}", code.as_str());
        let typed = code.to_lowercase().replace('-', " ");
        assert_eq!(SyncKey::from_code(&typed).unwrap().raw(), key.raw());
    }

    #[test]
    fn a_code_cut_short_or_foreign_is_refused_with_why() {
        let code = SyncKey::generate().unwrap().code();
        let short = &code[..code.len() - 5];
        assert!(matches!(SyncKey::from_code(short), Err(SyncError::BadCode { .. })));
        assert!(matches!(SyncKey::from_code("hello"), Err(SyncError::BadCode { .. })));
        assert!(!format!("{:?}", SyncKey::generate().unwrap()).contains("VL1"));
    }
}
