//! The rescue path for a database that cannot be written where it lies (a read-only file
//! system or folder, a file without write permission): it is opened read-only, so reads,
//! exports and backups to elsewhere still work, and every write is refused with SQLite's
//! "read-only" error, which the store reports as [`crate::StorageCause::ReadOnly`]. Owns
//! the detection, the read-only connection and `Store::open_read_only`; must not write
//! anything beside the file.

use std::io::ErrorKind;
use std::path::{Path, PathBuf};

use rusqlite::{Connection, OpenFlags};

use crate::error::{Result, StorageCause, StoreError};
use crate::{BUSY_TIMEOUT, DbKey, STATEMENT_CACHE, Store, crypt, migrations};

impl Store {
    /// The database at `path`, which cannot be written in place, opened read-only: nothing
    /// beside it is made or changed (no session marker, no upgrade, no format move). A file
    /// that needs an upgrade first cannot be opened this way.
    pub(crate) fn open_read_only(path: &Path, key: &DbKey) -> Result<Self> {
        let conn = connect(path)?;
        crypt::apply(&conn, key, path)?;
        let found = migrations::check_not_newer(&conn, path)?;
        if found < migrations::latest_version() {
            return Err(StoreError::Storage {
                path: path.to_path_buf(),
                cause: StorageCause::ReadOnly,
            });
        }
        conn.busy_timeout(BUSY_TIMEOUT)?;
        conn.set_prepared_statement_cache_capacity(STATEMENT_CACHE);
        conn.pragma_update(None, "foreign_keys", true)?;
        tracing::info!(file = %path.display(), "the database cannot be written here: opened read-only");
        let mut store = Self::new(conn, Some(path.to_path_buf()));
        store.encrypted = !key.is_clear();
        store.read_only = true;
        Ok(store)
    }

    /// Whether this store was opened read-only (its file or folder cannot be written): every
    /// write fails with [`StorageCause::ReadOnly`].
    pub fn is_read_only(&self) -> bool {
        self.read_only
    }
}

/// Whether the existing database at `path` cannot be written in place: the file cannot be
/// opened for writing, or no file can be made beside it (SQLite's `-wal`/`-shm` files).
pub(crate) fn place_is_read_only(path: &Path) -> bool {
    let refused = |e: &std::io::Error| {
        matches!(e.kind(), ErrorKind::ReadOnlyFilesystem | ErrorKind::PermissionDenied)
    };
    if !path.is_file() {
        return false;
    }
    if let Err(e) = std::fs::OpenOptions::new().append(true).open(path) {
        return refused(&e);
    }
    let mut probe = path.as_os_str().to_owned();
    probe.push(format!(".probe-{}", std::process::id()));
    let probe = PathBuf::from(probe);
    match std::fs::OpenOptions::new().write(true).create_new(true).open(&probe) {
        Ok(_) => {
            let _ = std::fs::remove_file(&probe);
            false
        }
        Err(e) => refused(&e),
    }
}

/// A read-only connection to `path`. Without a `-wal` file beside it (the last session
/// closed cleanly) the file is opened `immutable`: SQLite then needs no `-shm` file, which a
/// read-only folder cannot hold; with one, `mode=ro` reads the log too.
pub(crate) fn connect(path: &Path) -> rusqlite::Result<Connection> {
    let mut wal = path.as_os_str().to_owned();
    wal.push("-wal");
    let has_log = std::fs::metadata(PathBuf::from(wal)).is_ok_and(|m| m.len() > 0);
    let mode = if has_log { "mode=ro" } else { "mode=ro&immutable=1" };
    let uri = format!("file:{}?{mode}", uri_path(path));
    crate::sqlite_ready::open_with_flags(
        &uri,
        OpenFlags::SQLITE_OPEN_READ_ONLY
            | OpenFlags::SQLITE_OPEN_URI
            | OpenFlags::SQLITE_OPEN_NO_MUTEX,
    )
}

/// `path` as the path part of an SQLite URI: `%`, `?` and `#` escaped (SQLite decodes them).
fn uri_path(path: &Path) -> String {
    let mut out = String::new();
    for c in path.to_string_lossy().chars() {
        match c {
            '%' => out.push_str("%25"),
            '?' => out.push_str("%3f"),
            '#' => out.push_str("%23"),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uri_paths_keep_query_characters_in_the_name() {
        assert_eq!(uri_path(Path::new("/a b/50%?#/vibe.db")), "/a b/50%25%3f%23/vibe.db");
    }

    #[test]
    fn a_writable_folder_is_not_read_only_and_no_probe_is_left() {
        let dir = tempfile::tempdir().unwrap();
        let db = dir.path().join("vibe.db");
        std::fs::write(&db, b"x").unwrap();
        assert!(!place_is_read_only(&db));
        assert!(!place_is_read_only(&dir.path().join("missing.db")));
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
    }
}
