//! Skill-state commands (docs/design.md#state-semantics): read sections, deep-merge one
//! section, put an entry first in a list, edit one entry of a list in place. `skill_state` (one section or all, for a screen)
//! is in `profile.rs`.

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// `read_state`: a skill's saved state, all sections or the named ones.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct ReadStateRequest {
    pub skill: String,
    #[serde(default)]
    pub sections: Option<Vec<String>>,
}

/// Whether anything is saved.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum StateReadStatus {
    Success,
    /// Nothing is saved for the skill (or in the sections asked for).
    Empty,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct StateRead {
    pub status: StateReadStatus,
    pub skill_id: String,
    pub data: Value,
    /// Damaged list entries left out of `data`, each said once (docs/design.md#state-semantics).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<String>,
}

/// `write_state`: deep-merge a JSON object into one top-level section (null removes a key).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct WriteStateRequest {
    pub skill: String,
    pub section: String,
    pub data: Value,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct StateWritten {
    pub skill_id: String,
    pub section: String,
}

/// `append_state`: put a JSON object first in the list at a dotted path (newest first);
/// with `max_items`, the oldest beyond that many are dropped.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct AppendStateRequest {
    pub skill: String,
    pub path: String,
    pub entry: Value,
    #[serde(default)]
    pub max_items: Option<u32>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct StateAppended {
    pub skill_id: String,
    pub path: String,
    /// Items in the list after the append.
    pub length: u32,
    /// Oldest items dropped to honour `max_items`.
    pub dropped: u32,
    /// The stored entry, with its `_created_at`.
    pub entry: Value,
}

/// `edit_state_entry`: replace one entry of a list grown by `append_state` (a journal entry),
/// named by its place as read (0 = newest) and its `_created_at`, which must still match.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct EditStateEntryRequest {
    pub skill: String,
    /// The list's dotted path under the skill, e.g. `journal`.
    pub path: String,
    pub index: u32,
    pub created_at: String,
    /// The entry's new fields (a JSON object; `_` fields are the app's and are ignored).
    pub entry: Value,
}

/// The entry as stored (its `_created_at` kept, `_edited_at` stamped).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct StateEntryEdited {
    pub skill_id: String,
    pub path: String,
    pub entry: Value,
    /// The crisis notice when the entry's new words read as a wellbeing risk (the rules
    /// alone, as for a journal entry; docs/safety.md#journal-and-check-ins). The entry is
    /// saved either way.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub safety: Option<super::SafetyNoticeView>,
}
