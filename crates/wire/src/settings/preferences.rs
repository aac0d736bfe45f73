//! The `preferences` section: front-end choices the core keeps for them (the language) and how
//! due protocol reminders reach the person. When a reminder is due and whether to notify is
//! the core's protocol engine's.

use serde::{Deserialize, Serialize};

use super::time_of_day::TimeOfDay;

/// The `preferences` section; an unknown key is refused.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(default, deny_unknown_fields)]
pub struct Preferences {
    /// The language of the front end. Default `system`.
    pub language: Language,
    /// Due protocol reminders as notifications: on or off, quiet hours.
    pub reminders: ReminderSettings,
}

/// The language of the front end.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub enum Language {
    /// Follow the system locale.
    #[default]
    #[serde(rename = "system")]
    System,
    #[serde(rename = "zh-CN")]
    ZhCn,
    #[serde(rename = "en")]
    En,
}

/// `preferences.reminders`: how due protocol reminders reach the person while the desktop
/// app runs; an unknown key is refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(default, deny_unknown_fields)]
pub struct ReminderSettings {
    /// Show due reminders as desktop notifications (and the app's reminder card). Default on.
    pub notify: bool,
    /// No notification during these hours; a reminder due then waits until they end.
    /// Default none; start = end is refused.
    pub quiet_hours: Option<QuietHours>,
}

impl Default for ReminderSettings {
    fn default() -> Self {
        Self { notify: true, quiet_hours: None }
    }
}

/// Quiet hours: from `start` up to (not including) `end`; `end` before `start` crosses
/// midnight (22:00–07:00 is quiet at 23:30 and at 06:59, not at 07:00).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(deny_unknown_fields)]
pub struct QuietHours {
    pub start: TimeOfDay,
    pub end: TimeOfDay,
}

impl QuietHours {
    /// Whether `minute` (after midnight) is quiet.
    pub fn contains(&self, minute: u32) -> bool {
        let (start, end) = (self.start.minute(), self.end.minute());
        if start <= end { (start..end).contains(&minute) } else { minute >= start || minute < end }
    }
}
