//! The `preferences` section: front-end choices the core keeps for them (the language, the
//! colour theme, what closing the desktop window does, whether the app looks for updates) and
//! how due protocol reminders reach the person. When a reminder is due and
//! whether to notify is the core's protocol engine's.

use serde::{Deserialize, Serialize};

use super::time_of_day::TimeOfDay;

/// The `preferences` section; an unknown key is refused.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(default, deny_unknown_fields)]
pub struct Preferences {
    /// The language of the front end. Default `system`.
    pub language: Language,
    /// The colours of the front end: light, dark, or following the system. Default `system`.
    pub theme: Theme,
    /// Due protocol reminders as notifications: on or off, quiet hours.
    pub reminders: ReminderSettings,
    /// What closing the desktop window does: ask (the first time), keep running in the tray,
    /// or quit. Default `ask`.
    pub on_close: OnClose,
    /// Whether the desktop app looks for updates (once a day, asking before installing):
    /// `undecided` until the person chose at the first run (no check), `ask` or `off`.
    pub updates: UpdateChecks,
}

/// Whether the desktop app looks for updates (docs/packaging.md#updates). Only `ask` lets it
/// make a request; `undecided` and `off` make none at all.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "lowercase")]
pub enum UpdateChecks {
    /// Not chosen yet: the first run asks; until then no check is made.
    #[default]
    Undecided,
    /// Look for a newer version at most once a day and ask before installing it.
    Ask,
    /// Never look (no network request).
    Off,
}

/// What closing the desktop window does (the desktop shell's tray; docs/ui.md, "Tray").
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "lowercase")]
pub enum OnClose {
    /// Not chosen yet: the window asks at the first close, and the answer is saved.
    #[default]
    Ask,
    /// The window goes (its web view's memory released); VibeLife keeps running in the tray,
    /// with its reminders, backups and memory passes.
    Tray,
    /// The app quits.
    Quit,
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

/// The colour theme of the front end.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "lowercase")]
pub enum Theme {
    /// Follow the system's light or dark appearance.
    #[default]
    System,
    Light,
    Dark,
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

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn the_theme_follows_the_system_unless_light_or_dark_is_chosen() {
        let p: Preferences = serde_json::from_value(json!({"language": "en"})).unwrap();
        assert_eq!(p.theme, Theme::System);
        for (text, theme) in
            [("system", Theme::System), ("light", Theme::Light), ("dark", Theme::Dark)]
        {
            let p: Preferences = serde_json::from_value(json!({ "theme": text })).unwrap();
            assert_eq!(p.theme, theme);
            assert_eq!(serde_json::to_value(p).unwrap()["theme"], json!(text));
        }
    }

    #[test]
    fn closing_asks_until_the_person_chose_the_tray_or_quitting() {
        let p: Preferences = serde_json::from_value(json!({})).unwrap();
        assert_eq!(p.on_close, OnClose::Ask);
        for (text, on_close) in
            [("ask", OnClose::Ask), ("tray", OnClose::Tray), ("quit", OnClose::Quit)]
        {
            let p: Preferences = serde_json::from_value(json!({ "on_close": text })).unwrap();
            assert_eq!(p.on_close, on_close);
            assert_eq!(serde_json::to_value(p).unwrap()["on_close"], json!(text));
        }
        let err = serde_json::from_value::<Preferences>(json!({"on_close": "hide"})).unwrap_err();
        assert!(err.to_string().contains("`ask`, `tray`, `quit`"), "{err}");
    }

    #[test]
    fn update_checks_are_undecided_until_the_person_allows_or_turns_them_off() {
        let p: Preferences = serde_json::from_value(json!({})).unwrap();
        assert_eq!(p.updates, UpdateChecks::Undecided);
        for (text, choice) in [
            ("undecided", UpdateChecks::Undecided),
            ("ask", UpdateChecks::Ask),
            ("off", UpdateChecks::Off),
        ] {
            let p: Preferences = serde_json::from_value(json!({ "updates": text })).unwrap();
            assert_eq!(p.updates, choice);
            assert_eq!(serde_json::to_value(p).unwrap()["updates"], json!(text));
        }
        let err = serde_json::from_value::<Preferences>(json!({"updates": "auto"})).unwrap_err();
        assert!(err.to_string().contains("`undecided`, `ask`, `off`"), "{err}");
    }

    #[test]
    fn an_unknown_theme_is_refused_naming_the_three_choices() {
        let err = serde_json::from_value::<Preferences>(json!({"theme": "purple"})).unwrap_err();
        let msg = err.to_string();
        assert!(msg.contains("purple") && msg.contains("`system`, `light`, `dark`"), "{msg}");
    }
}
