//! `eval`: run scenario files through the agent and score them.

use serde::{Deserialize, Serialize};

use crate::{Phase, StopReason};

/// Scenario files (YAML) to run.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct EvalRequest {
    pub files: Vec<String>,
}

/// One check of a turn.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct EvalCheck {
    pub name: String,
    pub passed: bool,
    pub detail: String,
}

/// What one turn did, read from its events.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct EvalObserved {
    /// Tool names, in call order.
    pub tool_calls: Vec<String>,
    pub stop_reason: Option<StopReason>,
    pub start_phase: Option<Phase>,
    pub rounds: u32,
    /// Tool errors and denied approvals.
    pub guardrail_hits: u32,
    /// The reply as the person saw it.
    pub reply: String,
    /// Event types seen, first occurrence order.
    pub event_types: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct EvalTurn {
    pub user: String,
    pub observed: EvalObserved,
    pub checks: Vec<EvalCheck>,
}

/// One scenario's report.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct EvalResponse {
    pub file: String,
    pub name: String,
    pub turns: Vec<EvalTurn>,
    pub passed: u32,
    pub total: u32,
    pub score: f64,
}

/// `run_eval`: every scenario's report, and how many failed a check.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct EvalResults {
    pub scenarios: Vec<EvalResponse>,
    pub failed: u32,
}
