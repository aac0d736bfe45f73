//! The one error type of `vibe-core`. Variants wrap the lower crates' errors unchanged, so
//! their messages (which name the field, the path and the fix) reach the person intact.

use std::path::PathBuf;

use vibe_charts::ChartError;
use vibe_skills::SkillsError;
use vibe_store::StoreError;

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
    #[error("no events recorded for run \"{run_id}\" (looked for {}); list runs with `vibe runs list`", path.display())]
    RunNotFound { run_id: String, path: PathBuf },
    /// Creating, reading or writing a run's audit files failed (permissions, disk full).
    /// Not retried; while a run is in progress the audit only logs and remembers it.
    #[error("cannot {action} {}: {err} (check the data dir's permissions and free space)", path.display())]
    AuditIo { action: &'static str, path: PathBuf, err: std::io::Error },
    /// The BPE vocabulary could not be loaded (a broken build; not retried).
    #[error("the tokenizer could not be loaded: {0}; reinstall VibeLife")]
    Tokenizer(String),
    /// A protocol command was refused (unknown protocol, no active run, a finished run).
    #[error(transparent)]
    Protocol(#[from] crate::protocol::ProtocolError),
    /// A context setting is out of range; the message names the setting and the valid range.
    /// Not retried.
    #[error("invalid context setting: {0}")]
    InvalidLimits(String),
}

impl CoreError {
    /// Short machine-readable kind, for `vibe_wire::ErrorInfo`.
    pub fn kind(&self) -> &'static str {
        match self {
            Self::Chart(ChartError::MissingField { .. } | ChartError::InvalidField { .. }) => {
                "invalid_input"
            }
            Self::Chart(ChartError::UnknownComputeType(_)) => "unknown_compute_type",
            Self::Chart(ChartError::Calendar(_)) => "internal",
            Self::Store(e) => e.kind(),
            Self::Tokenizer(_) => "internal",
            Self::InvalidLimits(_) => "invalid_input",
            Self::Skills(
                SkillsError::UnknownSkill { .. }
                | SkillsError::UnknownPart { .. }
                | SkillsError::ResourceNotFound { .. },
            ) => "not_found",
            Self::Skills(SkillsError::Invalid { .. } | SkillsError::InvalidName { .. }) => {
                "invalid_skill"
            }
            Self::Skills(_) => "skills",
            Self::InvalidRequest(_) => "invalid_input",
            Self::InvalidRunId(_) => "invalid_input",
            Self::RunNotFound { .. } => "not_found",
            Self::AuditIo { .. } => "io",
            Self::Protocol(e) => e.kind(),
        }
    }
}
