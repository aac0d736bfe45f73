//! `chat.context`: the budgets of the context builder (prompt tokens per phase, history size,
//! cases, summary), with their defaults in one place. Checking them against each other is
//! the context crate's (`vibe_context`); applying them is its prompt and history modules'.

use serde::{Deserialize, Serialize};

/// How the history window is measured (docs/design.md#history).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
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
/// section may name only what it changes; an unknown key is refused.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(default, deny_unknown_fields)]
pub struct ContextLimits {
    /// System prompt + tool definitions in phase 1 (no active skill). Default 2000 (the
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
            phase1_prompt_tokens: 2000,
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
