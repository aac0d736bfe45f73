//! The one error type of `vibe-runlog`: what can go wrong creating, writing or reading a run's
//! folder. The crates above fold it into their own error variant for variant (`vibe-agent`'s
//! `CoreError`), so the messages — which name the path and the fix — reach the person intact.

use std::path::PathBuf;

/// Errors from the run log. None is retried automatically.
#[derive(Debug, thiserror::Error)]
pub enum RunLogError {
    /// A request the run log refuses (a file name that is not one of the run's, a run still
    /// running in another process). The message says what to change. Not retried.
    #[error("{0}")]
    InvalidRequest(String),
    /// A run id that cannot name a folder under `runs/` (empty, too long, a path separator or
    /// a leading dot). Not retried.
    #[error(
        "invalid run id \"{0}\": use letters, digits, '-', '_' or '.' (not first), at most 128 characters"
    )]
    InvalidRunId(String),
    /// No audit folder (or no `events.jsonl`) for the run. Not retried.
    #[error("no events recorded for run \"{run_id}\" (looked for {})", path.display())]
    RunNotFound { run_id: String, path: PathBuf },
    /// Creating, reading or writing a run's audit files failed (permissions, disk full).
    /// Not retried; while a run is in progress the audit only logs and remembers it.
    #[error("cannot {action} {}: {err} (check the data dir's permissions and free space)", path.display())]
    AuditIo { action: &'static str, path: PathBuf, err: std::io::Error },
    /// A sealed run file cannot be read or appended to: the data folder's key of the run
    /// folders is not loaded, or the file was sealed with another folder's key (the reason says
    /// which and what to do). Nothing was changed. Not retried.
    #[error("cannot open {}: {reason}", path.display())]
    RunSealed { path: PathBuf, reason: String },
}

impl RunLogError {
    /// Short machine-readable kind, for `vibe_wire::ErrorInfo` (the same as the variant of the
    /// same name in the crates above).
    pub fn kind(&self) -> vibe_wire::ErrorKind {
        use vibe_wire::ErrorKind;
        match self {
            Self::InvalidRequest(_) | Self::InvalidRunId(_) => ErrorKind::InvalidInput,
            Self::RunNotFound { .. } => ErrorKind::NotFound,
            Self::AuditIo { .. } => ErrorKind::Io,
            Self::RunSealed { .. } => ErrorKind::WrongKey,
        }
    }
}
