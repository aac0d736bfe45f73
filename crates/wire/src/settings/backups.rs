//! The `backups` section: automatic backups while the desktop app runs. When one is due and
//! which are pruned is the core's (`vibe_core::app::auto_backup`).

use serde::{Deserialize, Serialize};

/// The `backups` section of the settings; an unknown key is refused.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(default, deny_unknown_fields)]
pub struct BackupSettings {
    /// A backup a day while the desktop app runs. Default on.
    pub daily: bool,
    /// How many automatic backups are kept (at least 1). Default 7.
    pub keep: u32,
}

impl Default for BackupSettings {
    fn default() -> Self {
        Self { daily: true, keep: 7 }
    }
}
