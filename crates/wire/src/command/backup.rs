//! Backups, export and erase (docs/privacy.md#backups-and-moving-to-a-new-machine): make,
//! check and restore a backup file, export everything readable without the app, erase a
//! data folder.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::command::Encryption;

/// `create_backup`: into `out` (a new file), or a new file in the data folder's `backups/`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct CreateBackupRequest {
    #[serde(default)]
    pub out: Option<String>,
}

/// `verify_backup` and `restore_backup`: the backup file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct BackupFileRequest {
    pub file: String,
}

/// The `manifest.json` of a backup file: what it holds and how to check it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct BackupManifest {
    /// Always `vibelife-backup`.
    pub format: String,
    /// The version of this archive layout (1).
    pub format_version: u32,
    /// RFC 3339 UTC.
    pub created_at: String,
    /// The VibeLife version that made it.
    pub app_version: String,
    /// The database's schema version.
    pub schema_version: i64,
    /// How its database copy is encrypted (the data folder's key mode).
    pub encryption: Encryption,
    /// Rows per table of the database copy.
    pub counts: BTreeMap<String, i64>,
    /// Every other entry of the archive, in order, with its size and SHA-256.
    pub files: Vec<BackupFileEntry>,
}

/// One entry of a backup archive.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct BackupFileEntry {
    /// Its path in the archive (`vibe.db`, `runs/<id>/events.jsonl`).
    pub path: String,
    pub bytes: u64,
    /// Lowercase hex.
    pub sha256: String,
}

/// `create_backup`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct BackupCreated {
    pub file: String,
    pub manifest: BackupManifest,
}

/// `verify_backup`: the backup is sound (a failing one is an `invalid_backup` error).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct BackupVerified {
    pub file: String,
    pub manifest: BackupManifest,
    /// This VibeLife can restore it (its schema is not newer than this build's).
    pub restorable: bool,
    /// Run logs in it that are damaged or end without their closing record, one line each
    /// naming the run and the line (docs/audit.md#what-a-read-proves); the backup itself is
    /// sound.
    #[serde(default)]
    pub notices: Vec<String>,
}

/// `restore_backup`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct BackupRestored {
    pub file: String,
    pub manifest: BackupManifest,
    /// The backup of the data as it was just before, when there was a database.
    pub previous: Option<String>,
}

/// `export_all`: into `out`, a new or empty folder.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct ExportAllRequest {
    pub out: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct ExportAllResponse {
    pub dir: String,
    /// The files written, relative to `dir`, sorted.
    pub files: Vec<String>,
    /// Run logs exported only in part (damaged: the events before the damage) or that end
    /// without their closing record, one line each naming the run and the line
    /// (docs/audit.md#what-a-read-proves).
    #[serde(default)]
    pub notices: Vec<String>,
}

/// `erase_data`: without `confirm`, nothing is removed and the answer lists what would be.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct EraseRequest {
    #[serde(default)]
    pub confirm: bool,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct EraseReport {
    /// Whether anything was removed (`confirm` was given).
    pub erased: bool,
    pub data_dir: String,
    /// The files and folders removed (or that would be).
    pub files: Vec<String>,
    /// The keychain entries removed (or that would be): service and account.
    pub keychain_entries: Vec<String>,
    /// What stays, and why (API keys are per endpoint, shared by every data folder).
    pub notes: Vec<String>,
}
