//! The store's one error type. Every variant says what went wrong, where, and how to fix it;
//! none is retried automatically (SQLite's own busy handler already waits for locks).

use std::path::PathBuf;

/// Errors from the store.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The input was rejected before anything was written (bad path, bad id, wrong JSON type).
    #[error("{0}")]
    InvalidInput(String),

    /// The database file was written by a newer VibeLife; it was left untouched.
    #[error(
        "database {path} has schema version {found}, newer than this VibeLife supports ({supported}); \
         update VibeLife, or point --data-dir at another folder (the file was not changed)"
    )]
    NewerSchema { path: PathBuf, found: i64, supported: i64 },

    /// Making the pre-migration backup failed, so no migration was applied.
    #[error(
        "cannot back up {path} before upgrading it: {source} (free some disk space or check permissions; nothing was changed)"
    )]
    Backup { path: PathBuf, source: Box<StoreError> },

    /// A migration failed; its transaction was rolled back.
    #[error("cannot upgrade the database schema: {0}")]
    Migration(#[from] rusqlite_migration::Error),

    /// A conversation id that does not exist.
    #[error("no conversation with id {0} (list them with `vibe conversations list`)")]
    NoSuchConversation(String),

    /// A protocol run id that does not exist.
    #[error("no protocol run with id {0} (list them with `vibe protocol list`)")]
    NoSuchProtocolRun(String),

    /// A stored document is not valid JSON (the file was edited or damaged outside VibeLife).
    #[error("stored {what} is not valid JSON: {source}")]
    CorruptJson { what: String, source: serde_json::Error },

    /// SQLite reported an error (locked for longer than the busy timeout, disk full, ...).
    #[error("database error: {0}")]
    Sqlite(#[from] rusqlite::Error),

    /// Filesystem error around the database file.
    #[error("{context}: {source}")]
    Io { context: String, source: std::io::Error },
}

impl StoreError {
    pub(crate) fn invalid(msg: impl Into<String>) -> Self {
        Self::InvalidInput(msg.into())
    }

    /// Short machine-readable kind, for `vibe_wire::ErrorInfo`.
    pub fn kind(&self) -> &'static str {
        match self {
            Self::InvalidInput(_) => "invalid_input",
            Self::NewerSchema { .. } => "newer_schema",
            Self::Backup { .. } => "backup_failed",
            Self::Migration(_) => "migration_failed",
            Self::NoSuchConversation(_) | Self::NoSuchProtocolRun(_) => "not_found",
            Self::CorruptJson { .. } => "corrupt_data",
            Self::Sqlite(_) => "database",
            Self::Io { .. } => "io",
        }
    }
}

pub type Result<T, E = StoreError> = std::result::Result<T, E>;
