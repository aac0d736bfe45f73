//! When extraction runs by itself: a pure decision over one conversation's backlog (what is
//! not yet read), the wait left by failed passes, the clock and the settings; and how long
//! that wait is. Running a pass is `extract`'s.

use chrono::{DateTime, Duration, Utc};
use serde::Serialize;
use vibe_store::{Backlog, MemoryBackoff};

use super::MemorySettings;

/// Why a conversation is read now.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Trigger {
    /// Its newest message is older than `quiet_minutes`.
    Quiet,
    /// It has `every_turns` unread messages of the person.
    Turns,
}

/// The longest wait after failed passes: one day.
pub const BACKOFF_CAP_MINUTES: i64 = 24 * 60;
/// The first wait when the quiet trigger is off (`quiet_minutes: 0`).
const BACKOFF_BASE_MINUTES: i64 = 10;

/// How long to wait after `failures` failed passes in a row: the quiet time, doubled with
/// each further failure, at most [`BACKOFF_CAP_MINUTES`] (docs/memory.md#when-a-pass-fails).
pub fn backoff_wait(failures: u32, settings: &MemorySettings) -> Duration {
    let base = match i64::from(settings.quiet_minutes) {
        0 => BACKOFF_BASE_MINUTES,
        m => m,
    };
    let doublings = failures.saturating_sub(1).min(20);
    Duration::minutes(base.saturating_mul(1 << doublings).min(BACKOFF_CAP_MINUTES))
}

/// Whether a wait left by failed passes still holds at `now` (an unreadable time does not).
pub fn waiting(now: DateTime<Utc>, backoff: Option<&MemoryBackoff>) -> bool {
    backoff.is_some_and(|b| {
        DateTime::parse_from_rfc3339(&b.next_try_at).is_ok_and(|at| now < at.with_timezone(&Utc))
    })
}

/// Whether `backlog` is due at `now`. Nothing is due without a message of the person, nor
/// while a wait after failed passes holds (`backoff`); a timestamp that cannot be read counts
/// as quiet (it is old data, not a live talk).
pub fn extraction_due(
    now: DateTime<Utc>,
    backlog: &Backlog,
    backoff: Option<&MemoryBackoff>,
    settings: &MemorySettings,
) -> Option<Trigger> {
    if backlog.user_turns == 0 || waiting(now, backoff) {
        return None;
    }
    if settings.every_turns > 0 && backlog.user_turns >= settings.every_turns {
        return Some(Trigger::Turns);
    }
    if settings.quiet_minutes == 0 {
        return None;
    }
    let quiet = match DateTime::parse_from_rfc3339(&backlog.last_message_at) {
        Ok(at) => {
            now.signed_duration_since(at.with_timezone(&Utc)).num_seconds()
                >= i64::from(settings.quiet_minutes) * 60
        }
        Err(_) => true,
    };
    quiet.then_some(Trigger::Quiet)
}
