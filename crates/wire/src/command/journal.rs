//! The journal and check-ins (issue 31): the person writes, edits and removes journal entries
//! directly, and a check-in (a mood on a five-point scale, a few feelings, one line) is a
//! journal entry too. They live in the life coach's state (`skills.lifecoach.journal`), where
//! the coach reads them like the entries it writes itself.

use serde::{Deserialize, Serialize};

use crate::{SafetyCategory, SafetyResource, SafetyRisk};

/// Who wrote a journal entry.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum JournalSource {
    /// A check-in (`checkin`).
    Checkin,
    /// The person, writing in the journal (`journal_add`).
    Person,
    /// The coach, during a conversation.
    Coach,
}

/// One journal entry as the journal shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct JournalEntryView {
    /// The entry's id: the stamp of its creation (RFC 3339, one per entry of the journal).
    pub id: String,
    /// The day it is about (`YYYY-MM-DD`): the entry's own date, else the day it was written.
    pub date: String,
    /// Mood on a five-point scale (1 = very low … 5 = very good); entries the coach wrote on
    /// the earlier ten-point scale are shown on this one.
    pub mood: Option<u8>,
    pub feelings: Vec<String>,
    /// The text (Markdown). A coach's entry without one shows its highlights, lessons and
    /// plans, one per line.
    pub text: String,
    pub tags: Vec<String>,
    pub source: JournalSource,
    /// When the person last edited it (RFC 3339).
    pub edited_at: Option<String>,
}

/// `checkin`: today's (or `date`'s) mood, feelings and one line, saved as a journal entry.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct CheckinRequest {
    /// 1 (very low) … 5 (very good).
    pub mood: u8,
    #[serde(default)]
    pub feelings: Vec<String>,
    #[serde(default)]
    pub note: Option<String>,
    /// `YYYY-MM-DD`; absent is today (local time).
    #[serde(default)]
    pub date: Option<String>,
}

/// `journal_add`: a journal entry the person writes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct JournalAddRequest {
    /// `YYYY-MM-DD`; absent is today (local time).
    #[serde(default)]
    pub date: Option<String>,
    #[serde(default)]
    pub mood: Option<u8>,
    #[serde(default)]
    pub feelings: Vec<String>,
    pub text: String,
    #[serde(default)]
    pub tags: Vec<String>,
}

/// `journal_list`: entries newest first, optionally only those matching `query` (in the text,
/// feelings or tags, case-insensitive) and dated within `since`..=`until`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct JournalListRequest {
    #[serde(default)]
    pub query: Option<String>,
    /// `YYYY-MM-DD`, inclusive.
    #[serde(default)]
    pub since: Option<String>,
    /// `YYYY-MM-DD`, inclusive.
    #[serde(default)]
    pub until: Option<String>,
    /// At most this many (absent: all).
    #[serde(default)]
    pub limit: Option<u32>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct JournalList {
    pub entries: Vec<JournalEntryView>,
}

/// `journal_edit`: change the fields given of entry `id`; the others stay.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct JournalEditRequest {
    pub id: String,
    #[serde(default)]
    pub date: Option<String>,
    #[serde(default)]
    pub mood: Option<u8>,
    #[serde(default)]
    pub feelings: Option<Vec<String>>,
    #[serde(default)]
    pub text: Option<String>,
    #[serde(default)]
    pub tags: Option<Vec<String>>,
}

/// `journal_remove`: remove entry `id` (undoable from the state history).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct JournalRemoveRequest {
    pub id: String,
}

/// `checkin`, `journal_add`, `journal_edit`: the entry as saved, and a crisis notice when what
/// the person wrote reads as a wellbeing risk (docs/safety.md#journal-and-check-ins). The entry
/// is saved either way.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct JournalSaved {
    pub entry: JournalEntryView,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub safety: Option<SafetyNoticeView>,
}

/// A crisis notice outside the chat: the risk the screen found, its category, and the contacts
/// of the person's locale (as the chat's `safety_notice` event carries them).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct SafetyNoticeView {
    pub risk: SafetyRisk,
    pub category: SafetyCategory,
    pub resources: Vec<SafetyResource>,
    /// The locale the contacts were chosen for (`generic` when none is known).
    pub locale: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct JournalRemoved {
    /// The entry as it was.
    pub entry: JournalEntryView,
}
