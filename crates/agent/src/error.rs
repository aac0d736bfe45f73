//! The one error type of the agent crate (`vibe-core` re-exports it). Variants wrap the lower
//! crates' errors unchanged, so their messages (which name the field, the path and the fix)
//! reach the person intact.

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
    /// The run log refused or failed: a run id that cannot name a folder, no recorded run,
    /// its files unreadable or sealed with another key (`vibe_runlog::RunLogError`, whose
    /// message says which and what to do). Not retried.
    #[error(transparent)]
    RunLog(#[from] RunLogError),
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
    /// The model refused or failed outside a turn (a warm-up); a turn reports its model's
    /// errors as events instead. Not retried.
    #[error(transparent)]
    Model(#[from] vibe_llm::LlmError),
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
            Self::Model(e) => e.kind(),
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
            Self::RunLog(e) => e.kind(),
            Self::Protocol(e) => e.kind(),
        }
    }
}
