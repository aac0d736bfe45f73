//! The database: what it holds (`database_info`) and SQLite's full integrity check
//! (`check_database`).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

/// `database_info`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct DatabaseInfo {
    pub path: String,
    /// How the file is encrypted at rest; `none` deserves a warning.
    pub encryption: Encryption,
    pub schema_version: i64,
    /// The version this build migrates to.
    pub latest_schema_version: i64,
    /// The database file with its write-ahead log.
    pub size_bytes: u64,
    /// Rows per table.
    pub counts: BTreeMap<String, i64>,
    /// Backups kept beside the database, oldest first.
    pub backups: Vec<String>,
}

/// `check_database`: `ok`, or the problems found and how to restore the last backup.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct DatabaseCheck {
    pub path: String,
    pub ok: bool,
    pub problems: Vec<String>,
    /// How to restore the last backup (when damaged and a backup exists).
    pub advice: Option<String>,
}

/// The database's key mode (the `storage.encryption` setting, docs/privacy.md).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum Encryption {
    /// A random 256-bit key in the OS keychain (the default).
    Keychain,
    /// A passphrase the person gives at every start (SQLCipher's KDF).
    Passphrase,
    /// Not encrypted: only when chosen explicitly.
    None,
}

impl Encryption {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Keychain => "keychain",
            Self::Passphrase => "passphrase",
            Self::None => "none",
        }
    }
}

/// `unlock_database`: open a data dir the app could not open without the person (its database
/// is locked with a passphrase, or no keychain can hold a new key). With a passphrase: unlock
/// it, or for a new data dir choose passphrase encryption; `no_encryption` (explicit, for a
/// new data dir only) keeps the database in clear text.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct UnlockDatabaseRequest {
    #[serde(default)]
    pub passphrase: Option<String>,
    #[serde(default)]
    pub no_encryption: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct UnlockDatabaseResponse {
    pub encryption: Encryption,
}
