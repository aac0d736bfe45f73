//! The one error type of `vibe-core`. Variants wrap the lower crates' errors unchanged, so
//! their messages (which name the field, the path and the fix) reach the person intact.

use std::path::PathBuf;

use vibe_charts::ChartError;
use vibe_context::ContextError;
use vibe_runlog::RunLogError;
use vibe_skills::SkillsError;
use vibe_store::StoreError;
use vibe_wire::ErrorKind;

/// Errors from the core services. None is retried automatically.
#[derive(Debug, thiserror::Error)]
pub enum CoreError {
    /// The chart could not be computed: `birth_info` missing or malformed (the message names
    /// the field), or an unknown `compute_type`.
    #[error(transparent)]
    Chart(#[from] ChartError),
    /// Reading the profile or saving the chart failed.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// A skill could not be found or loaded.
    #[error(transparent)]
    Skills(#[from] SkillsError),
    /// A request the chat service refuses (empty message, unknown skill, nothing to retry).
    /// The message says what to change. Not retried.
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
    /// The BPE vocabulary could not be loaded (a broken build; not retried).
    #[error("the tokenizer could not be loaded: {0}; reinstall VibeLife")]
    Tokenizer(String),
    /// A protocol command was refused (unknown protocol, no active run, a finished run).
    #[error(transparent)]
    Protocol(#[from] vibe_protocol::ProtocolError),
    /// The runtime shut down while a database call waited on its blocking thread; the call
    /// did not complete. Not retried.
    #[error("the app is shutting down; the database call did not complete")]
    ShuttingDown,
    /// A context setting is out of range; the message names the setting and the valid range.
    /// Not retried.
    #[error("invalid context setting: {0}")]
    InvalidLimits(String),
}

/// A context error keeps its variant's meaning (and message) here: a store or skills error
/// stays one, so `kind()` and the app's hints read it as before the context was a crate.
impl From<ContextError> for CoreError {
    fn from(e: ContextError) -> Self {
        match e {
            ContextError::Store(StoreError::ShuttingDown) => Self::ShuttingDown,
            ContextError::Store(e) => Self::Store(e),
            ContextError::Skills(e) => Self::Skills(e),
            ContextError::Tokenizer(e) => Self::Tokenizer(e),
            ContextError::InvalidLimits(e) => Self::InvalidLimits(e),
        }
    }
}

/// A run log error keeps its variant (and message) here, so `kind()`, the app's hints and the
/// front ends read it as before the run log was a crate.
impl From<RunLogError> for CoreError {
    fn from(e: RunLogError) -> Self {
        match e {
            RunLogError::InvalidRequest(m) => Self::InvalidRequest(m),
            RunLogError::InvalidRunId(id) => Self::InvalidRunId(id),
            RunLogError::RunNotFound { run_id, path } => Self::RunNotFound { run_id, path },
            RunLogError::AuditIo { action, path, err } => Self::AuditIo { action, path, err },
            RunLogError::RunSealed { path, reason } => Self::RunSealed { path, reason },
        }
    }
}

impl CoreError {
    /// Short machine-readable kind, for `vibe_wire::ErrorInfo`.
    pub fn kind(&self) -> ErrorKind {
        match self {
            Self::Chart(ChartError::MissingField { .. } | ChartError::InvalidField { .. }) => {
                ErrorKind::InvalidInput
            }
            Self::Chart(ChartError::UnknownComputeType(_)) => ErrorKind::UnknownComputeType,
            Self::Chart(ChartError::Calendar(_)) => ErrorKind::Internal,
            Self::Store(e) => e.kind(),
            Self::Tokenizer(_) | Self::ShuttingDown => ErrorKind::Internal,
            Self::InvalidLimits(_) => ErrorKind::InvalidInput,
            Self::Skills(
                SkillsError::UnknownSkill { .. }
                | SkillsError::UnknownPart { .. }
                | SkillsError::ResourceNotFound { .. },
            ) => ErrorKind::NotFound,
            Self::Skills(SkillsError::Invalid { .. } | SkillsError::InvalidName { .. }) => {
                ErrorKind::InvalidSkill
            }
            Self::Skills(_) => ErrorKind::Skills,
            Self::InvalidRequest(_) => ErrorKind::InvalidInput,
            Self::InvalidRunId(_) => ErrorKind::InvalidInput,
            Self::RunNotFound { .. } => ErrorKind::NotFound,
            Self::AuditIo { .. } => ErrorKind::Io,
            Self::RunSealed { .. } => ErrorKind::WrongKey,
            Self::Protocol(e) => e.kind(),
        }
    }
}
