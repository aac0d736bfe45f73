//! The `storage` section: how the database is encrypted. Choosing and keeping the key is the
//! core's (`vibe_core::app::dbkey`).

use serde::{Deserialize, Serialize};

use crate::command::Encryption;

/// The `storage` section of the settings; an unknown key is refused.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(default, deny_unknown_fields)]
pub struct StorageSettings {
    /// How the database is encrypted; written when the data dir is first opened, and not
    /// changed afterwards (re-keying is not supported).
    pub encryption: Option<Encryption>,
}
