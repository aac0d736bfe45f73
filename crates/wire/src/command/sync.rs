//! Sync through storage the person already has (docs/sync.md): setting a target up (the
//! recovery code is answered once, to be shown to the person), joining it with the code, one
//! sync run, the status and the devices. The sync key itself never crosses here again; a
//! target's password or secret key goes in once (setup, join) and never comes back.

use serde::{Deserialize, Serialize};

use crate::settings::SyncTarget;

/// `sync_setup`: make `target` this data folder's sync target, with a new key. `Debug`
/// never shows the secret.
#[derive(Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct SyncSetupRequest {
    pub target: SyncTarget,
    /// The WebDAV password or the S3 secret access key (kept in the keychain); none for a folder.
    #[serde(default)]
    pub secret: Option<String>,
}

impl std::fmt::Debug for SyncSetupRequest {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let secret = self.secret.as_ref().map(|_| "***");
        write!(f, "SyncSetupRequest({:?}, secret: {secret:?})", self.target)
    }
}

/// `sync_setup`: the recovery code (shown once: it joins another device and recovers the
/// data) and the state after.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct SyncSetupResponse {
    pub code: String,
    pub status: SyncStatusView,
}

/// `sync_join`: sync this data folder through `target`, set up on another device. `Debug`
/// never shows the code or the secret.
#[derive(Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct SyncJoinRequest {
    pub target: SyncTarget,
    /// The WebDAV password or the S3 secret access key (kept in the keychain); none for a folder.
    #[serde(default)]
    pub secret: Option<String>,
    /// The recovery code the first device showed.
    pub code: String,
}

impl std::fmt::Debug for SyncJoinRequest {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let secret = self.secret.as_ref().map(|_| "***");
        write!(f, "SyncJoinRequest({:?}, secret: {secret:?}, code: ***)", self.target)
    }
}

/// `sync_remove_device`: stop syncing with device `device_id` (a lost or sold machine).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct SyncRemoveDeviceRequest {
    pub device_id: String,
}

/// `sync_pause`: pause (`paused: true`) or resume background syncing.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct SyncPauseRequest {
    pub paused: bool,
}

/// One device syncing through the target.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct SyncDeviceView {
    pub device_id: String,
    /// The name it gave itself (its host name), once one of its batches was read.
    pub name: Option<String>,
    /// This device.
    pub this_device: bool,
    /// Its batches applied here (for this device: written to the target).
    pub batches: u64,
    /// When it was last read from (RFC 3339), or for this device its last sync run.
    pub last_seen: Option<String>,
}

/// `sync_status`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct SyncStatusView {
    /// Sync is set up on this data folder.
    pub enabled: bool,
    /// The target as shown to the person (a folder's path, a URL; never a credential).
    pub target: Option<String>,
    /// The target's kind and fields (without its password or secret key).
    #[serde(default)]
    pub target_settings: Option<SyncTarget>,
    pub device_id: Option<String>,
    /// Changes recorded here and not yet on the target.
    pub pending_changes: u64,
    /// The end of the last sync run (RFC 3339).
    pub last_sync: Option<String>,
    pub devices: Vec<SyncDeviceView>,
    /// Background syncing is paused (`sync.paused`).
    #[serde(default)]
    pub paused: bool,
    /// What this app's runs did since it started (background or asked for).
    #[serde(default)]
    pub activity: SyncActivity,
}

/// This app's sync runs since it started: kept in memory, so a failure in the background is
/// said in the status (not as a popup each time).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct SyncActivity {
    /// A run is going on now.
    pub running: bool,
    /// When the last run ended (RFC 3339), whether it worked or not.
    pub last_run_at: Option<String>,
    /// What the last run that worked did.
    pub last_run: Option<SyncRunView>,
    /// Why the last run failed; none once a later one worked.
    pub last_error: Option<crate::ErrorInfo>,
}

/// `sync_devices`: this device and every other one that wrote to the target.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct SyncDeviceList {
    pub devices: Vec<SyncDeviceView>,
}

/// `sync_now`: what one run did.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct SyncRunView {
    /// Batches of this device written to the target.
    pub sent: u64,
    /// Batches of other devices applied here.
    pub received: u64,
    /// Entries added or changed here.
    pub changed: u64,
    /// Entries deleted here.
    pub deleted: u64,
    /// Changes that could not be applied here, and why.
    pub skipped: Vec<String>,
    /// Files refused (wrong key, changed, cut short, replayed): nothing of them was merged.
    pub refused: Vec<String>,
    /// Another copy of this data folder (a backup restored on a second machine) was syncing
    /// as this device: this one now syncs as this new id, and the other is a device of its own.
    #[serde(default)]
    pub new_device_id: Option<String>,
}
