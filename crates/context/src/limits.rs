//! [`ContextLimits`]: the budgets of the context builder (prompt tokens per phase, history
//! size, cases, summary). The `chat.context` section itself, with its defaults, is a wire type
//! (`vibe_wire::settings`); here is the check that the builder can honour it
//! ([`ContextLimitsExt`]). Applying them is the job of the prompt and history modules.

pub use vibe_wire::settings::{ContextLimits, HistoryMode};

use crate::ContextError;

/// Checking the context limits.
pub trait ContextLimitsExt {
    /// Refuse settings the builder cannot honour, naming the setting and the valid range.
    fn validate(&self) -> Result<(), ContextError>;
}

impl ContextLimitsExt for ContextLimits {
    fn validate(&self) -> Result<(), ContextError> {
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
