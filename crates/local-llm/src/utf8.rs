//! Turning token bytes into text: a token may end inside a multi-byte character (emoji, CJK
//! split by byte-level BPE), so bytes are held until they form whole characters. Invalid
//! sequences become U+FFFD rather than stopping the answer.

/// Collects token bytes and hands out the complete characters.
#[derive(Debug, Default)]
pub(crate) struct Utf8Assembler {
    pending: Vec<u8>,
}

impl Utf8Assembler {
    /// Add `bytes`; returns the text that is now complete (maybe empty).
    pub fn push(&mut self, bytes: &[u8]) -> String {
        self.pending.extend_from_slice(bytes);
        let mut out = String::new();
        loop {
            match std::str::from_utf8(&self.pending) {
                Ok(text) => {
                    out.push_str(text);
                    self.pending.clear();
                    return out;
                }
                Err(e) => {
                    let valid = e.valid_up_to();
                    out.push_str(&String::from_utf8_lossy(&self.pending[..valid]));
                    match e.error_len() {
                        // An incomplete character at the end: wait for the next token.
                        None => {
                            self.pending.drain(..valid);
                            return out;
                        }
                        Some(bad) => {
                            out.push(char::REPLACEMENT_CHARACTER);
                            self.pending.drain(..valid + bad);
                        }
                    }
                }
            }
        }
    }

    /// The answer ended: whatever is held is an incomplete character.
    pub fn finish(&mut self) -> String {
        let rest = String::from_utf8_lossy(&self.pending).into_owned();
        self.pending.clear();
        rest
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn characters_split_across_tokens_come_out_whole() {
        let mut a = Utf8Assembler::default();
        let bytes = "你好🙂".as_bytes();
        let mut text = String::new();
        for b in bytes {
            text.push_str(&a.push(&[*b]));
        }
        assert_eq!(text, "你好🙂");
        assert_eq!(a.finish(), "");
    }

    #[test]
    fn invalid_and_cut_sequences_become_replacement_characters() {
        let mut a = Utf8Assembler::default();
        assert_eq!(a.push(b"a\xffb"), "a\u{fffd}b");
        assert_eq!(a.push(&"你".as_bytes()[..2]), "");
        assert_eq!(a.finish(), "\u{fffd}");
    }
}
