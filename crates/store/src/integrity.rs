//! Integrity of the database file: a cheap check before opening (an empty, truncated or
//! non-SQLite file is reported, never replaced or written to) and the full `integrity_check`
//! for `vibe db check`. Each refusal says what is damaged and how to restore the last backup.
//! Opening and migrating are `lib`'s and `migrations`'s.

use std::io::Read;
use std::path::{Path, PathBuf};

use rusqlite::Connection;

use crate::crypt::DbKey;
use crate::error::{Result, StoreError};
use crate::migrations::list_backups;

const HEADER: &[u8; 16] = b"SQLite format 3\0";

/// Where the data folder's backup files are (`vibe backup create`, automatic and pre-restore
/// backups: `backups/*.tar` beside the database; their format is vibe-core's).
const BACKUP_FILES_DIR: &str = "backups";

/// The newest backup file (`*.tar`, by modification time) in the `backups` folder beside the
/// database at `path`.
fn newest_backup_file(path: &Path) -> Option<PathBuf> {
    let dir = path.parent()?.join(BACKUP_FILES_DIR);
    std::fs::read_dir(dir)
        .ok()?
        .flatten()
        .filter(|e| e.path().extension().is_some_and(|x| x == "tar"))
        .filter_map(|e| Some((e.metadata().ok()?.modified().ok()?, e.path())))
        .max()
        .map(|(_, file)| file)
}

/// How to get back to a good state, naming the newest backup when there is one: a backup
/// file with the command that restores it, else the copy an upgrade kept beside the file.
pub(crate) fn restore_advice(path: &Path) -> String {
    if let Some(file) = newest_backup_file(path) {
        let data_dir = path.parent().unwrap_or(Path::new("."));
        return format!(
            "The newest backup is {}: quit VibeLife and restore it with `vibe --data-dir {} \
             backup restore {}` (the damaged data is kept aside first)",
            file.display(),
            data_dir.display(),
            file.display()
        );
    }
    match list_backups(path).last() {
        Some(backup) => format!(
            "To restore the last backup, quit VibeLife and copy {} over {} (delete its -wal and \
             -shm files too); or move the damaged file away to start with an empty one",
            backup.display(),
            path.display()
        ),
        None => format!(
            "There is no backup beside it; move {} away (keep it for recovery) to start with an \
             empty database",
            path.display()
        ),
    }
}

pub(crate) fn damaged(path: &Path, what: impl Into<String>) -> StoreError {
    StoreError::Damaged {
        path: path.to_path_buf(),
        what: what.into(),
        restore: restore_advice(path),
    }
}

/// Before opening an existing file: it must be a whole SQLite database. An encrypted file has
/// no readable header: when a key is given, the key opening it is its check (`crypt::apply`).
pub(crate) fn precheck(path: &Path, key: &DbKey) -> Result<()> {
    let Ok(meta) = std::fs::metadata(path) else { return Ok(()) }; // a new file
    let len = meta.len();
    if len == 0 {
        return Err(damaged(path, "the file is empty (0 bytes)"));
    }
    let mut header = [0u8; 100];
    let read = std::fs::File::open(path).and_then(|mut f| f.read_exact(&mut header)).map_err(|e| {
        StoreError::Io { context: format!("cannot read {}", path.display()), source: e }
    });
    if len < 100 || read.is_err() {
        return Err(damaged(
            path,
            format!("the file is only {len} bytes, shorter than a database header"),
        ));
    }
    if &header[..16] != HEADER {
        if !key.is_clear() {
            return Ok(());
        }
        return Err(damaged(
            path,
            "it is not an SQLite database (its header is wrong), or it is encrypted and encryption \
             is off for this data folder",
        ));
    }
    let page_size = match u16::from_be_bytes([header[16], header[17]]) {
        1 => 65536u64,
        n => u64::from(n),
    };
    let pages = u64::from(u32::from_be_bytes([header[28], header[29], header[30], header[31]]));
    if page_size < 512 || !page_size.is_power_of_two() {
        return Err(damaged(
            path,
            format!("its header gives an impossible page size ({page_size})"),
        ));
    }
    // With a write-ahead log beside it another process may be checkpointing right now: it
    // writes page 1 (the new size) before the pages that extend the file, so the header can
    // run ahead of the length for a moment. The log also holds those pages, so SQLite itself
    // judges such a file (a real loss still surfaces as "malformed" from `on_open_error`).
    // The log goes only after the checkpoint finished the file, hence the second look at
    // the length once the log is found gone.
    let short = |len: u64| pages > 0 && len < pages * page_size;
    if short(len) && !has_wal(path) && short(std::fs::metadata(path).map_or(len, |m| m.len())) {
        return Err(damaged(
            path,
            format!("the file is truncated: {len} bytes, its header says {}", pages * page_size),
        ));
    }
    Ok(())
}

/// A non-empty `-wal` file beside `path`.
fn has_wal(path: &Path) -> bool {
    let mut wal = path.as_os_str().to_owned();
    wal.push("-wal");
    std::fs::metadata(Path::new(&wal)).is_ok_and(|m| m.len() > 0)
}

/// An error from opening `path`: SQLite's "malformed" and "not a database" become
/// [`StoreError::Damaged`] with the way to restore; others pass through.
pub(crate) fn on_open_error(path: &Path, err: StoreError) -> StoreError {
    match corruption(&err) {
        Some(what) => damaged(path, what),
        None => err,
    }
}

/// What is damaged, when `err` is SQLite finding the file malformed or not a database.
pub(crate) fn corruption(err: &StoreError) -> Option<String> {
    use rusqlite::ErrorCode::{DatabaseCorrupt, NotADatabase};
    let code = match err {
        StoreError::Sqlite(e) => e.sqlite_error_code(),
        StoreError::Migration { code, .. } => *code,
        _ => None,
    };
    match code {
        Some(DatabaseCorrupt) => Some(format!("SQLite reports it malformed ({err})")),
        Some(NotADatabase) => Some("SQLite does not recognise it as a database".to_string()),
        _ => None,
    }
}

/// Why the quick check runs at this open.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum CheckAt {
    /// The file is small enough to check at every open.
    Small,
    /// The last session ended without closing the file.
    Unclean,
}

/// SQLite's `quick_check` (O(file size), ~0.1 s for a 4.5 MB file): run at open when the
/// file is small or the last session ended without closing it; a finding refuses the open.
pub(crate) fn quick_check(conn: &Connection, path: &Path, at: CheckAt) -> Result<()> {
    let found = || -> rusqlite::Result<Vec<String>> {
        let mut stmt = conn.prepare("PRAGMA quick_check(20)")?;
        stmt.query_map([], |r| r.get::<_, String>(0))?.collect()
    };
    // A page damaged badly enough stops the check itself with "malformed".
    let rows = match found() {
        Ok(rows) => rows,
        Err(e) if e.sqlite_error_code() == Some(rusqlite::ErrorCode::DatabaseCorrupt) => {
            vec![e.to_string()]
        }
        Err(e) => return Err(e.into()),
    };
    if rows == ["ok"] {
        if at == CheckAt::Unclean {
            tracing::info!(path = %path.display(), "last session did not close the database; quick check ok");
        }
        return Ok(());
    }
    let findings = rows.join("; ").replace('\n', "; ");
    let findings: String = findings.chars().take(600).collect();
    let when = match at {
        CheckAt::Small => "SQLite's quick check at open finds",
        CheckAt::Unclean => {
            "the last session ended without closing it, and SQLite's quick check finds"
        }
    };
    Err(damaged(path, format!("{when}: {findings}")))
}

/// SQLite's full `integrity_check`: `Ok(vec![])` when the file is sound, else its findings
/// (at most 20).
pub(crate) fn full_check(conn: &Connection) -> Result<Vec<String>> {
    let mut stmt = conn.prepare("PRAGMA integrity_check(20)")?;
    let rows: Vec<String> =
        stmt.query_map([], |r| r.get::<_, String>(0))?.collect::<rusqlite::Result<_>>()?;
    Ok(if rows == ["ok"] { Vec::new() } else { rows })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn header(pages: u32) -> Vec<u8> {
        let mut h = vec![0u8; 100];
        h[..16].copy_from_slice(HEADER);
        h[16..18].copy_from_slice(&4096u16.to_be_bytes());
        h[28..32].copy_from_slice(&pages.to_be_bytes());
        h
    }

    #[test]
    fn a_short_file_is_truncated_unless_a_log_beside_it_may_hold_the_rest() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("vibe.db");
        let mut bytes = header(3);
        bytes.resize(2 * 4096, 0);
        std::fs::write(&path, &bytes).unwrap();
        let err = precheck(&path, &DbKey::Clear).unwrap_err().to_string();
        assert!(err.contains("truncated: 8192 bytes, its header says 12288"), "{err}");

        // Mid-checkpoint by another process: the header already counts a page the file
        // does not have yet, and the log holds it.
        std::fs::write(dir.path().join("vibe.db-wal"), b"frames").unwrap();
        precheck(&path, &DbKey::Clear).unwrap();

        // An empty log holds nothing.
        std::fs::write(dir.path().join("vibe.db-wal"), b"").unwrap();
        assert!(precheck(&path, &DbKey::Clear).is_err());
    }
}
