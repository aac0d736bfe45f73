//! Reading the one GGUF metadata value the context budgets need before the engine loads a
//! model: its trained context length (`<architecture>.context_length`), from the header
//! alone, without llama.cpp. Everything else in the metadata is skipped unread; running the
//! model and its other metadata stay the engine's (`crates/local-llm`).

use std::fs::File;
use std::io::{BufReader, Read};
use std::path::Path;

use crate::{GGUF_MAGIC, ModelsError};

/// Longest key or string value read into memory; longer ones are skipped (a chat template is
/// a few KB, a key a few dozen bytes).
const MAX_TEXT: u64 = 1 << 20;

/// GGUF value types (the format's `gguf_type`).
const STRING: u32 = 8;
const ARRAY: u32 = 9;

/// The trained context length the GGUF file at `path` declares, or `None` when its metadata
/// has none. A file that is not GGUF, or whose header is cut short or malformed, is an error
/// naming the file.
pub fn gguf_context_length(path: &Path) -> Result<Option<u32>, ModelsError> {
    let file = File::open(path).map_err(|e| ModelsError::io("cannot open", path, e))?;
    let mut r = Reader { inner: BufReader::new(file), path };
    let mut magic = [0u8; 4];
    r.exact(&mut magic)?;
    if &magic != GGUF_MAGIC {
        return Err(ModelsError::NotGguf { path: path.to_path_buf() });
    }
    let version = r.u32()?;
    if !(2..=3).contains(&version) {
        return Err(r.bad(format!("GGUF version {version} is not supported (2 or 3 are)")));
    }
    let _tensors = r.u64()?;
    let entries = r.u64()?;
    let mut architecture: Option<String> = None;
    let mut lengths: Vec<(String, u64)> = Vec::new();
    for _ in 0..entries {
        let key = r.text()?;
        let kind = r.u32()?;
        match (key.as_str(), kind) {
            ("general.architecture", STRING) => architecture = Some(r.text()?),
            (k, 4 | 5 | 10 | 11) if k.ends_with(".context_length") => {
                let value = if matches!(kind, 4 | 5) { u64::from(r.u32()?) } else { r.u64()? };
                lengths.push((k.to_string(), value));
            }
            _ => r.skip_value(kind)?,
        }
    }
    let wanted = architecture.map(|a| format!("{a}.context_length"));
    let found = lengths
        .iter()
        .find(|(k, _)| Some(k) == wanted.as_ref())
        .or_else(|| lengths.first())
        .map(|(_, v)| u32::try_from(*v).unwrap_or(u32::MAX));
    Ok(found.filter(|&n| n > 0))
}

struct Reader<'a> {
    inner: BufReader<File>,
    path: &'a Path,
}

impl Reader<'_> {
    fn bad(&self, message: String) -> ModelsError {
        ModelsError::BadGguf { path: self.path.to_path_buf(), message }
    }

    fn exact(&mut self, buf: &mut [u8]) -> Result<(), ModelsError> {
        self.inner.read_exact(buf).map_err(|e| match e.kind() {
            std::io::ErrorKind::UnexpectedEof => {
                self.bad("the metadata ends before its declared entries".into())
            }
            _ => ModelsError::io("cannot read", self.path, e),
        })
    }

    fn u32(&mut self) -> Result<u32, ModelsError> {
        let mut b = [0u8; 4];
        self.exact(&mut b)?;
        Ok(u32::from_le_bytes(b))
    }

    fn u64(&mut self) -> Result<u64, ModelsError> {
        let mut b = [0u8; 8];
        self.exact(&mut b)?;
        Ok(u64::from_le_bytes(b))
    }

    fn skip(&mut self, n: u64) -> Result<(), ModelsError> {
        let n = i64::try_from(n).map_err(|_| self.bad(format!("a value of {n} bytes")))?;
        self.inner.seek_relative(n).map_err(|e| ModelsError::io("cannot read", self.path, e))
    }

    /// A string (u64 length, then UTF-8 bytes).
    fn text(&mut self) -> Result<String, ModelsError> {
        let len = self.u64()?;
        if len > MAX_TEXT {
            return Err(self.bad(format!("a metadata key or string of {len} bytes")));
        }
        let mut buf = vec![0u8; len as usize];
        self.exact(&mut buf)?;
        String::from_utf8(buf).map_err(|_| self.bad("a metadata string is not UTF-8".into()))
    }

    /// Skip one value of type `kind`.
    fn skip_value(&mut self, kind: u32) -> Result<(), ModelsError> {
        match kind {
            STRING => {
                let len = self.u64()?;
                self.skip(len)
            }
            ARRAY => {
                let item = self.u32()?;
                let count = self.u64()?;
                match scalar_size(item) {
                    Some(size) => {
                        let bytes = count
                            .checked_mul(size)
                            .ok_or_else(|| self.bad(format!("an array of {count} items")))?;
                        self.skip(bytes)
                    }
                    None => (0..count).try_for_each(|_| self.skip_value(item)),
                }
            }
            other => match scalar_size(other) {
                Some(size) => self.skip(size),
                None => Err(self.bad(format!("unknown metadata value type {other}"))),
            },
        }
    }
}

/// Bytes of a scalar GGUF type; `None` for strings, arrays and unknown types.
fn scalar_size(kind: u32) -> Option<u64> {
    match kind {
        0 | 1 | 7 => Some(1),
        2 | 3 => Some(2),
        4..=6 => Some(4),
        10..=12 => Some(8),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A GGUF header with `entries` (key, type, value bytes).
    fn header(entries: &[(&str, u32, Vec<u8>)]) -> Vec<u8> {
        let mut out = GGUF_MAGIC.to_vec();
        out.extend(3u32.to_le_bytes());
        out.extend(0u64.to_le_bytes());
        out.extend((entries.len() as u64).to_le_bytes());
        for (key, kind, value) in entries {
            out.extend((key.len() as u64).to_le_bytes());
            out.extend(key.as_bytes());
            out.extend(kind.to_le_bytes());
            out.extend(value);
        }
        out
    }

    fn string(s: &str) -> Vec<u8> {
        let mut out = (s.len() as u64).to_le_bytes().to_vec();
        out.extend(s.as_bytes());
        out
    }

    fn write(bytes: &[u8]) -> (tempfile::TempDir, std::path::PathBuf) {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("m.gguf");
        std::fs::write(&path, bytes).unwrap();
        (dir, path)
    }

    #[test]
    fn the_architectures_context_length_is_read_past_arrays_and_strings() {
        let mut tokens = ARRAY.to_le_bytes().to_vec();
        tokens.extend(STRING.to_le_bytes());
        tokens.extend(2u64.to_le_bytes());
        tokens.extend(string("a"));
        tokens.extend(string("bc"));
        let mut types = 5u32.to_le_bytes().to_vec();
        types.extend(3u64.to_le_bytes());
        types.extend([0u8; 12]);
        let bytes = header(&[
            ("general.architecture", STRING, string("gemma3")),
            ("tokenizer.ggml.tokens", ARRAY, tokens[4..].to_vec()),
            ("tokenizer.ggml.token_type", ARRAY, types),
            ("general.name", STRING, string("tiny")),
            ("other.context_length", 4, 999u32.to_le_bytes().to_vec()),
            ("gemma3.context_length", 4, 4096u32.to_le_bytes().to_vec()),
        ]);
        let (_dir, path) = write(&bytes);
        assert_eq!(gguf_context_length(&path).unwrap(), Some(4096));
    }

    #[test]
    fn the_shipped_fixture_model_declares_its_window() {
        let fixture = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../local-llm/tests/fixtures/tiny-q8_0.gguf");
        assert_eq!(gguf_context_length(&fixture).unwrap(), Some(32768));
    }

    #[test]
    fn no_context_length_is_none_and_a_cut_header_is_an_error_naming_the_file() {
        let bytes = header(&[("general.architecture", STRING, string("llama"))]);
        let (_dir, path) = write(&bytes);
        assert_eq!(gguf_context_length(&path).unwrap(), None);
        let (_dir, path) = write(&bytes[..bytes.len() - 3]);
        let err = gguf_context_length(&path).unwrap_err().to_string();
        assert!(err.contains("m.gguf") && err.contains("ends before"), "{err}");
        let (_dir, path) = write(b"NOPE0000");
        assert!(matches!(gguf_context_length(&path), Err(ModelsError::NotGguf { .. })));
    }
}
