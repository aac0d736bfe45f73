//! Run budgets (seed 004 §8.1): how far one run may go before it closes gracefully.

use serde::{Deserialize, Serialize};

/// Limits of one run. Defaults in one place; settings override with `serde(default)`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Budgets {
    /// Model calls that may request tools (the closing call after a budget stop is extra and
    /// offers no tools).
    pub max_rounds: u32,
    /// Tool calls executed in one run.
    pub max_tool_calls: u32,
    /// `run_script` calls in one run.
    pub max_script_runs: u32,
    /// Prompt tokens (system + tools + history + this run's messages) of one model call.
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
            max_context_tokens: 24_000,
            max_consecutive_failures: 3,
        }
    }
}
