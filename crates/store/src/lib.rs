//! `vibe-store`: the one local SQLite file of VibeLife. It owns opening (WAL, foreign keys, busy
//! timeout, migrations with backups), the profile document and its skill-state operations
//! (docs/design.md#profile-document, #state-semantics), conversations, messages and history
//! selection, runs, the profile cache, and each model's token calibration (a number per model
//! name). It knows nothing of skills on disk, models or the UI.
//!
//! Every write of user data runs in one transaction; every read-modify-write of the profile
//! document runs in one IMMEDIATE transaction, so the desktop app and the CLI writing at the
//! same time never lose each other's updates.

mod cache;
mod calibration;
mod clock;
mod conversations;
mod error;
mod history;
mod json_path;
mod legacy;
mod message_safety;
mod messages;
mod migrations;
mod profile;
mod protocol_runs;
mod runs;
mod skill_rows;
mod state;

use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard};
use std::time::Duration;

use rusqlite::Connection;

pub use cache::{CacheStats, SkillView};
pub use calibration::{CALIBRATION_BOUNDS, TokenCalibration};
pub use clock::now_rfc3339;
pub use conversations::Conversation;
pub use error::{Result, StoreError};
pub use history::{HistoryLimit, select_history};
pub use json_path::deep_merge;
pub use legacy::migrate_legacy_profile;
pub use messages::{Message, NewMessage, Role};
pub use migrations::{BACKUPS_KEPT, Upgrade, latest_version, list_backups};
pub use protocol_runs::{
    NewProtocolRun, ProtocolRun, ProtocolStatus, StateLeaf, mirror_of, put, step_key,
};
pub use runs::{Recovery, RunAnswer, RunRow};
pub use state::{AppendOutcome, DEFAULT_MAX_ITEMS, StateRead, StateStatus, validate_skill_id};

/// The user id of the person using this machine (one profile per local user).
pub const LOCAL_USER: &str = "local";

/// How long a writer waits for another process's lock before giving up.
const BUSY_TIMEOUT: Duration = Duration::from_secs(15);

/// Prepared statements kept per connection (a chat turn uses about 20 distinct ones).
const STATEMENT_CACHE: usize = 64;

/// An open database. Cheap to share behind an `Arc`; calls are serialised on one connection.
pub struct Store {
    conn: Mutex<Connection>,
    path: Option<PathBuf>,
    cache: cache::ProfileCache,
    upgraded: Option<Upgrade>,
}

impl Store {
    /// Open (or create) the database at `path`, refusing a file from a newer schema untouched,
    /// backing up an existing file before upgrading it, then applying pending migrations and
    /// migrating legacy profile shapes (docs/design.md#legacy-shapes).
    pub fn open(path: &Path) -> Result<Self> {
        let mut conn = Connection::open(path)?;
        let found = migrations::check_not_newer(&conn, path)?;
        configure(&conn)?;
        let upgraded = migrations::upgrade(&mut conn, Some(path), found)?;
        let mut store = Self::finish_open(conn, Some(path.to_path_buf()))?;
        store.upgraded = upgraded;
        Ok(store)
    }

    /// A private in-memory database (tests, benchmarks, evals).
    pub fn open_in_memory() -> Result<Self> {
        let mut conn = Connection::open_in_memory()?;
        configure(&conn)?;
        migrations::upgrade(&mut conn, None, 0)?;
        Self::finish_open(conn, None)
    }

    fn finish_open(conn: Connection, path: Option<PathBuf>) -> Result<Self> {
        let store = Self {
            conn: Mutex::new(conn),
            path,
            cache: cache::ProfileCache::default(),
            upgraded: None,
        };
        store.migrate_legacy_profiles()?;
        Ok(store)
    }

    /// The schema upgrade opening this file did (with the backup it wrote first), if any.
    pub fn upgraded(&self) -> Option<&Upgrade> {
        self.upgraded.as_ref()
    }

    /// The database file, `None` in memory.
    pub fn path(&self) -> Option<&Path> {
        self.path.as_deref()
    }

    /// The schema version of the open file.
    pub fn schema_version(&self) -> Result<i64> {
        migrations::user_version(&self.conn())
    }

    /// Row counts per table, for `vibe db info`.
    pub fn counts(&self) -> Result<Vec<(&'static str, i64)>> {
        let conn = self.conn();
        [
            "profiles",
            "skill_states",
            "state_list_items",
            "conversations",
            "messages",
            "runs",
            "protocol_runs",
        ]
        .into_iter()
        .map(|table| {
            let n = conn.query_row(&format!("SELECT count(*) FROM {table}"), [], |r| r.get(0))?;
            Ok((table, n))
        })
        .collect()
    }

    /// The database size in bytes after checkpointing the WAL into the main file (pages in
    /// use, excluding free pages), for growth measurements.
    pub fn checkpointed_size(&self) -> Result<u64> {
        let conn = self.conn();
        conn.query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |_| Ok(()))?;
        let pages: i64 = conn.query_row("PRAGMA page_count", [], |r| r.get(0))?;
        let free: i64 = conn.query_row("PRAGMA freelist_count", [], |r| r.get(0))?;
        let size: i64 = conn.query_row("PRAGMA page_size", [], |r| r.get(0))?;
        Ok(((pages - free) * size) as u64)
    }

    pub(crate) fn conn(&self) -> MutexGuard<'_, Connection> {
        // A panic while holding the lock cannot leave the connection half-written (SQLite rolls
        // back an unfinished transaction when it is dropped), so a poisoned lock is safe to use.
        self.conn.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Run `f` in one IMMEDIATE transaction (the write lock is taken up front, so a
    /// read-modify-write cannot interleave with another process's).
    pub(crate) fn write_tx<T>(&self, f: impl FnOnce(&Connection) -> Result<T>) -> Result<T> {
        let conn = self.conn();
        let tx = Tx::begin(&conn, true)?;
        let out = f(&tx)?;
        tx.commit()?;
        Ok(out)
    }
}

/// A transaction on one connection, begun and ended with cached statements (rusqlite's
/// `Transaction` parses its `BEGIN` and `COMMIT` text every time, a noticeable share of a
/// chat turn's six transactions). Rolled back when dropped without [`Tx::commit`].
pub(crate) struct Tx<'c> {
    conn: &'c Connection,
    done: bool,
}

impl<'c> Tx<'c> {
    /// `BEGIN IMMEDIATE` (take the write lock now) or a deferred `BEGIN` (for reads that must
    /// see one snapshot).
    pub(crate) fn begin(conn: &'c Connection, immediate: bool) -> Result<Self> {
        let sql = if immediate { "BEGIN IMMEDIATE" } else { "BEGIN" };
        conn.prepare_cached(sql)?.execute([])?;
        Ok(Self { conn, done: false })
    }

    pub(crate) fn commit(mut self) -> Result<()> {
        self.conn.prepare_cached("COMMIT")?.execute([])?;
        self.done = true;
        Ok(())
    }
}

impl std::ops::Deref for Tx<'_> {
    type Target = Connection;

    fn deref(&self) -> &Connection {
        self.conn
    }
}

impl Drop for Tx<'_> {
    fn drop(&mut self) {
        if !self.done {
            // Nothing to report from a failed rollback: SQLite rolls back on its own when
            // the connection is next used or closed.
            let _ = self.conn.prepare_cached("ROLLBACK").and_then(|mut s| s.execute([]));
        }
    }
}

fn configure(conn: &Connection) -> Result<()> {
    conn.busy_timeout(BUSY_TIMEOUT)?;
    conn.set_prepared_statement_cache_capacity(STATEMENT_CACHE);
    // Plans must not depend on bound values: otherwise a cached statement whose LIMIT or
    // range parameter changed is compiled again on its next step (SQLite's STAT4 build).
    conn.set_db_config(rusqlite::config::DbConfig::SQLITE_DBCONFIG_ENABLE_QPSG, true)?;
    conn.pragma_update(None, "journal_mode", "WAL")?;
    conn.pragma_update(None, "foreign_keys", true)?;
    conn.pragma_update(None, "synchronous", "NORMAL")?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn conversations(store: &Store) -> i64 {
        store.conn().query_row("SELECT count(*) FROM conversations", [], |r| r.get(0)).unwrap()
    }

    #[test]
    fn a_failed_write_transaction_leaves_nothing_and_the_next_one_works() {
        let store = Store::open_in_memory().unwrap();
        let insert = |tx: &Connection, id: &str| {
            tx.execute(
                "INSERT INTO conversations (id, user_id, created_at, updated_at) VALUES (?1, 'local', 't', 't')",
                [id],
            )
        };
        let failed: Result<()> = store.write_tx(|tx| {
            insert(tx, "a")?;
            Err(StoreError::invalid("refused halfway"))
        });
        assert!(failed.is_err());
        assert_eq!(conversations(&store), 0, "the first insert was rolled back");
        // A statement error inside also rolls back, and the connection stays usable.
        let failed = store.write_tx(|tx| {
            insert(tx, "b")?;
            insert(tx, "b")?;
            Ok(())
        });
        assert!(failed.unwrap_err().to_string().contains("UNIQUE"));
        assert_eq!(conversations(&store), 0);
        store.write_tx(|tx| Ok(insert(tx, "c")?)).unwrap();
        assert_eq!(conversations(&store), 1);
    }
}
