//! The Today screen and conversation starters (issue 31): what a person sees first when they
//! open the app — today's check-ins, the streak, a journaling prompt from the active skill, the
//! active protocol's current step, due reminders and the conversation to continue — and the
//! starters a new conversation offers. Prompts and starters are declared by skills in their
//! folder, in both UI languages.

use serde::{Deserialize, Serialize};

use super::{
    ConversationSummary, JournalEntryView, ProtocolRunView, ReminderView, SafetyNoticeView,
};

/// `today`: the Today screen for the local day (or `date`, for tests and the command line).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct TodayRequest {
    /// The UI language (`zh-CN` or `en`) the prompt is wanted in; absent is the settings'
    /// language.
    #[serde(default)]
    pub lang: Option<String>,
    /// `YYYY-MM-DD`; absent is today (local time).
    #[serde(default)]
    pub date: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct TodayView {
    /// The day shown (`YYYY-MM-DD`, local).
    pub date: String,
    /// The day's check-ins, newest first.
    pub checkins: Vec<JournalEntryView>,
    /// The day's other journal entries (the person's and the coach's), newest first.
    pub journal: Vec<JournalEntryView>,
    pub streak: StreakView,
    /// Today's journaling prompt from the skills that declare prompts (rotating by day);
    /// absent when no skill declares any.
    pub prompt: Option<DailyPromptView>,
    /// The protocol run in progress (the most recently active one), if any.
    pub protocol: Option<ActiveProtocolView>,
    /// Reminders due and not answered, oldest first.
    pub reminders: Vec<ReminderView>,
    /// The conversation most recently updated, to continue.
    pub last_conversation: Option<ConversationSummary>,
    /// The crisis notice of the day's newest check-in or entry the person wrote whose words
    /// read as a wellbeing risk (docs/safety.md#journal-and-check-ins): the contacts stay in
    /// reach on Today for the rest of that day.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub safety: Option<SafetyNoticeView>,
}

/// Days in a row with a check-in or a journal entry the person wrote.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct StreakView {
    /// The current run of days: ending today, or yesterday when today has none yet (so the
    /// streak is not lost before the day is over).
    pub days: u32,
    /// Whether today already counts.
    pub today_done: bool,
    /// The longest run ever.
    pub longest: u32,
}

/// A journaling question for the day.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct DailyPromptView {
    /// The skill that declares it.
    pub skill: String,
    /// In the language asked for (the skill's Chinese text when it has no English one).
    pub text: String,
}

/// The protocol run in progress and where it stands.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct ActiveProtocolView {
    pub run: ProtocolRunView,
    /// The protocol's title in the language asked for.
    pub title: String,
    /// The current step's title (as the protocol file names it).
    pub step_title: String,
}

/// `conversation_starters`: what a new conversation offers to say first.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct StartersRequest {
    /// `zh-CN` or `en`; absent is the settings' language.
    #[serde(default)]
    pub lang: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct StarterList {
    /// Two or three per skill that declares them, skills in the catalogue's order.
    pub starters: Vec<StarterView>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct StarterView {
    pub skill: String,
    /// The skill's display name in the language asked for.
    pub skill_name: String,
    /// The message it sends, in the language asked for.
    pub text: String,
}
