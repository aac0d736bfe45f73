//! What the desktop shell answers after writing a file the person chose in the system's save
//! dialog (a protocol report, the memory export).

use serde::{Deserialize, Serialize};

/// Where a file went; `path` is absent when the person closed the dialog.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct Saved {
    pub path: Option<String>,
    pub bytes: u64,
}
