//! The protocol engine's error type: refusals of a protocol command (no such protocol, no
//! active run, a finished run). Invalid `step_data` is not an error: it is an observation for
//! the model (see `engine::Advance`). Store and skills failures pass through unchanged.

use vibe_skills::SkillsError;
use vibe_store::StoreError;

/// Errors from protocol commands. None is retried automatically.
#[derive(Debug, thiserror::Error)]
pub enum ProtocolError {
    /// No skill has a (valid) protocol with this id.
    #[error(
        "no protocol named `{id}` (see `vibe protocol list`; a protocol with errors is disabled: run `vibe skills check`)"
    )]
    UnknownProtocol { id: String },
    /// Several skills define this protocol id.
    #[error("protocol `{id}` exists in several skills ({skills}); pass --skill to choose one")]
    Ambiguous { id: String, skills: String },
    /// The command needs an active run and the skill has none.
    #[error(
        "skill `{skill}` has no active protocol (start one with `vibe protocol start ID`, or resume a paused run with `vibe protocol resume RUN_ID`)"
    )]
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
    pub fn kind(&self) -> &'static str {
        match self {
            Self::UnknownProtocol { .. } | Self::NoActiveRun { .. } => "not_found",
            Self::Ambiguous { .. } | Self::UnknownReminder { .. } => "invalid_input",
            Self::Store(e) => e.kind(),
            Self::Skills(_) => "skills",
        }
    }
}
