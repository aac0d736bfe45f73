//! Timestamps the store writes: RFC 3339 UTC with millisecond precision (`...Z`), so they sort
//! as text in the order they were made.

use chrono::{SecondsFormat, Utc};

/// The current UTC time as stored in documents and rows.
pub fn now_rfc3339() -> String {
    Utc::now().to_rfc3339_opts(SecondsFormat::Millis, true)
}
