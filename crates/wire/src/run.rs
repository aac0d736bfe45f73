//! Small value types carried by run events: phase, plan, token counts, stop reasons.

use serde::{Deserialize, Serialize};

use crate::kinds::named_enum;
use crate::{PlanStepStatus, RunStatus};

/// Context phase (docs/design.md#two-phase-context): phase 1 chooses a skill, phase 2 runs one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    /// No active skill: light core persona and the skill catalog.
    Phase1,
    /// An active skill: its expert prompt, data and tools.
    Phase2,
}

/// Tokens used by one named part of a prompt.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct SectionTokens {
    pub name: String,
    pub tokens: u32,
}

/// The budget a model request was fitted to (docs/local-model.md, "Budgets follow the
/// model"): the model's context window in force, what of it the phase's prompt (system prompt,
/// tools and the turn's sections) may take, and what is kept free for the answer; history
/// gets what is left.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct PromptBudget {
    pub context_window: u32,
    pub prompt_budget: u32,
    pub reply_reserve: u32,
}

/// The explicit plan of a run (docs/design.md#the-agent-loop).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct Plan {
    #[serde(default)]
    pub goal: String,
    #[serde(default)]
    pub steps: Vec<PlanStep>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct PlanStep {
    pub title: String,
    /// Absent in the model's input means `pending`.
    #[serde(default)]
    pub status: PlanStepStatus,
}

/// Who wrote a compaction summary.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum SummaryBy {
    /// The summarising model call (`chat.summarize_with_model`).
    Model,
    /// The deterministic digest (model summaries off, or the model call failed).
    Digest,
}

/// Token counts.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct TokenUsage {
    #[serde(default)]
    pub prompt_tokens: u64,
    #[serde(default)]
    pub completion_tokens: u64,
    #[serde(default)]
    pub total_tokens: u64,
}

impl TokenUsage {
    pub fn add(&mut self, other: TokenUsage) {
        self.prompt_tokens += other.prompt_tokens;
        self.completion_tokens += other.completion_tokens;
        self.total_tokens += other.total_tokens;
    }
}

named_enum! {
    /// Why a run ended.
    pub enum StopReason {
        /// The model gave its final answer.
        Completed = "completed",
        /// Budget: `max_rounds` model calls.
        MaxRounds = "max_rounds",
        /// Budget: `max_tool_calls`.
        MaxToolCalls = "max_tool_calls",
        /// Budget: `max_script_runs`.
        MaxScriptRuns = "max_script_runs",
        /// Budget: the context no longer fits `max_context_tokens`.
        MaxContextTokens = "max_context_tokens",
        /// The same tool failed three times in a row.
        RepeatedToolFailure = "repeated_tool_failure",
        /// The caller cancelled.
        Cancelled = "cancelled",
        /// The model endpoint failed (after retries).
        ModelError = "model_error",
        /// The process died mid-run; found and closed on the next start.
        Interrupted = "interrupted",
        /// An internal failure (database, skills) ended the run; an `error` event says which.
        Failed = "failed",
    }
}

impl StopReason {
    /// The status a run closed for this reason is stored with.
    pub fn run_status(self) -> RunStatus {
        match self {
            Self::Cancelled => RunStatus::Cancelled,
            Self::ModelError | Self::Failed | Self::Interrupted => RunStatus::Failed,
            Self::Completed
            | Self::MaxRounds
            | Self::MaxToolCalls
            | Self::MaxScriptRuns
            | Self::MaxContextTokens
            | Self::RepeatedToolFailure => RunStatus::Completed,
        }
    }
}
