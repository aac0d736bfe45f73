//! The undo history of the person's data (docs/design.md#undo): listing the recorded changes
//! of a skill's state or of the profile, and reverting them.

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// Whose history: one skill's saved state, or the profile's own sections (everything but
/// `skills`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum HistoryTargetView {
    Skill { skill: String },
    Profile,
}

/// Who made a change.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum ChangeSource {
    /// A model's tool call (its run id is given).
    Model,
    /// The `vibe` command line.
    Cli,
    /// The desktop app.
    App,
    /// A profile import.
    Import,
}

/// `state_history`: the newest changes first, at most `limit` (default 50).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct StateHistoryRequest {
    pub target: HistoryTargetView,
    #[serde(default)]
    pub limit: Option<u32>,
}

/// One recorded change.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct StateChangeView {
    /// Give it to `undo_state` as `to` to go back to before this change.
    pub id: i64,
    /// RFC 3339.
    pub at: String,
    /// The dotted path changed; `*` for a whole-value change (an undo, an import).
    pub path: String,
    pub by: ChangeSource,
    /// The model's run, for a change a model made.
    pub run_id: Option<String>,
    /// A short "before → after".
    pub summary: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct StateHistoryView {
    pub target: HistoryTargetView,
    pub changes: Vec<StateChangeView>,
}

/// `undo_state`: revert the newest change, or (with `to`) that change and every later one.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct UndoStateRequest {
    pub target: HistoryTargetView,
    #[serde(default)]
    pub to: Option<i64>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct UndoStateResponse {
    pub target: HistoryTargetView,
    /// The change reverted back to.
    pub reverted_to: i64,
    /// How many recorded changes were reverted.
    pub changes_reverted: u32,
    /// The record of this undo (undo it to redo).
    pub recorded_as: i64,
    /// The target's value now.
    pub value: Value,
}

/// `clear_state_history`: the person clears a target's undo history. A change that removed
/// their data and is younger than 90 days stays (with the changes after it) until then.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct ClearStateHistoryRequest {
    pub target: HistoryTargetView,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct ClearStateHistoryResponse {
    pub target: HistoryTargetView,
    /// Changes removed.
    pub removed: u32,
    /// Changes kept: a recent change that removed data, and the changes after it.
    pub kept: u32,
    /// When the kept changes go (RFC 3339), if any were kept.
    #[serde(default)]
    pub kept_until: Option<String>,
}
