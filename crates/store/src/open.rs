//! Opening the database file: the open lock across processes, the integrity pre-check, keying
//! (and encrypting a clear file in place), the page-format move, connection settings and the
//! migrations. It owns nothing of what the tables hold; read-only opening is `read_only`.

use std::path::{Path, PathBuf};
use std::time::Duration;

use rusqlite::Connection;

use crate::{
    DbKey, QUICK_CHECK_ALWAYS_BYTES, Result, Store, crypt, crypt_move, error, integrity,
    list_backups, migrations, read_only, session,
};

/// How long a writer waits for another process's lock before giving up.
pub(crate) const BUSY_TIMEOUT: Duration = Duration::from_secs(15);

/// Prepared statements kept per connection (a chat turn uses about 20 distinct ones).
pub(crate) const STATEMENT_CACHE: usize = 64;

impl Store {
    /// Open (or create) a database at `path` that is NOT encrypted (tests, tools, benchmarks
    /// of the clear format). The app opens with [`Store::open_with_key`].
    pub fn open(path: &Path) -> Result<Self> {
        Self::open_with_key(path, &DbKey::Clear)
    }

    /// Open (or create) the database at `path` keyed with `key`: the key is applied before
    /// any other statement and proven by reading the schema (a wrong key is
    /// [`StoreError::WrongKey`] and the file is not touched). A clear file opened with a key
    /// is first encrypted in place (crash-safe, docs/privacy.md#moving-to-encryption). Then,
    /// as ever: a file from a newer schema is refused untouched, an existing file is backed
    /// up (with the same key) before upgrading it, pending migrations are applied and legacy
    /// profile shapes migrated (docs/design.md#legacy-shapes).
    pub fn open_with_key(path: &Path, key: &DbKey) -> Result<Self> {
        Self::open_checking(path, key, QUICK_CHECK_ALWAYS_BYTES)
    }

    /// [`Store::open_with_key`], running the quick check at open on files up to `check_up_to`
    /// bytes (and on any file after an unclean session).
    pub(crate) fn open_checking(path: &Path, key: &DbKey, check_up_to: u64) -> Result<Self> {
        // Opening, creating and upgrading happen once at a time across processes: without
        // it, two processes opening a new file both run the migrations and one fails.
        let _lock = open_lock(path);
        integrity::precheck(path, key)?;
        if read_only::place_is_read_only(path) {
            return Self::open_read_only(path, key)
                .map_err(|e| error::storage(Some(path), integrity::on_open_error(path, e)));
        }
        if !key.is_clear() && crypt::is_clear_file(path) {
            Self::encrypt_clear_file(path, key)
                .map_err(|e| error::storage(Some(path), integrity::on_open_error(path, e)))?;
        }
        let session::Begun { session, unclean, alone } = session::begin(path);
        let check = if unclean {
            Some(integrity::CheckAt::Unclean)
        } else if std::fs::metadata(path).is_ok_and(|m| m.len() > 0 && m.len() <= check_up_to) {
            Some(integrity::CheckAt::Small)
        } else {
            None
        };
        match Self::open_checked(path, key, check, alone) {
            Ok(mut store) => {
                *store.session.get_mut().unwrap_or_else(|p| p.into_inner()) = session;
                Ok(store)
            }
            Err(e) => {
                if let Some(session) = session {
                    session.abandon();
                }
                Err(error::storage(Some(path), integrity::on_open_error(path, e)))
            }
        }
    }

    /// The clear file at `path` (not from a newer schema) encrypted with `key`, then its
    /// backups too, so no clear copy of the data stays beside it.
    fn encrypt_clear_file(path: &Path, key: &DbKey) -> Result<()> {
        {
            let conn = crate::sqlite_ready::open(path)?;
            migrations::check_not_newer(&conn, path)?;
        }
        crypt_move::encrypt_in_place(path, key, None)?;
        for backup in list_backups(path).into_iter().filter(|b| crypt::is_clear_file(b)) {
            if let Err(e) = crypt_move::encrypt_in_place(&backup, key, None) {
                tracing::warn!(file = %backup.display(), "cannot encrypt a clear backup: {e}");
            }
        }
        Ok(())
    }

    /// `check`: SQLite's quick check runs before anything is written, because the file is
    /// small or the last session did not close it (docs/performance.md#integrity-at-open).
    /// `alone`: no other process has the file open, so a file in an earlier page format is
    /// moved to SQLCipher 4's standard one (docs/privacy.md#page-format).
    fn open_checked(
        path: &Path,
        key: &DbKey,
        check: Option<integrity::CheckAt>,
        alone: bool,
    ) -> Result<Self> {
        let mut conn = crate::sqlite_ready::open(path)?;
        crypt::restrict(path);
        let format = crypt::apply(&conn, key, path)?;
        let found = migrations::check_not_newer(&conn, path)?;
        if let Some(at) = check {
            integrity::quick_check(&conn, path, at)?;
        }
        if format != crypt::Format::Standard && alone {
            drop(conn);
            if let Err(e) = crypt_move::reformat_in_place(path, key, None) {
                // Still readable as it is; the next open tries again.
                tracing::warn!(file = %path.display(), "the database stays in its earlier page format: {e}");
            }
            conn = crate::sqlite_ready::open(path)?;
            crypt::apply(&conn, key, path)?;
        }
        configure(&conn)?;
        for suffix in ["-wal", "-shm"] {
            let mut side = path.as_os_str().to_owned();
            side.push(suffix);
            crypt::restrict(Path::new(&side));
        }
        let upgraded = migrations::upgrade(&mut conn, Some(path), found)?;
        let mut store = Self::finish_open(conn, Some(path.to_path_buf()))?;
        if let Some(upgrade) = &upgraded {
            store.share_marks_older_than_sync(upgrade.from)?;
        }
        store.upgraded = upgraded;
        store.encrypted = !key.is_clear();
        Ok(store)
    }

    /// A private in-memory database (tests, benchmarks, evals).
    pub fn open_in_memory() -> Result<Self> {
        let mut conn = crate::sqlite_ready::open_in_memory()?;
        configure(&conn)?;
        migrations::upgrade(&mut conn, None, 0)?;
        Self::finish_open(conn, None)
    }

    fn finish_open(conn: Connection, path: Option<PathBuf>) -> Result<Self> {
        let store = Self::new(conn, path);
        store.migrate_legacy_profiles()?;
        Ok(store)
    }
}

/// An exclusive lock on `<db>.lock` beside the database, held while a process opens (and
/// possibly creates or migrates) it. `None` when the lock file cannot be made (a read-only
/// folder): then nothing can be created or migrated there anyway.
pub(crate) fn open_lock(path: &Path) -> Option<std::fs::File> {
    let mut name = path.file_name()?.to_os_string();
    name.push(".lock");
    let lock = path.with_file_name(name);
    let file =
        std::fs::OpenOptions::new().create(true).truncate(false).write(true).open(&lock).ok()?;
    crypt::restrict(&lock);
    match file.lock() {
        Ok(()) => Some(file),
        Err(e) => {
            tracing::warn!(path = %path.display(), "cannot lock the database for opening: {e}");
            None
        }
    }
}

pub(crate) fn configure(conn: &Connection) -> Result<()> {
    conn.busy_timeout(BUSY_TIMEOUT)?;
    conn.set_prepared_statement_cache_capacity(STATEMENT_CACHE);
    // Plans must not depend on bound values: otherwise a cached statement whose LIMIT or
    // range parameter changed is compiled again on its next step (SQLite's STAT4 build).
    conn.set_db_config(rusqlite::config::DbConfig::SQLITE_DBCONFIG_ENABLE_QPSG, true)?;
    conn.pragma_update(None, "journal_mode", "WAL")?;
    conn.pragma_update(None, "foreign_keys", true)?;
    conn.pragma_update(None, "synchronous", "NORMAL")?;
    // Deleted text is overwritten, not left in free pages (docs/privacy.md#deleting).
    conn.pragma_update(None, "secure_delete", true)?;
    Ok(())
}
