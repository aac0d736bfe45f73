//! `vibe-store`: the one local SQLite file of VibeLife. It owns opening (WAL, foreign keys, busy
//! timeout, migrations with backups), the profile document and its skill-state operations
//! (docs/design.md#profile-document, #state-semantics), conversations, messages and history
//! selection, runs, skills' views of the profile, each model's token calibration (a number per
//! model name), and memory items with their extraction watermarks. It knows nothing of skills on
//! disk, models or the UI.
//!
//! Every write of user data runs in one transaction; every read-modify-write of the profile
//! document runs in one IMMEDIATE transaction, so the desktop app and the CLI writing at the
//! same time never lose each other's updates.
//!
//! The file is encrypted with SQLCipher when the app hands a key in ([`DbKey`],
//! docs/privacy.md#encryption-at-rest); `crypt` owns keying, verifying and encrypting a clear
//! file in place. The store never picks a key mode itself.

mod backup;
mod bounds;
mod calibration;
mod change;
mod clock;
mod conversations;
mod crypt;
mod crypt_move;
mod error;
mod history;
mod integrity;
mod json_path;
mod legacy;
mod list_edit;
mod losses;
mod memory;
mod memory_backoff;
mod memory_extraction;
mod message_safety;
mod messages;
mod migrations;
mod off_worker;
mod open;
mod profile;
mod protocol_runs;
mod read_only;
mod reminder_notices;
mod run_key;
mod runs;
pub mod sample;
mod session;
mod skill_rows;
mod skill_view;
mod sqlite_ready;
mod state;
mod strict_json;
mod sync_apply;
mod sync_clock;
mod sync_existing;
mod sync_log;
mod sync_merge;
mod sync_record;
mod tx;
mod undo;

use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard};

use rusqlite::Connection;

pub use backup::{Exclusive, Inspection, hold_exclusive, inspect, inspect_run_file_key};
pub use calibration::{CALIBRATION_BOUNDS, TokenCalibration};
pub use change::{
    ChangeBy, ClearedHistory, DESTRUCTIVE_HISTORY_DAYS, HISTORY_DAYS, HISTORY_ROWS, HistoryTarget,
    describe,
};
pub use clock::{StoreClock, now_rfc3339};
pub use conversations::Conversation;
pub use crypt::{DbKey, RAW_KEY_LEN};
pub use error::{Result, StorageCause, StoreError};
pub use history::{HistoryLimit, select_history};
pub use json_path::deep_merge;
pub use legacy::migrate_legacy_profile;
pub use losses::losses_of_merge;
pub use memory::{HISTORY_KEPT, MemoryItem, MemorySource, Replaced, normalized};
pub use memory_backoff::MemoryBackoff;
pub use memory_extraction::{Applied, Backlog, MemoryChange, Pending, PendingMessage};
pub use message_safety::SafetyMark;
pub use messages::{Message, NewMessage, Role, RunAnswer};
pub use migrations::{BACKUPS_KEPT, Upgrade, latest_version, list_backups};
pub use off_worker::{blocking, off_worker};
pub use protocol_runs::{
    NewProtocolRun, ProtocolRun, ProtocolStatus, StateLeaf, mirror_of, put, step_key,
};
pub use runs::{Recovery, RunEnd, RunRow};
pub use skill_rows::validate_skill_id;
pub use skill_view::SkillView;
pub use sqlite_ready::sqlite_ready;
pub use state::{AppendCap, AppendOutcome, StateRead, StateStatus, StateWrite};
pub use strict_json::parse_strict;
pub use sync_apply::{SyncApplied, SyncPeer};
pub use sync_clock::{BadHlc, Hlc};
pub use sync_log::{BATCH_MAX_BYTES, BATCH_MAX_OPS, LoggedOp, SealedBatch, SyncDevice, SyncOp};
pub use undo::{StateChange, Undone};

pub(crate) use open::{BUSY_TIMEOUT, STATEMENT_CACHE, open_lock};
pub(crate) use tx::Tx;

/// The user id of the person using this machine (one profile per local user).
pub const LOCAL_USER: &str = "local";

/// Files up to this size get SQLite's quick check at every open (measured at this size: about
/// 1 ms clear, 5 ms encrypted; docs/performance.md#integrity-at-open); larger ones only after a
/// session that did not close.
pub const QUICK_CHECK_ALWAYS_BYTES: u64 = 512 * 1024;

/// An open database. Cheap to share behind an `Arc`; calls are serialised on one connection.
pub struct Store {
    conn: Mutex<Connection>,
    path: Option<PathBuf>,
    upgraded: Option<Upgrade>,
    /// Who this process's writes are recorded as in the undo history, unless a write names
    /// its author ([`Store::set_front_end`]).
    front_end: Mutex<ChangeBy>,
    /// The time writes are stamped with (undo history, its pruning); `None`: the system's.
    clock: Mutex<Option<StoreClock>>,
    /// What damage a write found (SQLite said the file is malformed): from then on every write
    /// is refused with [`StoreError::Damaged`], so nothing keeps writing into a broken file.
    damage: Mutex<Option<String>>,
    /// Whether the file is encrypted (opened with a key): only then may it keep the key of
    /// the run folders ([`Store::run_file_key`]).
    encrypted: bool,
    /// Opened read-only because the file or its folder cannot be written (a rescue path:
    /// reads, exports and backups elsewhere work; writes are refused).
    read_only: bool,
    /// This process's session on the file (last, so the connection closes first); taken by
    /// [`Store::close`].
    session: Mutex<Option<session::Session>>,
    /// [`Store::close`] ran: writes are refused from then on.
    closed: std::sync::atomic::AtomicBool,
}

impl Store {
    fn new(conn: Connection, path: Option<PathBuf>) -> Self {
        Self {
            conn: Mutex::new(conn),
            path,
            upgraded: None,
            front_end: Mutex::new(ChangeBy::App),
            clock: Mutex::new(None),
            damage: Mutex::new(None),
            encrypted: false,
            read_only: false,
            session: Mutex::new(None),
            closed: false.into(),
        }
    }

    /// Record this process's writes that name no author as made by `by` (the CLI says
    /// [`ChangeBy::Cli`]; the default is [`ChangeBy::App`]).
    pub fn set_front_end(&self, by: ChangeBy) {
        *self.front_end.lock().unwrap_or_else(|p| p.into_inner()) = by;
    }

    /// Stamp this store's writes with `clock` instead of the system's (tests move time on
    /// with it, e.g. to see the undo history pruned, without sleeping).
    pub fn set_clock(&self, clock: StoreClock) {
        *self.clock.lock().unwrap_or_else(|p| p.into_inner()) = Some(clock);
    }

    /// Who this process's writes are recorded as.
    pub fn front_end(&self) -> ChangeBy {
        self.front_end.lock().unwrap_or_else(|p| p.into_inner()).clone()
    }

    /// The schema upgrade opening this file did (with the backup it wrote first), if any.
    pub fn upgraded(&self) -> Option<&Upgrade> {
        self.upgraded.as_ref()
    }

    /// The database file, `None` in memory.
    pub fn path(&self) -> Option<&Path> {
        self.path.as_deref()
    }

    /// SQLite's full integrity check of the open file: empty when it is sound, else what is
    /// damaged (at most 20 findings).
    pub fn integrity_check(&self) -> Result<Vec<String>> {
        integrity::full_check(&self.conn())
    }

    /// The damage a write found in this file, if any: every write since was refused.
    pub fn damage(&self) -> Option<String> {
        self.damage.lock().unwrap_or_else(|p| p.into_inner()).clone()
    }

    /// How to restore the last backup of this file (for a failed [`Store::integrity_check`]).
    pub fn restore_advice(&self) -> Option<String> {
        self.path.as_deref().map(integrity::restore_advice)
    }

    /// Let this connection grow the file by at most `pages` more pages (`PRAGMA
    /// max_page_count`): a quota for hosts, and how tests meet a full disk without filling
    /// one. Writes beyond it fail with [`StorageCause::DiskFull`] and change nothing.
    pub fn cap_growth(&self, pages: u32) -> Result<()> {
        let conn = self.conn();
        let used: i64 = conn.query_row("PRAGMA page_count", [], |r| r.get(0))?;
        let cap = used + i64::from(pages);
        conn.query_row(&format!("PRAGMA max_page_count = {cap}"), [], |_| Ok(()))?;
        Ok(())
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
        // SQLCipher answers some of these as text on a keyed connection.
        let number = |pragma: &str| -> Result<i64> {
            let value: rusqlite::types::Value =
                conn.query_row(&format!("PRAGMA {pragma}"), [], |r| r.get(0))?;
            Ok(match value {
                rusqlite::types::Value::Integer(n) => n,
                rusqlite::types::Value::Text(t) => t.trim().parse().unwrap_or(0),
                _ => 0,
            })
        };
        let pages = number("page_count")?;
        let free = number("freelist_count")?;
        let size = number("page_size")?;
        Ok(((pages - free) * size) as u64)
    }

    /// End this process's session on the file as the process quits (a desktop app's exit does
    /// not drop what its threads still hold): waits for a transaction in flight, then says the
    /// file was closed cleanly (the next open skips the quick check it runs after a crash) and
    /// refuses every later write with [`StoreError::ShuttingDown`]. A damaged file keeps its
    /// marker, as at any close.
    pub fn close(&self) {
        let _conn = self.conn();
        self.closed.store(true, std::sync::atomic::Ordering::SeqCst);
        drop(self.session.lock().unwrap_or_else(|p| p.into_inner()).take());
    }

    pub(crate) fn conn(&self) -> MutexGuard<'_, Connection> {
        // A panic while holding the lock cannot leave the connection half-written (SQLite rolls
        // back an unfinished transaction when it is dropped), so a poisoned lock is safe to use.
        self.conn.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Run `f` in one IMMEDIATE transaction (the write lock is taken up front, so a
    /// read-modify-write cannot interleave with another process's).
    /// A disk-full, read-only or permission error becomes [`StoreError::Storage`] naming the file.
    /// SQLite finding the file malformed becomes [`StoreError::Damaged`], and from then on
    /// this store refuses every write (the session marker stays, so the next open checks).
    pub(crate) fn write_tx<T>(&self, f: impl FnOnce(&Connection) -> Result<T>) -> Result<T> {
        if self.closed.load(std::sync::atomic::Ordering::SeqCst) {
            return Err(StoreError::ShuttingDown);
        }
        if let Some(what) = self.damage() {
            return Err(integrity::damaged(self.shown_path(), what));
        }
        let clock = self.clock.lock().unwrap_or_else(|p| p.into_inner()).clone();
        let _clock = clock::enter(clock);
        let conn = self.conn();
        let run = || {
            let tx = Tx::begin(&conn, true)?;
            let out = f(&tx)?;
            tx.commit()?;
            Ok(out)
        };
        run().map_err(|e| self.on_error(e))
    }

    /// Run `f` in one deferred read transaction (one snapshot of the file). Damage met on the
    /// way is handled as in [`Store::write_tx`]: a named [`StoreError::Damaged`], and no more
    /// writes.
    pub(crate) fn read_tx<T>(&self, f: impl FnOnce(&Connection) -> Result<T>) -> Result<T> {
        let conn = self.conn();
        let run = || {
            let tx = Tx::begin(&conn, false)?;
            f(&tx)
        };
        run().map_err(|e| self.on_error(e))
    }

    fn shown_path(&self) -> &Path {
        self.path.as_deref().unwrap_or(Path::new(":memory:"))
    }

    /// A failed transaction's error: damage is recorded (writes stop) and named with the way
    /// to restore; a full disk, a read-only file or a missing permission names the file.
    fn on_error(&self, err: StoreError) -> StoreError {
        let Some(what) = integrity::corruption(&err) else {
            return error::storage(self.path.as_deref(), err);
        };
        let path = self.shown_path();
        let what = format!("{what}; VibeLife stopped writing to it");
        tracing::error!(path = %path.display(), "{what}");
        *self.damage.lock().unwrap_or_else(|p| p.into_inner()) = Some(what.clone());
        if let Some(session) = &*self.session.lock().unwrap_or_else(|p| p.into_inner()) {
            session.keep_marker();
        }
        integrity::damaged(path, what)
    }
}

#[cfg(test)]
#[path = "lib_tests.rs"]
mod tests;
