//! The update policy (docs/packaging.md#updates): whether the desktop app may ask its update
//! server now (the person's `preferences.updates` choice, at most once a day unless they press
//! "Check now") and whether an offered version is newer than the running one (never a
//! downgrade). The decisions are pure functions; `App` adds reading the choice and keeping the
//! last check's time (`<data_dir>/update-check.json`). Talking to the server, verifying
//! signatures and installing belong to the desktop shell (tauri-plugin-updater), never here.

use std::time::{Duration, SystemTime};

use serde::{Deserialize, Serialize};
use serde_json::json;
pub use vibe_wire::settings::UpdateChecks;

use crate::app::{App, AppError};

/// How often an automatic check may ask the server.
pub const UPDATE_CHECK_EVERY: Duration = Duration::from_secs(24 * 60 * 60);
/// The file in the data folder holding the last check's time.
pub const UPDATE_CHECK_FILE: &str = "update-check.json";

/// Whether a check may ask the update server now.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CheckDecision {
    /// The person did not allow checks (`off`) or has not chosen (`undecided`): no request.
    NotAllowed,
    /// An automatic check within a day of the last one: no request.
    NotDue,
    /// Ask the server.
    Check,
}

/// Whether to ask the server at `now`, given the person's `choice`, the last check's time and
/// whether the person asked for it (`manual`: skips the once-a-day rule, never the choice). A
/// last check up to a day in the future (the clock went back a little) is not due, so a clock
/// set back cannot make the app ask more often; one more than a day ahead (recorded while the
/// clock was far wrong) is due, once (the check records `now`), so an app left running is not
/// kept from updates until that date comes.
pub fn decide(
    choice: UpdateChecks,
    last_check: Option<SystemTime>,
    now: SystemTime,
    manual: bool,
) -> CheckDecision {
    if choice != UpdateChecks::Ask {
        return CheckDecision::NotAllowed;
    }
    if manual {
        return CheckDecision::Check;
    }
    match last_check {
        None => CheckDecision::Check,
        Some(last) => match now.duration_since(last) {
            Ok(age) if age >= UPDATE_CHECK_EVERY => CheckDecision::Check,
            Err(ahead) if ahead.duration() > UPDATE_CHECK_EVERY => CheckDecision::Check,
            _ => CheckDecision::NotDue,
        },
    }
}

/// Whether `offered` is a newer version than `current` (semver; a leading `v` is allowed). A
/// lower or equal version, or one that is not a version, is never an update: no downgrade.
pub fn is_newer(current: &str, offered: &str) -> bool {
    let parse = |v: &str| semver::Version::parse(v.trim().trim_start_matches('v')).ok();
    match (parse(current), parse(offered)) {
        (Some(current), Some(offered)) => offered > current,
        _ => false,
    }
}

/// `update-check.json`: when the app last asked the server.
#[derive(Debug, Serialize, Deserialize)]
struct LastCheck {
    checked_at: chrono::DateTime<chrono::Utc>,
}

impl App {
    /// Whether the desktop app may ask its update server at `now` (see [`decide`]).
    pub fn update_check_decision(&self, now: SystemTime, manual: bool) -> CheckDecision {
        decide(self.settings().preferences.updates, self.last_update_check(), now, manual)
    }

    /// When the app last asked the update server (none, or an unreadable file: never).
    pub fn last_update_check(&self) -> Option<SystemTime> {
        let text = std::fs::read_to_string(self.paths.data_dir.join(UPDATE_CHECK_FILE)).ok()?;
        let last: LastCheck = serde_json::from_str(&text).ok()?;
        Some(last.checked_at.into())
    }

    /// Records that the app asked the update server at `now` (before asking, so a failing
    /// server is not asked again within the day).
    pub fn record_update_check(&self, now: SystemTime) -> Result<(), AppError> {
        let checked_at = chrono::DateTime::<chrono::Utc>::from(now);
        crate::app::settings::write_atomically(
            &self.paths.data_dir.join(UPDATE_CHECK_FILE),
            &json!({ "checked_at": checked_at }),
        )
    }
}

#[cfg(test)]
#[path = "updates_tests.rs"]
mod tests;
