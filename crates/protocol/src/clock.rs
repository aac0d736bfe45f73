//! The engine's clock: injected so tests and evals can simulate an idle gap (the timeout
//! rule) or a time of day (reminders) without waiting. Production uses the system clock.

use std::sync::Arc;

use chrono::{DateTime, SecondsFormat, Utc};

/// A source of "now".
pub type Clock = Arc<dyn Fn() -> DateTime<Utc> + Send + Sync>;

/// The system clock.
pub fn system_clock() -> Clock {
    Arc::new(Utc::now)
}

/// A clock that always says `at` (tests).
pub fn fixed_clock(at: DateTime<Utc>) -> Clock {
    Arc::new(move || at)
}

/// A time as stored in runs: RFC 3339 UTC with milliseconds.
pub(crate) fn stamp(t: DateTime<Utc>) -> String {
    t.to_rfc3339_opts(SecondsFormat::Millis, true)
}

/// A stored time back; `None` when it cannot be read.
pub(crate) fn parse(text: &str) -> Option<DateTime<Utc>> {
    DateTime::parse_from_rfc3339(text).ok().map(|t| t.with_timezone(&Utc))
}
