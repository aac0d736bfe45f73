//! The `sync` section: where this data folder syncs to and as which device (docs/sync.md).
//! Neither the sync key nor a target's password or secret key is ever here (the OS keychain
//! keeps them); setting sync up or joining writes this section (`vibe_core::app::sync`).

use serde::{Deserialize, Serialize};

/// A sync target, with what is not secret about it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum SyncTarget {
    /// A local folder (which the person syncs with Syncthing, Nextcloud, Dropbox…).
    Folder { path: String },
    /// A WebDAV folder (Nextcloud, ownCloud, a NAS…): its URL, without credentials, and the
    /// user name (empty: no login). The password is in the keychain.
    Webdav { url: String, user: String },
    /// An S3-compatible bucket: the service's endpoint URL, the bucket, its region, the access
    /// key id, and a prefix inside the bucket (empty: its top). The secret key is in the keychain.
    S3 {
        endpoint: String,
        bucket: String,
        region: String,
        access_key_id: String,
        #[serde(default)]
        root: String,
    },
}

impl SyncTarget {
    /// Whether this kind of target logs in with a password or secret key.
    pub fn needs_secret(&self) -> bool {
        match self {
            Self::Folder { .. } => false,
            Self::Webdav { user, .. } => !user.is_empty(),
            Self::S3 { .. } => true,
        }
    }
}

/// The `sync` section of the settings; an unknown key is refused.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(default, deny_unknown_fields)]
pub struct SyncSettings {
    /// The target; absent (and no `folder`): sync is not set up. Not written while absent, so a
    /// settings file from before WebDAV and S3 reads and writes back byte for byte.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(test, ts(optional))]
    pub target: Option<SyncTarget>,
    /// A folder target as written before WebDAV and S3 (still read; `target` wins).
    pub folder: Option<String>,
    /// This device's id on the target (its files' folder), chosen at setup or join.
    pub device_id: Option<String>,
    /// Background syncing is paused (Settings → Sync): the app's runner starts no run; a
    /// sync the person asks for still runs. Not written while false (older files round-trip).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    #[cfg_attr(test, ts(as = "Option<bool>", optional))]
    pub paused: bool,
    /// Compact this device's files on the target into a snapshot once this many of its batch
    /// files follow its last snapshot (docs/sync.md, "Compaction"); absent: 100. Not written
    /// while absent.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(test, ts(optional))]
    pub compact_after: Option<u32>,
}

impl SyncSettings {
    /// The target in force: `target`, else the older `folder`.
    pub fn effective_target(&self) -> Option<SyncTarget> {
        self.target.clone().or_else(|| self.folder.clone().map(|path| SyncTarget::Folder { path }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_older_folder_section_still_reads_and_each_kind_round_trips() {
        let old: SyncSettings =
            serde_json::from_str(r#"{"folder": "/x", "device_id": "d"}"#).unwrap();
        assert_eq!(old.effective_target(), Some(SyncTarget::Folder { path: "/x".into() }));
        let s3 = r#"{"target": {"kind": "s3", "endpoint": "http://h", "bucket": "b",
            "region": "r", "access_key_id": "k"}}"#;
        let s3: SyncSettings = serde_json::from_str(s3).unwrap();
        assert!(
            matches!(s3.effective_target(), Some(SyncTarget::S3 { root, .. }) if root.is_empty())
        );
        let secret = r#"{"target": {"kind": "webdav", "url": "u", "user": "a", "password": "p"}}"#;
        assert!(serde_json::from_str::<SyncSettings>(secret).is_err(), "no password field");
    }

    #[test]
    fn paused_is_written_only_when_set() {
        let off = SyncSettings::default();
        assert!(!serde_json::to_string(&off).unwrap().contains("paused"));
        let on = SyncSettings { paused: true, ..SyncSettings::default() };
        let back: SyncSettings =
            serde_json::from_str(&serde_json::to_string(&on).unwrap()).unwrap();
        assert!(back.paused);
    }
}
