//! The one error type of `vibe-context`. Store and skills errors pass through unchanged, so
//! their messages (which name the field, the path and the fix) reach the person intact;
//! `vibe-core` folds each variant into its own error of the same name.

use vibe_skills::SkillsError;
use vibe_store::StoreError;

/// Errors from building a prompt, a history window or a compaction. None is retried
/// automatically.
#[derive(Debug, thiserror::Error)]
pub enum ContextError {
    /// Reading the profile, state, history or calibration, or writing a summary, failed.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// A skill could not be found or loaded.
    #[error(transparent)]
    Skills(#[from] SkillsError),
    /// The BPE vocabulary could not be loaded (a broken build; not retried).
    #[error("the tokenizer could not be loaded: {0}; reinstall VibeLife")]
    Tokenizer(String),
    /// A context setting is out of range; the message names the setting and the valid range.
    /// Not retried.
    #[error("invalid context setting: {0}")]
    InvalidLimits(String),
}
