//! The `sync` section: where this data folder syncs to and as which device (docs/sync.md).
//! The sync key is never here (the OS keychain keeps it); setting sync up or joining writes
//! this section (`vibe_core::app::sync`).

use serde::{Deserialize, Serialize};

/// The `sync` section of the settings; an unknown key is refused.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(default, deny_unknown_fields)]
pub struct SyncSettings {
    /// The target folder; `null`: sync is not set up.
    pub folder: Option<String>,
    /// This device's id on the target (its files' folder), chosen at setup or join.
    pub device_id: Option<String>,
}
