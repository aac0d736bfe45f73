//! [`ContextLimits`]: the budgets of the context builder (prompt tokens per phase, history
//! size, cases, summary), with their defaults in one place. Applying them is the job of the
//! prompt and history modules.

use serde::{Deserialize, Serialize};

use crate::ContextError;

/// How the history window is measured (docs/design.md#history).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum HistoryMode {
    /// The newest N messages (phase 1: 5, phase 2: 10 or the skill's `history.max_messages`).
    #[default]
    FixedCount,
    /// As many of the newest messages as fit a token budget (the phase's history tokens or
    /// the skill's `history.max_tokens`); old tool exchanges that do not fit are skipped so
    /// older plain conversation can still be kept.
    TokenBudget,
}

/// Budgets of the context builder. Every field has a default (see [`Default`]), so a settings
/// section may name only what it changes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ContextLimits {
    /// System prompt + tool definitions in phase 1 (no active skill). Default 2400 (the
    /// wellbeing instruction and tool of docs/safety.md take about 300 of it).
    pub phase1_prompt_tokens: u32,
    /// System prompt + tool definitions in phase 2 (an active skill). Default 6000.
    pub phase2_prompt_tokens: u32,
    /// History messages in phase 1, fixed-count mode. Default 5.
    pub phase1_history_messages: u32,
    /// History messages in phase 2, fixed-count mode, unless the skill sets
    /// `history.max_messages`. Default 10.
    pub phase2_history_messages: u32,
    /// History tokens in phase 1, token-budget mode. Default 1500.
    pub phase1_history_tokens: u32,
    /// History tokens in phase 2, token-budget mode, unless the skill sets
    /// `history.max_tokens`. Default 4000.
    pub phase2_history_tokens: u32,
    /// Fixed count (default) or token budget.
    pub history_mode: HistoryMode,
    /// The model's context window. Prompt + history + the reply reserve must fit in it, so
    /// the history token budget is capped at `max_context_tokens - prompt budget -
    /// reply_reserve_tokens`. Default 16000.
    pub max_context_tokens: u32,
    /// Tokens kept free for the model's reply. Default 2000.
    pub reply_reserve_tokens: u32,
    /// Matched cases in a phase-2 prompt. Default 2.
    pub cases_top_k: u32,
    /// Longest compaction summary kept in the conversation. Default 600.
    pub summary_max_tokens: u32,
    /// Items shown per list of the skill's state (the newest). Default 10.
    pub state_list_items: u32,
    /// Tokens of remembered items (`extracted`, docs/memory.md) in a phase-2 prompt, newest
    /// and most confident first. Default 400; 0 leaves memory out of prompts.
    pub memory_tokens: u32,
}

impl Default for ContextLimits {
    fn default() -> Self {
        Self {
            phase1_prompt_tokens: 2400,
            phase2_prompt_tokens: 6000,
            phase1_history_messages: 5,
            phase2_history_messages: 10,
            phase1_history_tokens: 1500,
            phase2_history_tokens: 4000,
            history_mode: HistoryMode::FixedCount,
            max_context_tokens: 16_000,
            reply_reserve_tokens: 2000,
            cases_top_k: 2,
            summary_max_tokens: 600,
            state_list_items: 10,
            memory_tokens: 400,
        }
    }
}

impl ContextLimits {
    /// Refuse settings the builder cannot honour, naming the setting and the valid range.
    pub fn validate(&self) -> Result<(), ContextError> {
        let positive = [
            ("phase1_prompt_tokens", self.phase1_prompt_tokens, 500),
            ("phase2_prompt_tokens", self.phase2_prompt_tokens, 1000),
            ("phase1_history_messages", self.phase1_history_messages, 1),
            ("phase2_history_messages", self.phase2_history_messages, 1),
            ("phase1_history_tokens", self.phase1_history_tokens, 100),
            ("phase2_history_tokens", self.phase2_history_tokens, 100),
            ("summary_max_tokens", self.summary_max_tokens, 50),
            ("state_list_items", self.state_list_items, 1),
        ];
        for (name, value, min) in positive {
            if value < min {
                return Err(ContextError::InvalidLimits(format!(
                    "context.{name} is {value}; use at least {min}"
                )));
            }
        }
        let needed =
            self.phase2_prompt_tokens.max(self.phase1_prompt_tokens) + self.reply_reserve_tokens;
        if self.max_context_tokens <= needed {
            return Err(ContextError::InvalidLimits(format!(
                "context.max_context_tokens is {}, but the prompt budget and the reply reserve already take {needed}; \
                 raise it (the model's context window) or lower the prompt budgets",
                self.max_context_tokens
            )));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_are_the_documented_ones_and_valid() {
        let l = ContextLimits::default();
        assert_eq!((l.phase1_prompt_tokens, l.phase2_prompt_tokens), (2400, 6000));
        assert_eq!((l.phase1_history_messages, l.phase2_history_messages), (5, 10));
        assert_eq!(l.cases_top_k, 2);
        assert_eq!(l.history_mode, HistoryMode::FixedCount);
        l.validate().unwrap();
    }

    #[test]
    fn a_partial_settings_section_keeps_the_other_defaults() {
        let l: ContextLimits =
            serde_json::from_str(r#"{"history_mode": "token_budget", "cases_top_k": 0}"#).unwrap();
        assert_eq!(l.history_mode, HistoryMode::TokenBudget);
        assert_eq!(l.cases_top_k, 0);
        assert_eq!(l.phase2_prompt_tokens, 6000);
    }

    #[test]
    fn a_misspelt_setting_is_refused() {
        let err = serde_json::from_str::<ContextLimits>(r#"{"cases_topk": 3}"#).unwrap_err();
        assert!(err.to_string().contains("cases_topk"), "{err}");
    }

    #[test]
    fn out_of_range_settings_name_the_setting() {
        let l = ContextLimits { phase2_history_messages: 0, ..ContextLimits::default() };
        assert!(l.validate().unwrap_err().to_string().contains("phase2_history_messages"));
        let l = ContextLimits { max_context_tokens: 4000, ..ContextLimits::default() };
        assert!(l.validate().unwrap_err().to_string().contains("max_context_tokens"));
    }
}
