//! A small serialisable description of an error, for the UI, the CLI's `--json` output and
//! events. Library crates map their typed errors into it; it never carries secrets.

use serde::{Deserialize, Serialize};

use crate::ErrorKind;

/// What went wrong, in a form every front end can show.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct ErrorInfo {
    /// What kind of failure (serialised snake_case, e.g. `invalid_input`, `auth`); a front
    /// end words its advice by it.
    pub kind: ErrorKind,
    /// One line for a person: what, where, and how to fix it.
    pub message: String,
}

impl ErrorInfo {
    pub fn new(kind: ErrorKind, message: impl Into<String>) -> Self {
        Self { kind, message: message.into() }
    }
}
