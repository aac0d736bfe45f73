//! Memory commands (docs/memory.md): list, show, edit, forget, export, extract, and the
//! memory switch. Items are DTOs of their own, never the store's rows.

use serde::{Deserialize, Serialize};

/// What an item is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum MemoryKind {
    Facts,
    Concerns,
    Goals,
    Patterns,
    PainPoints,
}

impl MemoryKind {
    pub const ALL: [MemoryKind; 5] =
        [Self::Facts, Self::Concerns, Self::Goals, Self::Patterns, Self::PainPoints];

    /// The snake_case name (as serialised).
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Facts => "facts",
            Self::Concerns => "concerns",
            Self::Goals => "goals",
            Self::Patterns => "patterns",
            Self::PainPoints => "pain_points",
        }
    }

    /// The kind named `name`, if any.
    pub fn from_name(name: &str) -> Option<MemoryKind> {
        Self::ALL.into_iter().find(|k| k.as_str() == name)
    }
}

impl std::fmt::Display for MemoryKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Who replaced a version of an item.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum MemoryReplacedBy {
    /// The person edited the text.
    Edit,
    /// A later conversation contradicted it.
    Extraction,
}

/// A version of an item that an edit or a contradiction replaced.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct MemoryVersion {
    pub text: String,
    pub confidence: f64,
    pub replaced_at: String,
    pub by: MemoryReplacedBy,
}

/// A message an item came from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct MemorySourceView {
    pub conversation_id: String,
    pub message_id: i64,
}

/// One remembered item.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct MemoryItemView {
    pub id: String,
    pub kind: MemoryKind,
    pub text: String,
    pub confidence: f64,
    pub first_seen: String,
    pub last_seen: String,
    /// The person edited the text (merges keep it).
    pub edited: bool,
    /// Replaced versions, oldest first.
    pub history: Vec<MemoryVersion>,
    pub sources: Vec<MemorySourceView>,
    pub updated_at: String,
}

/// `list_memory`: newest first, all kinds or one.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct ListMemoryRequest {
    #[serde(default)]
    pub kind: Option<MemoryKind>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct MemoryList {
    /// Whether memory is on.
    pub memory: bool,
    pub items: Vec<MemoryItemView>,
}

/// `show_memory_item` and `forget_memory_item`: an item by its id (or its first characters,
/// at least 4).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct MemoryItemRequest {
    pub id: String,
}

/// `edit_memory_item`: the person's own words for an item.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct EditMemoryRequest {
    pub id: String,
    pub text: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct ForgetMemoryResponse {
    /// The full id of the forgotten item.
    pub forgotten: String,
}

/// `export_memory`: every item as one document.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct MemoryExport {
    pub exported_at: String,
    pub memory: bool,
    pub items: Vec<MemoryItemView>,
}

/// `set_memory_enabled`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct SetMemoryEnabledRequest {
    pub on: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct MemorySwitch {
    pub memory: bool,
}

/// `memory_status`: the switch, what is not read yet, and the waits after failed passes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct MemoryStatus {
    pub memory: bool,
    /// Conversations with messages of the person not read yet.
    pub backlog: Vec<MemoryBacklogView>,
    /// Conversations whose last pass failed, with when the next automatic one may run.
    pub backoff: Vec<MemoryBackoffView>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct MemoryBacklogView {
    pub conversation_id: String,
    /// The person's messages not read yet.
    pub user_turns: u32,
    /// When the newest message was written (RFC 3339).
    pub last_message_at: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct MemoryBackoffView {
    pub conversation_id: String,
    /// Passes that failed in a row.
    pub failures: u32,
    /// Why the last one failed.
    pub last_error: String,
    /// When it failed (RFC 3339).
    pub failed_at: String,
    /// No automatic pass before this time (RFC 3339).
    pub next_try_at: String,
}

/// `extract_memory`: read conversations into memory now (one model call per conversation).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct ExtractMemoryRequest {
    /// Only this conversation; else every conversation with unread messages (with `again`,
    /// every conversation).
    #[serde(default)]
    pub conversation_id: Option<String>,
    /// Read every message again, not only the new ones (merges; never brings back a
    /// forgotten item).
    #[serde(default)]
    pub again: bool,
}

/// Why a pass ran by itself.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum MemoryTrigger {
    Quiet,
    Turns,
}

/// How a pass ended.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(tag = "status", rename_all = "snake_case")]
pub enum MemoryPassStatus {
    /// Memory is off: nothing was read.
    Off,
    /// No new message of the person (no model call was made).
    NothingNew,
    /// The model's answer was applied: the ids added, merged and replaced.
    Applied {
        added: Vec<String>,
        merged: Vec<String>,
        replaced: Vec<String>,
        /// New items left out because a forgotten item came from the same messages.
        dropped_forgotten: u32,
    },
    /// The model's answer was refused; nothing changed.
    Rejected { reason: String },
    /// The model call failed; nothing changed.
    ModelFailed { reason: String },
}

/// One pass over one conversation.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct MemoryPass {
    pub conversation_id: String,
    /// The pass's run (absent when no model call was made).
    pub run_id: Option<String>,
    pub trigger: Option<MemoryTrigger>,
    /// Messages given to the model.
    pub read_messages: u32,
    /// Messages left out because the safety screen marked them.
    pub skipped_risky: u32,
    /// After a failed pass: the failures in a row and when the next automatic one may run.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub backoff: Option<MemoryBackoffView>,
    #[serde(flatten)]
    pub status: MemoryPassStatus,
}

impl MemoryPass {
    /// Whether the pass changed nothing because something went wrong.
    pub fn failed(&self) -> bool {
        matches!(
            self.status,
            MemoryPassStatus::Rejected { .. } | MemoryPassStatus::ModelFailed { .. }
        )
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct ExtractMemoryResponse {
    pub passes: Vec<MemoryPass>,
    /// Notices of the model's set-up (e.g. a hosted endpoint without a key).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notices: Vec<String>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pass_reads_as_the_flat_json_of_events_files() {
        let pass = MemoryPass {
            conversation_id: "c1".into(),
            run_id: Some("r1".into()),
            trigger: None,
            read_messages: 2,
            skipped_risky: 0,
            backoff: None,
            status: MemoryPassStatus::Applied {
                added: vec!["m1".into()],
                merged: vec![],
                replaced: vec![],
                dropped_forgotten: 0,
            },
        };
        let value = serde_json::to_value(&pass).unwrap();
        assert_eq!(value["status"], "applied");
        assert_eq!(value["added"][0], "m1");
        let back: MemoryPass = serde_json::from_value(value).unwrap();
        assert_eq!(back, pass);
    }

    #[test]
    fn kinds_are_named_as_stored() {
        for kind in MemoryKind::ALL {
            assert_eq!(serde_json::to_value(kind).unwrap(), kind.as_str());
            assert_eq!(MemoryKind::from_name(kind.as_str()), Some(kind));
        }
        assert_eq!(MemoryKind::from_name("feelings"), None);
    }
}
