//! The person's reminder choices: [`ReminderSettings`] (the `preferences.reminders` settings:
//! notifications on or off, quiet hours that may cross midnight; wire types, checked here
//! beyond their types) and their own times of day
//! for a step's reminders (the profile's `preferences.reminder_times`, checked here before it is
//! stored). Choosing what to notify is `notify`'s; when a reminder is due is `reminders`'.

use serde_json::Value;
pub use vibe_wire::settings::{QuietHours, ReminderSettings, TimeOfDay};

/// The profile path of the person's own reminder times.
pub const REMINDER_TIMES_PATH: &str = "preferences.reminder_times";

/// Checking the `preferences.reminders` settings beyond their types.
pub trait ReminderSettingsExt {
    /// What is wrong with these settings, if anything (quiet hours of no length).
    fn problem(&self) -> Option<String>;
}

impl ReminderSettingsExt for ReminderSettings {
    fn problem(&self) -> Option<String> {
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
