//! Insights (issue 31): the series the Insights screen draws, computed in the core from the
//! journal, the protocol runs and the life coach's goals — mood over time, a calendar of
//! check-in and journal days, feelings by frequency, protocols completed, goals with their
//! progress — and the week's summary. Numbers only; the UI draws and words them.

use serde::{Deserialize, Serialize};

/// How far back Insights looks, ending today.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum InsightsRange {
    /// The last 7 days.
    Week,
    /// The last 30 days.
    #[default]
    Month,
    /// The last 90 days.
    Quarter,
    /// The last 365 days.
    Year,
}

/// `insights`: the series for `range`, ending `until` (absent: today, local time).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct InsightsRequest {
    #[serde(default)]
    pub range: InsightsRange,
    /// `YYYY-MM-DD`, inclusive; absent is today.
    #[serde(default)]
    pub until: Option<String>,
    /// `zh-CN` or `en`, for protocol titles; absent is the settings' language.
    #[serde(default)]
    pub lang: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct InsightsView {
    /// The first day of the range (`YYYY-MM-DD`, inclusive).
    pub since: String,
    /// The last day of the range (`YYYY-MM-DD`, inclusive).
    pub until: String,
    /// Every entry with a mood in the range, oldest first (the chart's points).
    pub mood_points: Vec<MoodPoint>,
    /// Per day with at least one mood: their mean (the chart's line), oldest first.
    pub mood_days: Vec<MoodDay>,
    /// Every day of the range, oldest first (the calendar heat map).
    pub days: Vec<DayActivity>,
    /// Feelings named in the range, most frequent first (ties by name).
    pub feelings: Vec<FeelingCount>,
    /// Protocol runs completed in the range, oldest first.
    pub protocols: Vec<CompletedProtocol>,
    /// The life coach's goals (every status), active first.
    pub goals: Vec<GoalProgress>,
    /// The seven days ending `until`.
    pub week: WeekSummary,
}

/// One entry's mood.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct MoodPoint {
    /// `YYYY-MM-DD`.
    pub date: String,
    /// The entry's id (its creation stamp).
    pub entry_id: String,
    /// 1–5.
    pub mood: u8,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct MoodDay {
    pub date: String,
    /// The mean of the day's moods (1.0–5.0).
    pub mean: f64,
    pub count: u32,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct DayActivity {
    pub date: String,
    pub checkins: u32,
    /// Journal entries other than check-ins (the person's and the coach's).
    pub journal: u32,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct FeelingCount {
    pub feeling: String,
    pub count: u32,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct CompletedProtocol {
    pub run_id: String,
    pub skill: String,
    pub protocol_id: String,
    /// In the language asked for.
    pub title: String,
    /// RFC 3339.
    pub completed_at: String,
    pub steps: u32,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct GoalProgress {
    /// The goal's key in the life coach's `goals`.
    pub id: String,
    pub title: String,
    /// `active`, `paused`, `done` or `dropped` (as the coach wrote it).
    pub status: String,
    /// `YYYY-MM-DD`, when the goal has one.
    pub deadline: Option<String>,
    /// Milestones recorded for it (`progress.milestones` naming the goal), all time.
    pub milestones: u32,
    /// The date of the latest milestone.
    pub last_milestone: Option<String>,
}

/// The week in numbers, for the summary card.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct WeekSummary {
    pub since: String,
    pub until: String,
    pub checkins: u32,
    pub journal_entries: u32,
    /// Days with a check-in or an entry.
    pub active_days: u32,
    /// The mood given most often (the higher one on a tie); absent without moods.
    pub mood_mode: Option<u8>,
    pub mood_mean: Option<f64>,
    /// The previous seven days' mean, to compare with.
    pub previous_mood_mean: Option<f64>,
    /// Titles of the protocols completed this week, in the language asked for.
    pub protocols_completed: Vec<String>,
}

/// `insights_week_words`: the seven days ending `until` (absent: today) in the coach's words.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct WeekWordsRequest {
    /// `YYYY-MM-DD`, inclusive; absent is today.
    #[serde(default)]
    pub until: Option<String>,
    /// `zh-CN` or `en`: the language of the words; absent is the settings' language.
    #[serde(default)]
    pub lang: Option<String>,
}

/// The week's summary said by the configured model from its figures (only the figures of
/// [`WeekSummary`] went to the model, never an entry's text).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct WeekWords {
    /// Two or three sentences, plain text.
    pub text: String,
    /// The figures the words were made from.
    pub week: WeekSummary,
}
