//! The protocol engine's error type: refusals of a protocol command (no such protocol, no
//! active run, a finished run). Invalid `step_data` is not an error: it is an observation for
//! the model (see `engine::Advance`). Store and skills failures pass through unchanged.

use vibe_skills::SkillsError;
use vibe_store::StoreError;
use vibe_wire::ErrorKind;

/// Errors from protocol commands. None is retried automatically.
#[derive(Debug, thiserror::Error)]
pub enum ProtocolError {
    /// No skill has a (valid) protocol with this id.
    #[error(
        "no protocol named `{id}` (a protocol whose skill files have errors is disabled until they check clean)"
    )]
    UnknownProtocol { id: String },
    /// Several skills define this protocol id.
    #[error("protocol `{id}` exists in several skills ({skills}); name the skill to choose one")]
    Ambiguous { id: String, skills: String },
    /// The command needs an active run and the skill has none.
    #[error("skill `{skill}` has no active protocol (start one, or resume a paused run)")]
    NoActiveRun { skill: String },
    /// A reminder time that the run's current step does not declare.
    #[error("the current step of run {run_id} has no reminder at {at} (reminders: {known})")]
    UnknownReminder { run_id: String, at: String, known: String },
    /// Reading or writing the run failed (or the store refused it: a finished run).
    #[error(transparent)]
    Store(#[from] StoreError),
    /// The protocol's skill or file could not be loaded.
    #[error(transparent)]
    Skills(#[from] SkillsError),
}

impl ProtocolError {
    /// Short machine-readable kind, for `vibe_wire::ErrorInfo`.
    pub fn kind(&self) -> ErrorKind {
        match self {
            Self::UnknownProtocol { .. } | Self::NoActiveRun { .. } => ErrorKind::NotFound,
            Self::Ambiguous { .. } | Self::UnknownReminder { .. } => ErrorKind::InvalidInput,
            Self::Store(e) => e.kind(),
            Self::Skills(_) => ErrorKind::Skills,
        }
    }
}
