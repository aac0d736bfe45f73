//! The run log (docs/design.md#audit-and-replay): one folder per run under
//! `<data dir>/runs/<run_id>/` holding `events.jsonl` (every event of the run, one JSON line
//! each, the source of truth for replay and evals) and large tool outputs as files beside it.
//! [`Emitter`](emit::Emitter) stamps a run's events and hands them to every sink (`emit`);
//! [`RunAudit`] writes a run as it happens (it is an [`EventSink`](emit::EventSink));
//! [`read_events`] reads one back, tolerating a last line cut short by a killed process and
//! naming any damage (`integrity`).
//! In an encrypted data folder the files are sealed (`seal`) with the key the app hands down
//! with the folder ([`RunFolders`], `keys`); clear run folders left from before are sealed at
//! open (`migrate`). Whether a run is still alive is read from its log's lock (`liveness`).
//! The `runs` table row (status, stop reason, usage) belongs to the store; the agent, the chat
//! service and the app sit above this crate and are never imported here; printing events
//! belongs to the front ends.

mod blob;
mod chain;
pub mod emit;
mod error;
mod integrity;
mod keys;
mod late;
pub mod liveness;
mod migrate;
mod reader;
mod recording;
mod run_key;
mod seal;
mod spare;
mod writer;

use std::path::{Path, PathBuf};

pub use error::RunLogError;

pub use blob::{EXTERNALIZE_THRESHOLD, PREVIEW_CHARS};
pub use integrity::Integrity;
pub use keys::{RunFolders, SEALED_MARKER};
pub use late::write_waiting;
pub use migrate::{SealReport, seal_clear_runs};
pub use reader::read_events_at;
pub use reader::{
    RunFile, RunLog, RunSummary, SkippedLine, list_runs_on_disk, read_events, read_run_file,
    run_files,
};
pub use recording::read_recording;
pub use run_key::RunKey;
pub use seal::HEADER_LEN as SEALED_HEADER_LEN;
pub use spare::{SPARE_DIR, SpareRun, sweep_spares};
pub use writer::RunAudit;

/// The folder under the data dir that holds one folder per run.
pub const RUNS_DIR: &str = "runs";
/// The event log inside a run's folder.
pub const EVENTS_FILE: &str = "events.jsonl";

const MAX_RUN_ID_LEN: usize = 128;

/// The id of the key a sealed run file names in its header (`None`: a clear file), from the
/// file's first bytes: for checking a backup's run folders against its database's key.
pub fn sealed_key_id(head: &[u8]) -> Option<String> {
    match seal::form(head) {
        seal::Form::Sealed { key_id, .. } => Some(key_id.to_string()),
        _ => None,
    }
}

/// The folder of one run: `<data_dir>/runs/<run_id>`. Fails for ids that could escape it.
pub fn run_dir(data_dir: &Path, run_id: &str) -> Result<PathBuf, RunLogError> {
    validate_run_id(run_id)?;
    Ok(data_dir.join(RUNS_DIR).join(run_id))
}

/// A run id names a folder: letters, digits, `-`, `_`, `.` (not first), at most 128 bytes.
pub fn validate_run_id(run_id: &str) -> Result<(), RunLogError> {
    let ok = !run_id.is_empty()
        && run_id.len() <= MAX_RUN_ID_LEN
        && !run_id.starts_with('.')
        && run_id.bytes().all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.'));
    if ok { Ok(()) } else { Err(RunLogError::InvalidRunId(run_id.to_string())) }
}

/// A run folder (and the `runs` folder above it) made owner-only, 0700 (docs/privacy.md#files).
fn private_dir(dir: &Path) -> std::io::Result<()> {
    let mut builder = std::fs::DirBuilder::new();
    builder.recursive(true);
    #[cfg(unix)]
    std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
    builder.create(dir)
}

/// `options` creating files owner-only, 0600 (docs/privacy.md#files).
fn private_file(mut options: std::fs::OpenOptions) -> std::fs::OpenOptions {
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    options
}

fn io_error(action: &'static str, path: &Path, err: std::io::Error) -> RunLogError {
    RunLogError::AuditIo { action, path: path.to_path_buf(), err }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn run_ids_that_could_escape_the_runs_folder_are_rejected() {
        for bad in
            ["", ".", "..", "../x", "a/b", "a\\b", ".hidden", "a b", "运行", &"x".repeat(129)]
        {
            let err = run_dir(Path::new("/data"), bad).unwrap_err();
            assert!(matches!(err, RunLogError::InvalidRunId(_)), "{bad:?}");
        }
        for good in ["0190d3c2-7a1e-7c3b-9f00-1234567890ab", "20260203_123456_abcd", "run.1"] {
            assert_eq!(
                run_dir(Path::new("/data"), good).unwrap(),
                Path::new("/data/runs").join(good)
            );
        }
    }
}
