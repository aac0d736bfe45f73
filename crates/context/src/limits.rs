//! [`ContextLimits`]: the budgets of the context builder (prompt tokens per phase, history
//! size, cases, summary). The `chat.context` section itself, with its defaults, is a wire type
//! (`vibe_wire::settings`); here is the check that the builder can honour it and the fitting
//! of the budgets to a model's context window ([`ContextLimitsExt`]). Applying them is the job
//! of the prompt and history modules; finding the window is the app's.

pub use vibe_wire::settings::{ContextLimits, HistoryMode};

use crate::ContextError;

/// The smallest context window the prompts can be fitted to.
pub const MIN_CONTEXT_WINDOW: u32 = 2048;
/// Most of the window the reply reserve may take, in percent.
const REPLY_SHARE: u32 = 25;
/// Most of the prompt room (the window less the reply reserve) a phase-2 prompt may take, in
/// percent; the rest is history's.
const PHASE2_SHARE: u32 = 60;
/// The same for a phase-1 prompt.
const PHASE1_SHARE: u32 = 40;

/// Checking the context limits and fitting them to a model.
pub trait ContextLimitsExt {
    /// Refuse settings the builder cannot honour, naming the setting and the valid range.
    fn validate(&self) -> Result<(), ContextError>;

    /// These limits for a model whose context window is `window` tokens (docs/local-model.md,
    /// "Budgets follow the model"): the window in force is the smaller of `window` and
    /// `max_context_tokens`; the reply reserve takes at most a quarter of it; each phase's
    /// prompt budget at most 60 % (phase 2) or 40 % (phase 1) of what is left, and the
    /// history token budgets at most the rest — the settings' values are upper bounds, so the
    /// defaults on a 16k window are unchanged. A window under [`MIN_CONTEXT_WINDOW`] is
    /// refused, naming it; the result is validated.
    fn fitted_to(&self, window: u32) -> Result<ContextLimits, ContextError>;
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

    fn fitted_to(&self, window: u32) -> Result<ContextLimits, ContextError> {
        let window = window.min(self.max_context_tokens);
        if window < MIN_CONTEXT_WINDOW {
            return Err(ContextError::InvalidLimits(format!(
                "the model's context window is {window} tokens, but the prompts need at least \
                 {MIN_CONTEXT_WINDOW}; choose a model with a larger window, or raise \
                 llm.local.context_tokens / chat.context.max_context_tokens if the model allows more"
            )));
        }
        let reply = self.reply_reserve_tokens.min(window * REPLY_SHARE / 100);
        let room = window - reply;
        let phase1 = self.phase1_prompt_tokens.min(room * PHASE1_SHARE / 100).max(500);
        let phase2 = self.phase2_prompt_tokens.min(room * PHASE2_SHARE / 100).max(1000);
        let fitted = ContextLimits {
            max_context_tokens: window,
            reply_reserve_tokens: reply,
            phase1_prompt_tokens: phase1,
            phase2_prompt_tokens: phase2,
            phase1_history_tokens: self.phase1_history_tokens.min(room - phase1).max(100),
            phase2_history_tokens: self.phase2_history_tokens.min(room - phase2).max(100),
            ..self.clone()
        };
        fitted.validate()?;
        Ok(fitted)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_are_the_documented_ones_and_valid() {
        let l = ContextLimits::default();
        assert_eq!((l.phase1_prompt_tokens, l.phase2_prompt_tokens), (2000, 6000));
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
    fn the_defaults_on_a_16k_window_are_unchanged_and_a_larger_window_changes_nothing() {
        let l = ContextLimits::default();
        assert_eq!(l.fitted_to(16_000).unwrap(), l);
        assert_eq!(l.fitted_to(131_072).unwrap(), l, "the settings' window is the cap");
    }

    #[test]
    fn a_4k_model_gets_budgets_that_leave_room_for_history_and_the_answer() {
        let l = ContextLimits::default().fitted_to(4096).unwrap();
        assert_eq!(l.max_context_tokens, 4096);
        assert_eq!(l.reply_reserve_tokens, 1024);
        assert_eq!((l.phase1_prompt_tokens, l.phase2_prompt_tokens), (1228, 1843));
        assert_eq!((l.phase1_history_tokens, l.phase2_history_tokens), (1500, 1229));
        assert!(l.phase2_prompt_tokens + l.phase2_history_tokens + l.reply_reserve_tokens <= 4096);
        l.validate().unwrap();
        // A window the settings already name is fitted the same way (today's 4096 is refused
        // by `validate` alone: the default budgets do not fit it).
        let set = ContextLimits { max_context_tokens: 4096, ..ContextLimits::default() };
        assert!(set.validate().is_err());
        assert_eq!(set.fitted_to(u32::MAX).unwrap(), l);
    }

    #[test]
    fn a_window_too_small_for_any_prompt_is_refused_naming_it() {
        let err = ContextLimits::default().fitted_to(1024).unwrap_err().to_string();
        assert!(err.contains("1024 tokens") && err.contains("llm.local.context_tokens"), "{err}");
        ContextLimits::default().fitted_to(MIN_CONTEXT_WINDOW).unwrap();
    }

    #[test]
    fn out_of_range_settings_name_the_setting() {
        let l = ContextLimits { phase2_history_messages: 0, ..ContextLimits::default() };
        assert!(l.validate().unwrap_err().to_string().contains("phase2_history_messages"));
        let l = ContextLimits { max_context_tokens: 4000, ..ContextLimits::default() };
        assert!(l.validate().unwrap_err().to_string().contains("max_context_tokens"));
    }
}
