//! What `vibe backup` needs from the database (the archive format is the core's,
//! docs/privacy.md#backup-files): a consistent copy of the open file with the same key
//! ([`Store::snapshot_into`], `crypt::copy_into`), a check of such a copy that never migrates or
//! repairs it ([`inspect`]: schema version, SQLite's integrity check, rows per table), and
//! the exclusive hold on a database file while a restore or an erase replaces or removes it
//! ([`hold_exclusive`]).

use std::collections::BTreeMap;
use std::fs::{File, OpenOptions};
use std::path::Path;

use crate::crypt::{self, DbKey};
use crate::error::{Result, StoreError};
use crate::{Store, integrity, migrations, open_lock};

/// What [`inspect`] found in a copy of a database.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Inspection {
    /// The copy's schema version (`PRAGMA user_version`).
    pub schema_version: i64,
    /// SQLite's integrity check: empty when the copy is sound.
    pub problems: Vec<String>,
    /// Rows per table, by table name (every table, not only the user-facing ones).
    pub counts: BTreeMap<String, i64>,
}

impl Store {
    /// Write a consistent copy of the open database to `target` (a new file), encrypted with
    /// the same key as this one (`crypt::copy_into`: `VACUUM INTO` on a keyed connection), owner-only.
    /// Other processes may keep writing meanwhile: the copy is one snapshot of the database.
    pub fn snapshot_into(&self, target: &Path) -> Result<()> {
        if target.exists() {
            return Err(StoreError::invalid(format!(
                "{} already exists; a snapshot is only written to a new file",
                target.display()
            )));
        }
        let conn = self.conn();
        crypt::copy_into(&conn, target).map_err(|e| crate::error::storage(Some(target), e))?;
        Ok(())
    }
}

/// Open the database copy at `path` with `key` and report its schema version, integrity and
/// row counts. Nothing is migrated or written to the copy's data. A key that does not open it
/// is [`StoreError::WrongKey`].
pub fn inspect(path: &Path, key: &DbKey) -> Result<Inspection> {
    if !path.is_file() {
        return Err(StoreError::invalid(format!("{} is not a database file", path.display())));
    }
    let conn = crate::sqlite_ready::open(path)?;
    crypt::apply(&conn, key, path)?;
    let schema_version = migrations::user_version(&conn)?;
    let problems = integrity::full_check(&conn)?;
    let counts = crypt::table_counts(&conn)?.into_iter().collect();
    Ok(Inspection { schema_version, problems, counts })
}

/// The key of the run folders kept in the database copy at `path` ([`Store::run_file_key`]),
/// opened with `key`; `None` when it keeps none (encryption off, or a schema from before).
pub fn inspect_run_file_key(
    path: &Path,
    key: &DbKey,
) -> Result<Option<zeroize::Zeroizing<[u8; crypt::RAW_KEY_LEN]>>> {
    let conn = crate::sqlite_ready::open(path)?;
    crypt::apply(&conn, key, path)?;
    let has_table: i64 = conn.query_row(
        "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'run_file_key'",
        [],
        |r| r.get(0),
    )?;
    if has_table == 0 {
        return Ok(None);
    }
    crate::run_key::stored(&conn)
}

/// A database file held for this process alone: no other process has it open, and none can
/// open it until this is dropped. Drop every [`Store`] of this file in this process first.
pub struct Exclusive {
    _open: Option<File>,
    _inuse: Option<File>,
}

/// Hold the database at `path` exclusively (see [`Exclusive`]), or [`StoreError::InUse`]
/// when another process (the desktop app, a chat in another terminal) has it open.
pub fn hold_exclusive(path: &Path) -> Result<Exclusive> {
    let open = open_lock(path);
    let mut name = path.file_name().map(|n| n.to_os_string()).unwrap_or_default();
    name.push(".inuse");
    let inuse_path = path.with_file_name(name);
    let inuse = match OpenOptions::new().create(true).truncate(false).write(true).open(&inuse_path)
    {
        Ok(file) => {
            crypt::restrict(&inuse_path);
            match file.try_lock() {
                Ok(()) => Some(file),
                Err(std::fs::TryLockError::WouldBlock) => {
                    return Err(StoreError::InUse { path: path.to_path_buf() });
                }
                Err(std::fs::TryLockError::Error(e)) => {
                    tracing::warn!(path = %path.display(), "cannot tell whether the database is in use: {e}");
                    None
                }
            }
        }
        Err(e) => {
            tracing::warn!(path = %path.display(), "cannot tell whether the database is in use: {e}");
            None
        }
    };
    Ok(Exclusive { _open: open, _inuse: inuse })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{LOCAL_USER, NewMessage, Role};

    fn key() -> DbKey {
        DbKey::passphrase("backup test")
    }

    #[test]
    fn a_snapshot_has_the_same_key_rows_and_version_and_a_wrong_key_is_told() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open_with_key(&dir.path().join("vibe.db"), &key()).unwrap();
        let c = store.create_conversation(LOCAL_USER, None).unwrap();
        store.append_message(&c.id, NewMessage::text(Role::User, "秘密")).unwrap();
        let copy = dir.path().join("copy.db");
        store.snapshot_into(&copy).unwrap();
        assert!(store.snapshot_into(&copy).is_err(), "never over an existing file");
        let found = inspect(&copy, &key()).unwrap();
        assert!(found.problems.is_empty(), "{found:?}");
        assert_eq!(found.schema_version, crate::latest_version());
        assert_eq!(found.counts["messages"], 1);
        assert_eq!(found.counts["conversations"], 1);
        let bytes = std::fs::read(&copy).unwrap();
        assert!(!bytes.windows("秘密".len()).any(|w| w == "秘密".as_bytes()));
        let err = inspect(&copy, &DbKey::passphrase("other")).unwrap_err();
        assert!(matches!(err, StoreError::WrongKey { .. }), "{err}");
    }

    #[test]
    fn an_open_database_cannot_be_held_exclusively_until_it_is_closed() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("vibe.db");
        let store = Store::open_with_key(&path, &key()).unwrap();
        let err = hold_exclusive(&path).err().unwrap();
        assert!(matches!(err, StoreError::InUse { .. }), "{err}");
        drop(store);
        let held = hold_exclusive(&path).unwrap();
        drop(held);
        Store::open_with_key(&path, &key()).unwrap();
    }
}
