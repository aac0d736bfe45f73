//! The one error type of `vibe-sync`. A refused batch file (wrong key, tampered, truncated,
//! replayed) merges nothing; the run goes on with other devices' files and reports it.

/// What went wrong in a sync step. None of them is retried within a run; the next run tries
/// again (a file that was refused is read again then, and refused again unless it changed).
#[derive(Debug, thiserror::Error)]
pub enum SyncError {
    /// The recovery code is not one VibeLife made (a typo, a missing part).
    #[error(
        "this is not a VibeLife sync code ({why}); copy it again from the first device (`vibe sync setup` printed it)"
    )]
    BadCode { why: String },
    /// The target is encrypted with another key: the code belongs to another sync target.
    #[error(
        "the sync code does not open the sync target {target}: it belongs to another one, was mistyped, or was replaced when a device was removed (join again with the new code: `vibe sync join`)"
    )]
    WrongKey { target: String },
    /// A file whose authentication failed: changed by someone or something after it was written.
    #[error(
        "{file} was changed after it was written (its authentication failed); nothing of it was merged"
    )]
    Tampered { file: String },
    /// A file cut short (a copy still in progress, or a damaged one).
    #[error("{file} is cut short ({found} of {expected} bytes); nothing of it was merged")]
    Truncated { file: String, found: usize, expected: usize },
    /// A file that says it is another file: copied or renamed from another device or place.
    #[error(
        "{file} is a copy of {claims} (another device's file or another place); nothing of it was merged"
    )]
    Replayed { file: String, claims: String },
    /// A file a device wrote after it was removed from sync (with the key it still had).
    #[error(
        "{file} was written by device {device} after it was removed from sync; nothing of it was merged"
    )]
    Removed { file: String, device: String },
    /// Another copy of this data folder writes to the target as this device (a backup
    /// restored on a second machine): handled by the run, which gives this copy a new id.
    #[error(
        "another copy of this data folder syncs as device {device} (a backup restored on a second machine?)"
    )]
    Twin { device: String },
    /// The target cannot be read or written (a server that does not answer, a missing folder
    /// or bucket, a server error): `why` says what the server said.
    #[error("the sync target {target} cannot be reached: {why}")]
    Unreachable { target: String, why: String },
    /// The server refused this device's credentials.
    #[error(
        "the sync target {target} refused the credentials ({why}): check the user name and the password (VIBE_SYNC_PASSWORD), or the access key id and secret key (VIBE_SYNC_SECRET_KEY), and that they may read and write there"
    )]
    Denied { target: String, why: String },
    /// A target described wrongly (a URL that is not one, one holding a password, no bucket).
    #[error("{target} cannot be used as a sync target: {why}")]
    BadTarget { target: String, why: String },
    /// The target holds no VibeLife sync data (join) or sync is not set up (now, status).
    #[error("{0}")]
    NotSetUp(String),
    /// A setup over a target that already holds another key's sync data.
    #[error(
        "the sync target {0} already holds VibeLife sync data made with another code: join it with that code (`vibe sync join`), or choose an empty folder or bucket"
    )]
    TargetInUse(String),
    /// This device cannot prepare what it would write (no random bytes from the OS, content
    /// that does not encode).
    #[error("this device cannot prepare its sync files: {0}")]
    Local(String),
    /// The local store failed.
    #[error(transparent)]
    Store(#[from] vibe_store::StoreError),
}

impl SyncError {
    /// Whether this is a refused file (wrong key, tampered, truncated or replayed).
    pub fn is_refusal(&self) -> bool {
        matches!(
            self,
            Self::WrongKey { .. }
                | Self::Tampered { .. }
                | Self::Truncated { .. }
                | Self::Replayed { .. }
                | Self::Removed { .. }
        )
    }
}

pub type Result<T, E = SyncError> = std::result::Result<T, E>;
