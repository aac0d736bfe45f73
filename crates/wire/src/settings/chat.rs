//! The `chat` section: run budgets, context limits (`context.rs`), protocol rules and when
//! memory extraction runs. Applying them is the core's (chat service, agent, protocol engine,
//! memory triggers).

use serde::{Deserialize, Serialize};

use super::context::ContextLimits;

/// The `chat` section of settings.json (the core's `ChatConfig`); an unknown key is refused.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(default, deny_unknown_fields)]
pub struct ChatSettings {
    /// How far one run may go.
    pub budgets: Budgets,
    /// Budgets of the context builder (docs/context.md, "Settings").
    pub context: ContextLimits,
    /// Seed for tools that draw at random (tests, evals, replays).
    pub seed: Option<u64>,
    /// Compaction summaries written by the model (one extra call) instead of the
    /// deterministic digest alone.
    pub summarize_with_model: bool,
    /// Protocol rules (idle timeout, recap).
    pub protocol: ProtocolSettings,
    /// When memory extraction runs by itself (docs/memory.md).
    pub memory: MemorySettings,
}

/// Limits of one run (`chat.budgets`, docs/design.md#budgets); an unknown key is refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(default, deny_unknown_fields)]
pub struct Budgets {
    /// Model calls that may request tools (the closing call after a budget stop is extra and
    /// offers no tools). Default 10.
    pub max_rounds: u32,
    /// Tool calls executed in one run. Default 24.
    pub max_tool_calls: u32,
    /// `run_script` calls in one run. Default 3.
    pub max_script_runs: u32,
    /// Prompt tokens (system + tools + history + this run's messages) of one model call. Not
    /// a setting of its own (never read from or written to the file): derived from the one
    /// context-window setting, `chat.context.max_context_tokens`, less the reply reserve
    /// ([`Budgets::for_context`]).
    #[serde(skip)]
    pub max_context_tokens: u32,
    /// The same tool failing this many times in a row stops the run. Default 3.
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

/// `chat.protocol`: when a paused protocol is recapped or asked about.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(default, deny_unknown_fields)]
pub struct ProtocolSettings {
    /// After an idle gap longer than this, the coach first asks whether to continue the step
    /// or restart it (docs/design.md#open-questions-answered). Default 60.
    pub idle_timeout_minutes: u64,
    /// After a gap longer than this (but within the timeout) the coach resumes with a short
    /// recap of where the person was. Default 10.
    pub recap_after_minutes: u64,
}

impl Default for ProtocolSettings {
    fn default() -> Self {
        Self { idle_timeout_minutes: 60, recap_after_minutes: 10 }
    }
}

/// `chat.memory`: when extraction runs by itself; an unknown key is refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(default, deny_unknown_fields)]
pub struct MemorySettings {
    /// A conversation whose newest message is this many minutes old is read. Default 10;
    /// 0 turns the quiet trigger off.
    pub quiet_minutes: u32,
    /// A conversation with this many messages of the person not yet read is read at the end
    /// of the turn. Default 10; 0 turns the turn trigger off.
    pub every_turns: u32,
}

impl Default for MemorySettings {
    fn default() -> Self {
        Self { quiet_minutes: 10, every_turns: 10 }
    }
}
