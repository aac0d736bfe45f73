//! A recorded run's `events.jsonl` as the scripted model replays it (`scripted:PATH`): the
//! clear JSON lines, opened with a key when the file is sealed. `vibe-llm` knows nothing of
//! keys; the app hands it [`read_recording`] as its reader of recordings.

use std::io::Read as _;
use std::path::Path;

use super::run_key::RunKey;
use super::seal::{self, Form};

/// The largest recording read (the scripted model's own cap on script files).
const MAX_RECORDING_BYTES: u64 = 64 * 1024 * 1024;

/// The clear text of the recorded events at `path`: as it is when clear; when sealed, opened
/// with `key` (the key of the run folders of the data folder the app has open; a recording
/// sealed with another folder's key is refused, naming the key). A record cut short at the end (a killed run) is left out. The error is one line naming the
/// file and what to do.
pub fn read_recording(path: &Path, key: Option<&RunKey>) -> Result<String, String> {
    let shown = path.display();
    let mut bytes = Vec::new();
    std::fs::File::open(path)
        .and_then(|f| f.take(MAX_RECORDING_BYTES + 1).read_to_end(&mut bytes))
        .map_err(|e| format!("cannot read the recorded run {shown}: {e}"))?;
    if bytes.len() as u64 > MAX_RECORDING_BYTES {
        return Err(format!(
            "the recorded run {shown} is larger than the {} MiB limit",
            MAX_RECORDING_BYTES >> 20
        ));
    }
    let text = match seal::form(&bytes) {
        Form::Empty | Form::Clear => bytes,
        Form::Sealed { .. } => {
            let run_dir = path.parent();
            let run_id = run_dir.and_then(Path::file_name).and_then(|n| n.to_str()).unwrap_or("");
            let file = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
            let opened = seal::open(&bytes, key, run_id, file)
                .map_err(|refused| format!("cannot read the recorded run {shown}: {refused}"))?;
            let broken = match &opened.chain {
                Some(super::chain::End::Broken { line, .. }) => Some(line),
                _ => None,
            };
            if let Some(line) = opened.damaged.first().or(broken) {
                return Err(format!(
                    "cannot read the recorded run {shown}: line {line} cannot be decrypted (the \
                     file is damaged, or it was renamed or moved out of its run folder)"
                ));
            }
            opened.text
        }
    };
    String::from_utf8(text).map_err(|e| {
        format!(
            "the recorded run {shown} is not UTF-8 text (invalid byte at offset {})",
            e.utf8_error().valid_up_to()
        )
    })
}
