//! A small serialisable description of an error, for the UI, the CLI's `--json` output and
//! events. Library crates map their typed errors into it; it never carries secrets.

use serde::{Deserialize, Serialize};

/// What went wrong, in a form every front end can show.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct ErrorInfo {
    /// Stable machine-readable kind, snake_case (e.g. `invalid_input`, `auth`, `rate_limited`).
    pub kind: String,
    /// One line for a person: what, where, and how to fix it.
    pub message: String,
}

impl ErrorInfo {
    pub fn new(kind: impl Into<String>, message: impl Into<String>) -> Self {
        Self { kind: kind.into(), message: message.into() }
    }
}
