//! Large tool outputs kept beside `events.jsonl` (docs/design.md#audit-and-replay: big content goes
//! to files, events keep a reference): the size test, the file naming, and the preview that stands
//! in for the whole value in the event (and in the observation the model sees). In a data folder
//! that seals its run files the file is sealed whole (`seal::seal_whole`).

use std::fs::OpenOptions;
use std::io::{ErrorKind, Write};
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicU32, Ordering};

use serde_json::{Value, json};

use super::io_error;
use super::run_key::RunKey;
use super::seal::{Sealer, seal_whole};
use crate::RunLogError;

/// Tool outputs whose JSON is larger than this many bytes are written to a file.
pub const EXTERNALIZE_THRESHOLD: usize = 16 * 1024;
/// How many characters of the serialised output the preview keeps.
pub const PREVIEW_CHARS: usize = 2_000;

const MAX_NAME_CHARS: usize = 40;
/// Attempts at a free file name before giving up (names only collide when a run folder is
/// reopened, so a few are plenty).
const MAX_NAME_ATTEMPTS: u32 = 1_000;

/// The serialised value when it is over the threshold.
pub(super) fn oversized(value: &Value) -> Option<String> {
    // Only strings and containers can get large; skip serialising small scalars.
    if !matches!(value, Value::String(_) | Value::Array(_) | Value::Object(_)) {
        return None;
    }
    let text = serde_json::to_string(value).ok()?;
    (text.len() > EXTERNALIZE_THRESHOLD).then_some(text)
}

/// Write `text` to a new `tool-<n>-<name>.json` in `dir`, sealed with the key of `sealing`
/// (the key and the run id) when there is one; returns the file name.
pub(super) fn write_new(
    dir: &Path,
    name_hint: &str,
    counter: &AtomicU32,
    text: &str,
    sealing: Option<(Arc<RunKey>, &str)>,
) -> Result<String, RunLogError> {
    let stem = file_stem(name_hint);
    for _ in 0..MAX_NAME_ATTEMPTS {
        let n = counter.fetch_add(1, Ordering::Relaxed);
        let name = format!("tool-{n}-{stem}.json");
        let path = dir.join(&name);
        match super::private_file(OpenOptions::new()).write(true).create_new(true).open(&path) {
            Ok(mut file) => {
                let sealed = match &sealing {
                    Some((key, run_id)) => {
                        let mut sealer = Sealer::new(key.clone(), run_id, &name)
                            .map_err(|e| io_error("seal", &path, e))?;
                        Some(seal_whole(&mut sealer, text.as_bytes()))
                    }
                    None => None,
                };
                let bytes = sealed.as_deref().unwrap_or(text.as_bytes());
                file.write_all(bytes).map_err(|e| io_error("write", &path, e))?;
                return Ok(name);
            }
            Err(e) if e.kind() == ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(io_error("create", &path, e)),
        }
    }
    let path = dir.join(format!("tool-N-{stem}.json"));
    Err(io_error(
        "create",
        &path,
        std::io::Error::new(ErrorKind::AlreadyExists, "no free file name"),
    ))
}

/// What stands in for the whole output: its start, its size, and where the rest is.
pub(super) fn preview(text: &str, file: &str) -> Value {
    let cut = text.char_indices().nth(PREVIEW_CHARS).map_or(text.len(), |(i, _)| i);
    json!({
        "truncated": true,
        "bytes": text.len(),
        "preview": &text[..cut],
        "file": file,
        "note": format!(
            "output too large to show whole: the first {PREVIEW_CHARS} characters of {} bytes of JSON; \
             the whole output is saved in the run's audit folder as {file}",
            text.len()
        ),
    })
}

/// A file-name-safe form of the tool name: ASCII letters, digits, `-` and `_`, at most 40.
fn file_stem(hint: &str) -> String {
    let stem: String = hint
        .chars()
        .take(MAX_NAME_CHARS)
        .map(|c| if c.is_ascii_alphanumeric() || c == '-' || c == '_' { c } else { '_' })
        .collect();
    if stem.is_empty() { "output".to_string() } else { stem }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_at_the_threshold_stay_inline_and_one_byte_more_is_externalized() {
        // A JSON string of n chars serialises to n + 2 bytes (the quotes).
        let at = Value::String("a".repeat(EXTERNALIZE_THRESHOLD - 2));
        let over = Value::String("a".repeat(EXTERNALIZE_THRESHOLD - 1));
        assert!(oversized(&at).is_none());
        assert_eq!(oversized(&over).map(|t| t.len()), Some(EXTERNALIZE_THRESHOLD + 1));
        assert!(oversized(&json!(12345)).is_none());
    }

    #[test]
    fn the_preview_cuts_on_a_character_boundary_and_names_the_file() {
        let text = serde_json::to_string(&"命".repeat(PREVIEW_CHARS * 2)).unwrap();
        let p = preview(&text, "tool-1-x.json");
        let shown = p["preview"].as_str().unwrap();
        assert_eq!(shown.chars().count(), PREVIEW_CHARS);
        assert!(text.starts_with(shown));
        assert_eq!(p["bytes"], text.len());
        assert_eq!(p["truncated"], true);
        assert!(p["note"].as_str().unwrap().contains("tool-1-x.json"));
    }

    #[test]
    fn tool_names_become_safe_file_names() {
        assert_eq!(file_stem("read_state"), "read_state");
        assert_eq!(file_stem("../../etc/passwd"), "______etc_passwd");
        assert_eq!(file_stem("八字"), "__");
        assert_eq!(file_stem(""), "output");
        assert_eq!(file_stem(&"x".repeat(100)).len(), MAX_NAME_CHARS);
    }

    #[test]
    fn names_taken_by_an_earlier_process_are_skipped() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("tool-1-t.json"), "old").unwrap();
        let counter = AtomicU32::new(1);
        let name = write_new(dir.path(), "t", &counter, "\"new\"", None).unwrap();
        assert_eq!(name, "tool-2-t.json");
        assert_eq!(std::fs::read_to_string(dir.path().join("tool-1-t.json")).unwrap(), "old");
        assert_eq!(std::fs::read_to_string(dir.path().join(name)).unwrap(), "\"new\"");
    }
}
