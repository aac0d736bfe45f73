//! Recorded runs: list them, show one, replay its events.

use serde::{Deserialize, Serialize};

use crate::{Envelope, RunStatus, StopReason, TokenUsage};

/// One run in a list.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct RunSummary {
    pub id: String,
    pub conversation_id: Option<String>,
    pub status: RunStatus,
    /// Why the run ended, once it has.
    pub stop_reason: Option<StopReason>,
    pub usage: Option<TokenUsage>,
    pub started_at: String,
    pub finished_at: Option<String>,
}

/// `list_runs`: newest first.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct ListRunsRequest {
    #[serde(default)]
    pub conversation_id: Option<String>,
    /// At least 1.
    pub limit: u32,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct RunList {
    pub runs: Vec<RunSummary>,
}

/// `show_run` and `replay_run`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct ShowRunRequest {
    pub id: String,
}

/// A run: its row (absent for a run only its folder knows), its audit folder and a summary
/// of its events.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct RunDetail {
    pub id: String,
    pub run: Option<RunSummary>,
    pub events_path: String,
    /// Counts and facts read from `events.jsonl` (absent when it is missing).
    pub events: Option<RunEventCounts>,
    /// Files in the run folder.
    pub files: Vec<RunFileView>,
    /// What a person should know about the log (unreadable lines, a run still running).
    pub notices: Vec<String>,
}

/// What a run's events say, counted.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct RunEventCounts {
    pub events: u32,
    /// Event counts by `type`.
    pub by_type: std::collections::BTreeMap<String, u32>,
    /// Model rounds started.
    pub rounds: u32,
    pub tool_calls: u32,
    /// From `run_finished`; absent when the log has no end (running, or killed).
    pub stop_reason: Option<StopReason>,
}

/// A file in a run's folder.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct RunFileView {
    pub name: String,
    pub bytes: u64,
}

/// `replay_run`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct ReplayRunRequest {
    pub id: String,
}

/// The run's events as recorded, in order.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct RunReplay {
    pub events: Vec<Envelope>,
    pub notices: Vec<String>,
}
