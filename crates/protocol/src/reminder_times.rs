//! The person's reminder choices: [`ReminderSettings`] (the `preferences.reminders` settings:
//! notifications on or off, quiet hours that may cross midnight) and their own times of day
//! for a step's reminders (the profile's `preferences.reminder_times`, checked here before it is
//! stored). Choosing what to notify is `notify`'s; when a reminder is due is `reminders`'.

use std::fmt;

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// The profile path of the person's own reminder times.
pub const REMINDER_TIMES_PATH: &str = "preferences.reminder_times";

/// A time of day, `HH:MM` (00:00–23:59) in files and on the wire.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct TimeOfDay(u32);

impl TimeOfDay {
    /// `HH:MM` with two digits each, hours 00–23, minutes 00–59.
    pub fn parse(text: &str) -> Option<TimeOfDay> {
        let (h, m) = text.split_once(':')?;
        if h.len() != 2 || m.len() != 2 || !(h.bytes().chain(m.bytes())).all(|b| b.is_ascii_digit())
        {
            return None;
        }
        let (h, m) = (h.parse::<u32>().ok()?, m.parse::<u32>().ok()?);
        (h < 24 && m < 60).then_some(TimeOfDay(h * 60 + m))
    }

    /// Minutes after midnight.
    pub fn minute(self) -> u32 {
        self.0
    }

    pub fn from_minute(minute: u32) -> TimeOfDay {
        TimeOfDay(minute % (24 * 60))
    }
}

impl fmt::Display for TimeOfDay {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:02}:{:02}", self.0 / 60, self.0 % 60)
    }
}

impl TryFrom<String> for TimeOfDay {
    type Error = String;
    fn try_from(text: String) -> Result<Self, Self::Error> {
        TimeOfDay::parse(&text)
            .ok_or_else(|| format!("\"{text}\" is not a time of day: write HH:MM, 00:00 to 23:59"))
    }
}

impl From<TimeOfDay> for String {
    fn from(t: TimeOfDay) -> String {
        t.to_string()
    }
}

/// Quiet hours: from `start` up to (not including) `end`; `end` before `start` crosses
/// midnight (22:00–07:00 is quiet at 23:30 and at 06:59, not at 07:00).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
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

/// The `preferences.reminders` settings: how due protocol reminders reach the person while the
/// desktop app runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ReminderSettings {
    /// Show due reminders as desktop notifications (and the app's reminder card). Default on.
    pub notify: bool,
    /// No notification during these hours; a reminder due then waits until they end.
    /// Default none.
    pub quiet_hours: Option<QuietHours>,
}

impl Default for ReminderSettings {
    fn default() -> Self {
        Self { notify: true, quiet_hours: None }
    }
}

impl ReminderSettings {
    /// What is wrong with these settings, if anything (quiet hours of no length).
    pub fn problem(&self) -> Option<String> {
        let q = self.quiet_hours?;
        (q.start == q.end).then(|| {
            format!(
                "quiet hours start and end at the same time ({}): give them different times, or remove \"quiet_hours\" to have none",
                q.start
            )
        })
    }
}

/// The person's own reminder times (the profile's `preferences.reminder_times`): a step's
/// first reminder is asked at the first time, the second at the second, and so on; reminders
/// beyond the list keep the protocol's times. Absent or unreadable: none (the value is checked
/// when written, [`check_reminder_times`]).
pub fn personal_times(profile: &Value) -> Vec<TimeOfDay> {
    let Some(list) = profile.pointer("/preferences/reminder_times").and_then(Value::as_array)
    else {
        return Vec::new();
    };
    list.iter().map_while(|v| v.as_str().and_then(TimeOfDay::parse)).collect()
}

/// Check a value for `preferences.reminder_times`: `null` (the protocol's times) or a list of
/// at most 24 `HH:MM` times, each later than the one before.
pub fn check_reminder_times(value: &Value) -> Result<(), String> {
    let path = REMINDER_TIMES_PATH;
    let list = match value {
        Value::Null => return Ok(()),
        Value::Array(list) => list,
        other => {
            return Err(format!(
                "{path} must be a list of times of day like [\"09:00\", \"12:30\"], found {other}"
            ));
        }
    };
    if list.len() > 24 {
        return Err(format!("{path} holds at most 24 times, found {}", list.len()));
    }
    let mut last: Option<TimeOfDay> = None;
    for (i, item) in list.iter().enumerate() {
        let time = item.as_str().and_then(TimeOfDay::parse).ok_or_else(|| {
            format!("{path}[{i}] must be a time of day HH:MM (00:00 to 23:59), found {item}")
        })?;
        if let Some(before) = last
            && time <= before
        {
            return Err(format!(
                "{path}[{i}] ({time}) must be later than the time before it ({before}): list the times in the order of the day"
            ));
        }
        last = Some(time);
    }
    Ok(())
}

#[cfg(test)]
#[path = "reminder_times_tests.rs"]
mod tests;
