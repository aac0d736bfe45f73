//! The store's one error type. Every variant says what went wrong, where, and how to fix it;
//! none is retried automatically (SQLite's own busy handler already waits for locks).

use std::path::PathBuf;
use vibe_wire::ErrorKind;

/// Errors from the store.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The input was rejected before anything was written (bad path, bad id, wrong JSON type).
    #[error("{0}")]
    InvalidInput(String),

    /// The database file was written by a newer VibeLife; it was left untouched.
    #[error(
        "database {path} has schema version {found}, newer than this VibeLife supports ({supported}); \
         update VibeLife, or use another data folder (the file was not changed)"
    )]
    NewerSchema { path: PathBuf, found: i64, supported: i64 },

    /// The database file is damaged (empty, truncated, not SQLite, or failing the integrity
    /// check); nothing was written to it.
    #[error("database {path} is damaged: {what}. Nothing was written to it. {restore}")]
    Damaged { path: PathBuf, what: String, restore: String },

    /// The key does not open the database file (a wrong key or passphrase, a file encrypted
    /// with another key, or a damaged file); nothing was written to it.
    #[error(
        "cannot open database {path} with the {mode}: the key is wrong (or the file is damaged). \
         Nothing was written to it"
    )]
    WrongKey { path: PathBuf, mode: &'static str },

    /// Another process has the database open, so it cannot be replaced or removed now.
    #[error(
        "the database {path} is in use by another VibeLife process (the desktop app, or `vibe` in \
         another terminal); close it and try again (nothing was changed)"
    )]
    InUse { path: PathBuf },

    /// Making the pre-migration backup failed, so no migration was applied.
    #[error(
        "cannot back up {path} before upgrading it: {source} (free some disk space or check permissions; nothing was changed)"
    )]
    Backup { path: PathBuf, source: Box<StoreError> },

    /// A migration failed; its transaction was rolled back, so the file keeps schema version
    /// `from`. Says which migration and SQLite's reason, never the migration's SQL (which can
    /// be kilobytes); keeps no source error, so a chain printer says each cause once.
    #[error(
        "cannot upgrade database {} from schema version {from}: migration {migration} failed: \
         {reason} (the upgrade was rolled back; the file was not changed)",
        path.display()
    )]
    Migration {
        path: PathBuf,
        from: i64,
        /// The migration's file name (`0003_token_calibration.sql`) when known.
        migration: String,
        /// SQLite's message (or the migration library's, shortened).
        reason: String,
        /// SQLite's error code, when SQLite failed (a damaged file is `DatabaseCorrupt`).
        code: Option<rusqlite::ErrorCode>,
    },

    /// A conversation id that does not exist.
    #[error("no conversation with id {0}")]
    NoSuchConversation(String),

    /// No live memory item has this id (or id prefix).
    #[error("no memory item with id \"{0}\" (a forgotten item is gone for good)")]
    NoSuchMemoryItem(String),

    /// The list entry asked for (its place and `_created_at`) is not there.
    #[error(
        "no entry created at {created_at} in list \"{path}\" of skill {skill} (it may have been trimmed or changed meanwhile); read the state again and edit what it shows"
    )]
    NoSuchListEntry { skill: String, path: String, created_at: String },

    /// An append would drop existing entries of a list (its cap is at or below its length)
    /// and the caller did not allow it (the person was not asked); nothing was written.
    #[error(
        "not written: appending to \"{path}\" of skill {skill} would drop its {dropped} oldest \
         of {length} entries (cap {max_items}); dropping entries needs the person's approval, \
         or append without max_items to keep them all"
    )]
    ListWouldShrink { skill: String, path: String, length: usize, max_items: usize, dropped: usize },

    /// A protocol run id that does not exist.
    #[error("no protocol run with id {0}")]
    NoSuchProtocolRun(String),

    /// Nothing recorded to undo (or no change with the id asked for).
    #[error("{0}")]
    NoHistory(String),

    /// A stored document is not valid JSON (the file was edited or damaged outside VibeLife).
    #[error("stored {what} is not valid JSON: {source}")]
    CorruptJson { what: String, source: serde_json::Error },

    /// The database file cannot be written: the disk is full, the file or its folder is
    /// read-only, or permission is missing. Nothing of the write was saved.
    #[error("cannot save to {}: {cause}. Nothing of this change was saved", path.display())]
    Storage { path: PathBuf, cause: StorageCause },

    /// SQLite reported an error (locked for longer than the busy timeout, ...). The message
    /// holds SQLite's; it is not kept as a source too, so a printed chain says it once
    /// (rusqlite's own source would add "Error code 1: SQL logic error" after it).
    #[error("database error: {0}")]
    Sqlite(rusqlite::Error),

    /// Filesystem error around the database file.
    #[error("{context}: {source}")]
    Io { context: String, source: std::io::Error },

    /// The runtime shut down while a store call waited on its blocking thread
    /// ([`off_worker`](crate::off_worker)); the call did not complete. Not retried.
    #[error("the app is shutting down; the database call did not complete")]
    ShuttingDown,
}

impl From<rusqlite::Error> for StoreError {
    fn from(err: rusqlite::Error) -> Self {
        Self::Sqlite(err)
    }
}

/// Why the database file cannot be written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum StorageCause {
    #[error(
        "disk full: the disk is full; free some space on it (the data folder's backups/ keeps \
         old backups, its models/ downloaded models: `vibe models rm <id>`), then try again"
    )]
    DiskFull,
    #[error(
        "the database file or its folder is read-only (make it writable, or use another data folder)"
    )]
    ReadOnly,
    #[error(
        "permission denied (check who owns the data folder and its files, or use another data folder)"
    )]
    PermissionDenied,
}

impl StorageCause {
    /// The cause of an SQLite error, when it is one of these.
    pub fn of(err: &rusqlite::Error) -> Option<Self> {
        use rusqlite::ErrorCode::{CannotOpen, DiskFull, PermissionDenied, ReadOnly};
        match err.sqlite_error_code()? {
            DiskFull => Some(Self::DiskFull),
            ReadOnly => Some(Self::ReadOnly),
            PermissionDenied | CannotOpen => Some(Self::PermissionDenied),
            // SQLite reports ENOSPC as SQLITE_FULL, EROFS as SQLITE_READONLY and an EACCES
            // at open as SQLITE_CANTOPEN; other I/O errors stay database errors.
            _ => None,
        }
    }
}

/// `err` as a [`StoreError::Storage`] naming `path` when it is a disk-full, read-only or
/// permission error; unchanged otherwise.
pub(crate) fn storage(path: Option<&std::path::Path>, err: StoreError) -> StoreError {
    let cause = match &err {
        StoreError::Sqlite(e) => StorageCause::of(e),
        StoreError::Io { source, .. } => match source.kind() {
            std::io::ErrorKind::StorageFull => Some(StorageCause::DiskFull),
            std::io::ErrorKind::ReadOnlyFilesystem => Some(StorageCause::ReadOnly),
            std::io::ErrorKind::PermissionDenied => Some(StorageCause::PermissionDenied),
            _ => None,
        },
        _ => None,
    };
    // SQLite says "cannot open" alike for a missing permission and a read-only file system
    // (it cannot make the -wal/-shm files either way): ask the file system which it is.
    let cause = match (cause, path) {
        (Some(StorageCause::PermissionDenied), Some(path)) => Some(probe_cause(path)),
        (cause, _) => cause,
    };
    match cause {
        Some(cause) => StoreError::Storage {
            path: path.map_or_else(|| PathBuf::from(":memory:"), std::path::Path::to_path_buf),
            cause,
        },
        None => err,
    }
}

/// Why `path` (or a new file beside it) cannot be written: read-only when the file system
/// says so, else a missing permission.
fn probe_cause(path: &std::path::Path) -> StorageCause {
    use std::io::ErrorKind::ReadOnlyFilesystem;
    let file = std::fs::OpenOptions::new().write(true).open(path);
    if matches!(&file, Err(e) if e.kind() == ReadOnlyFilesystem) {
        return StorageCause::ReadOnly;
    }
    let mut probe = path.as_os_str().to_owned();
    probe.push(format!(".probe-{}", std::process::id()));
    let probe = std::path::PathBuf::from(probe);
    match std::fs::OpenOptions::new().write(true).create_new(true).open(&probe) {
        Err(e) if e.kind() == ReadOnlyFilesystem => StorageCause::ReadOnly,
        Err(_) => StorageCause::PermissionDenied,
        Ok(_) => {
            let _ = std::fs::remove_file(&probe);
            StorageCause::PermissionDenied
        }
    }
}

impl StoreError {
    pub(crate) fn invalid(msg: impl Into<String>) -> Self {
        Self::InvalidInput(msg.into())
    }

    /// The kind, for `vibe_wire::ErrorInfo`.
    pub fn kind(&self) -> ErrorKind {
        match self {
            Self::InvalidInput(_) | Self::ListWouldShrink { .. } => ErrorKind::InvalidInput,
            Self::NewerSchema { .. } => ErrorKind::NewerSchema,
            Self::Backup { .. } => ErrorKind::BackupFailed,
            Self::Damaged { .. } => ErrorKind::DamagedDatabase,
            Self::WrongKey { .. } => ErrorKind::WrongKey,
            Self::InUse { .. } => ErrorKind::InUse,
            Self::Migration { .. } => ErrorKind::MigrationFailed,
            Self::NoSuchConversation(_)
            | Self::NoSuchProtocolRun(_)
            | Self::NoHistory(_)
            | Self::NoSuchMemoryItem(_)
            | Self::NoSuchListEntry { .. } => ErrorKind::NotFound,
            Self::CorruptJson { .. } => ErrorKind::CorruptData,
            Self::Storage { .. } => ErrorKind::Storage,
            Self::Sqlite(e)
                if matches!(
                    e.sqlite_error_code(),
                    Some(rusqlite::ErrorCode::DatabaseCorrupt | rusqlite::ErrorCode::NotADatabase)
                ) =>
            {
                ErrorKind::DamagedDatabase
            }
            Self::Sqlite(_) => ErrorKind::Database,
            Self::Io { .. } => ErrorKind::Io,
            Self::ShuttingDown => ErrorKind::Internal,
        }
    }
}

pub type Result<T, E = StoreError> = std::result::Result<T, E>;
