//! Run budgets (docs/design.md#budgets): how far one run may go before it closes gracefully.

use serde::{Deserialize, Serialize};

use vibe_context::ContextLimits;

/// Limits of one run (the `chat.budgets` settings section). Defaults in one place; settings
/// override with `serde(default)`; an unknown key is refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Budgets {
    /// Model calls that may request tools (the closing call after a budget stop is extra and
    /// offers no tools).
    pub max_rounds: u32,
    /// Tool calls executed in one run.
    pub max_tool_calls: u32,
    /// `run_script` calls in one run.
    pub max_script_runs: u32,
    /// Prompt tokens (system + tools + history + this run's messages) of one model call. Not
    /// a setting of its own: the chat service derives it from the one context-window setting,
    /// `chat.context.max_context_tokens`, less the reply reserve ([`Budgets::for_context`]).
    #[serde(skip)]
    pub max_context_tokens: u32,
    /// The same tool failing this many times in a row stops the run.
    pub max_consecutive_failures: u32,
}

impl Default for Budgets {
    fn default() -> Self {
        Self {
            max_rounds: 10,
            max_tool_calls: 24,
            max_script_runs: 3,
            max_context_tokens: prompt_room(&ContextLimits::default()),
            max_consecutive_failures: 3,
        }
    }
}

impl Budgets {
    /// These budgets with the prompt limit the context limits give.
    pub fn for_context(mut self, limits: &ContextLimits) -> Self {
        self.max_context_tokens = prompt_room(limits);
        self
    }
}

/// What a prompt may take of the model's context window: the window less the reply reserve.
fn prompt_room(limits: &ContextLimits) -> u32 {
    limits.max_context_tokens.saturating_sub(limits.reply_reserve_tokens)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_prompt_limit_follows_the_one_context_window_setting() {
        assert_eq!(Budgets::default().max_context_tokens, 14_000);
        let limits = ContextLimits { max_context_tokens: 32_000, ..ContextLimits::default() };
        assert_eq!(Budgets::default().for_context(&limits).max_context_tokens, 30_000);
        let typo = serde_json::from_str::<Budgets>(r#"{"max_round": 3}"#).unwrap_err();
        assert!(typo.to_string().contains("max_round"), "{typo}");
        let moved = serde_json::from_str::<Budgets>(r#"{"max_context_tokens": 3}"#);
        assert!(moved.is_err(), "the context window is set in chat.context only");
    }
}
