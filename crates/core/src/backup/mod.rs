//! Backup files (docs/privacy.md#backup-files): one tar archive holding `manifest.json` (first),
//! `vibe.db` (a consistent copy of the database, encrypted with the data folder's key) and
//! `runs/<id>/...` (the run folders). The manifest names the schema version, the rows per table
//! and every other entry's size and SHA-256. `archive` writes and reads such files; `restore`
//! swaps one into a data folder so that a crash at any point leaves either the old data or the
//! restored data, never a mix; `logs` says which run logs in a backup are damaged. The
//! commands over them are `crate::app`'s.

mod archive;
mod logs;
mod restore;
mod work;

use std::path::PathBuf;

use vibe_store::StoreError;
use vibe_wire::ErrorKind;

pub use archive::{create, keep_as_is, read_into};
pub use logs::check_run_logs;
pub use restore::{STAGING_DIR, finish_restore, lock as restore_lock, staging_dir, swap_in};
pub use work::{
    PARTIAL_PREFIX, PARTIAL_SUFFIX, WORK_PREFIXES, WorkDir, sweep_partial_backups, sweep_work_dirs,
};

/// `manifest.format` of every backup file.
pub const FORMAT: &str = "vibelife-backup";
/// The archive layout this build writes and the newest it reads.
pub const FORMAT_VERSION: u32 = 1;
/// The manifest's entry, the first of the archive.
pub const MANIFEST: &str = "manifest.json";
/// The database copy's entry.
pub const DB_ENTRY: &str = "vibe.db";
/// Where `vibe backup create` puts a backup by default, and restore the data it replaces.
pub const BACKUPS_DIR: &str = "backups";

/// Why a backup cannot be made, checked or restored. None is retried.
#[derive(Debug, thiserror::Error)]
pub enum BackupError {
    /// The file is not a sound VibeLife backup: damaged, altered, cut short, or not one at all.
    #[error("{} is not a sound VibeLife backup: {}. Nothing was changed", file.display(), problems.join("; "))]
    Invalid { file: PathBuf, problems: Vec<String> },
    /// The backup's database does not open with this data folder's key: it was made in
    /// another data folder (another keychain key) or with another passphrase.
    #[error(
        "the database in the backup {} does not open with this data folder's {mode}: it was made \
         with another key or passphrase (a keychain key belongs to one data folder; see \
         docs/privacy.md). Nothing was changed",
        file.display()
    )]
    WrongKey { file: PathBuf, mode: &'static str },
    /// The backup was made by a newer VibeLife; it is not restored.
    #[error(
        "the backup {} has schema version {found}, newer than this VibeLife supports \
         ({supported}); update VibeLife to restore it. Nothing was changed",
        file.display()
    )]
    NewerSchema { file: PathBuf, found: i64, supported: i64 },
    /// A backup is only ever written to a new file.
    #[error("{} already exists; a backup is only written to a new file", path.display())]
    Exists { path: PathBuf },
    /// An export goes into a new or empty folder only.
    #[error("{} exists and is not empty; export into a new or empty folder", path.display())]
    NotEmpty { path: PathBuf },
    /// Reading or writing a file failed (permissions, a full disk).
    #[error("cannot {what} {}: {err}", path.display())]
    Io { what: &'static str, path: PathBuf, err: std::io::Error },
    #[error(transparent)]
    Store(#[from] StoreError),
}

impl BackupError {
    /// The kind, for `vibe_wire::ErrorInfo`.
    pub fn kind(&self) -> ErrorKind {
        match self {
            Self::Invalid { .. } => ErrorKind::InvalidBackup,
            Self::WrongKey { .. } => ErrorKind::WrongKey,
            Self::NewerSchema { .. } => ErrorKind::NewerSchema,
            Self::Exists { .. } | Self::NotEmpty { .. } => ErrorKind::InvalidInput,
            Self::Io { .. } => ErrorKind::Io,
            Self::Store(e) => e.kind(),
        }
    }

    /// An I/O error on `path` while doing `what`.
    pub(crate) fn io(
        what: &'static str,
        path: &std::path::Path,
    ) -> impl FnOnce(std::io::Error) -> Self {
        let path = path.to_path_buf();
        move |err| Self::Io { what, path, err }
    }
}

/// A folder owner-only (0700), with its parents.
pub(crate) fn private_dir(dir: &std::path::Path) -> Result<(), BackupError> {
    let mut builder = std::fs::DirBuilder::new();
    builder.recursive(true);
    #[cfg(unix)]
    std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
    builder.create(dir).map_err(BackupError::io("create the folder", dir))
}
