//! Moving a database file, crash-safe (docs/privacy.md#moving-to-encryption): a clear file to
//! an encrypted one, and an encrypted file from an earlier page format to SQLCipher 4's
//! standard one (docs/privacy.md#page-format). A copy is written beside the file, checked, synced and
//! renamed over it in one step, so a crash at any point leaves one complete database. Keying,
//! and what the formats are, are `crypt`'s.

use std::path::{Path, PathBuf};

use crate::crypt::{DbKey, Format, apply, restrict, table_counts};
use crate::error::{Result, StoreError};

/// The steps of [`encrypt_in_place`] and [`reformat_in_place`], for the test that stops them
/// after each one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Step {
    /// The original file was checkpointed and left its write-ahead log.
    Checkpointed,
    /// The encrypted copy was written beside it.
    Exported,
    /// The copy passed the integrity check and has every row.
    Verified,
    /// The copy is on disk (fsync).
    Synced,
    /// The copy replaced the original file (rename), the folder entry is on disk.
    Swapped,
}

/// The encrypted copy's name while it is being made: `<db>.encrypting`.
pub(crate) fn work_path(path: &Path) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(".encrypting");
    PathBuf::from(name)
}

/// Turn the clear database at `path` into one encrypted with `key`, so that a crash at any
/// point leaves one complete database that opens: an encrypted copy is written beside it,
/// checked (integrity check, the row count of every table), synced, and renamed over the clear
/// file in one step. Before the rename the clear file is untouched (a leftover copy is removed
/// at the next try); after it, the encrypted one is in place. The caller holds the open lock.
pub(crate) fn encrypt_in_place(path: &Path, key: &DbKey, stop_after: Option<Step>) -> Result<()> {
    rewrite_in_place(path, key, Source::Clear, stop_after)
}

/// Move the encrypted database at `path` from an earlier page format to [`Format::Standard`],
/// the same crash-safe way as [`encrypt_in_place`] (same key; a file already standard is left
/// alone). The caller holds the open lock and knows no other process has the file open.
pub(crate) fn reformat_in_place(path: &Path, key: &DbKey, stop_after: Option<Step>) -> Result<()> {
    rewrite_in_place(path, key, Source::Earlier, stop_after)
}

/// What [`rewrite_in_place`] copies from.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Source {
    Clear,
    Earlier,
}

fn rewrite_in_place(
    path: &Path,
    key: &DbKey,
    source: Source,
    stop_after: Option<Step>,
) -> Result<()> {
    let Some(text) = key.pragma_text() else { return Ok(()) };
    let stop = |step: Step| -> Result<()> {
        if stop_after == Some(step) {
            return Err(StoreError::invalid(format!("stopped after {step:?} (test)")));
        }
        Ok(())
    };
    let work = work_path(path);
    let io = |what: &str, p: &Path| {
        let context = format!("{what} {}", p.display());
        move |source| StoreError::Io { context, source }
    };
    match std::fs::remove_file(&work) {
        Ok(()) => tracing::info!(file = %work.display(), "removed an unfinished encrypted copy"),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
        Err(e) => return Err(io("cannot remove the unfinished copy", &work)(e)),
    }

    let original = crate::sqlite_ready::open(path)?;
    if source == Source::Earlier && apply(&original, key, path)? == Format::Standard {
        return Ok(());
    }
    original.busy_timeout(std::time::Duration::from_secs(15))?;
    // Leave WAL mode: the log is folded into the file and removed, so the file alone is the
    // database (the encrypted copy gets WAL back when it is configured).
    let _: String = original.query_row("PRAGMA journal_mode = DELETE", [], |r| r.get(0))?;
    stop(Step::Checkpointed)?;

    // The attached copy is keyed with SQLCipher's defaults: the standard format.
    original.execute(
        "ATTACH DATABASE ?1 AS encrypted KEY ?2",
        [work.to_string_lossy().as_ref(), text.as_str()],
    )?;
    original.query_row("SELECT sqlcipher_export('encrypted')", [], |_| Ok(()))?;
    let version: i64 = original.query_row("PRAGMA main.user_version", [], |r| r.get(0))?;
    original.pragma_update(Some("encrypted"), "user_version", version)?;
    original.execute("DETACH DATABASE encrypted", [])?;
    restrict(&work);
    stop(Step::Exported)?;

    let kept = match source {
        Source::Clear => "the clear database was kept as it is",
        Source::Earlier => "the database was kept as it is, in its earlier format",
    };
    let counts = table_counts(&original)?;
    {
        let copy = crate::sqlite_ready::open(&work)?;
        if apply(&copy, key, &work)? != Format::Standard {
            return Err(StoreError::invalid(format!(
                "the encrypted copy {} was not written in SQLCipher's standard page format; {kept}",
                work.display()
            )));
        }
        let problems = crate::integrity::full_check(&copy)?;
        if !problems.is_empty() {
            return Err(StoreError::invalid(format!(
                "the encrypted copy {} failed its integrity check ({}); {kept}",
                work.display(),
                problems.join("; ")
            )));
        }
        let copied = table_counts(&copy)?;
        if copied != counts {
            return Err(StoreError::invalid(format!(
                "the encrypted copy {} does not hold every row ({copied:?} against \
                 {counts:?}); {kept}",
                work.display()
            )));
        }
    }
    drop(original);
    stop(Step::Verified)?;

    std::fs::File::open(&work).and_then(|f| f.sync_all()).map_err(io("cannot sync", &work))?;
    stop(Step::Synced)?;

    std::fs::rename(&work, path).map_err(io("cannot move the encrypted copy over", path))?;
    sync_dir(path);
    stop(Step::Swapped)?;
    match source {
        Source::Clear => tracing::info!(file = %path.display(), "the clear database was encrypted"),
        Source::Earlier => {
            tracing::info!(file = %path.display(), "the database was moved to the standard page format")
        }
    }
    Ok(())
}

/// Make the folder entry of a rename durable (best effort: not every OS can open a folder).
fn sync_dir(path: &Path) {
    if let Some(dir) = path.parent()
        && let Ok(d) = std::fs::File::open(dir)
    {
        let _ = d.sync_all();
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::crypt::is_clear_file;

    pub(crate) fn clear_db(path: &Path) {
        let conn = crate::sqlite_ready::open(path).unwrap();
        conn.execute_batch(
            "PRAGMA journal_mode = WAL;
             CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT NOT NULL);
             CREATE TABLE tags (note INTEGER, tag TEXT);
             PRAGMA user_version = 6;",
        )
        .unwrap();
        for n in 0..300 {
            conn.execute("INSERT INTO notes (text) VALUES (?1)", [format!("秘密 {n}")]).unwrap();
            conn.execute("INSERT INTO tags VALUES (?1, 'x')", [n]).unwrap();
        }
    }

    fn rows(path: &Path, key: &DbKey) -> (i64, Vec<String>) {
        let conn = crate::sqlite_ready::open(path).unwrap();
        apply(&conn, key, path).unwrap();
        let version = conn.query_row("PRAGMA user_version", [], |r| r.get(0)).unwrap();
        let texts = conn
            .prepare("SELECT text FROM notes ORDER BY id")
            .unwrap()
            .query_map([], |r| r.get(0))
            .unwrap()
            .collect::<rusqlite::Result<Vec<String>>>()
            .unwrap();
        (version, texts)
    }

    fn key() -> DbKey {
        DbKey::from_hex(&"ab".repeat(32)).unwrap()
    }

    #[test]
    fn stopped_after_any_step_the_next_try_ends_with_one_complete_encrypted_database() {
        let expected: Vec<String> = (0..300).map(|n| format!("秘密 {n}")).collect();
        for step in
            [Step::Checkpointed, Step::Exported, Step::Verified, Step::Synced, Step::Swapped]
        {
            let dir = tempfile::tempdir().unwrap();
            let path = dir.path().join("vibe.db");
            clear_db(&path);
            let err = encrypt_in_place(&path, &key(), Some(step)).unwrap_err();
            assert!(err.to_string().contains("stopped after"), "{err}");
            // What a crash leaves: one database that opens with everything in it, either
            // still clear (before the swap) or already encrypted (after it).
            let now_key = if step == Step::Swapped { key() } else { DbKey::Clear };
            assert_eq!(is_clear_file(&path), step != Step::Swapped, "{step:?}");
            assert_eq!(rows(&path, &now_key), (6, expected.clone()), "{step:?}");
            // The next open finishes the job.
            if is_clear_file(&path) {
                encrypt_in_place(&path, &key(), None).unwrap();
            }
            assert!(!is_clear_file(&path), "{step:?}");
            assert!(!work_path(&path).exists(), "{step:?}: no copy left behind");
            assert_eq!(rows(&path, &key()), (6, expected.clone()), "{step:?}");
            let bytes = std::fs::read(&path).unwrap();
            assert!(!bytes.windows("秘密".len()).any(|w| w == "秘密".as_bytes()), "{step:?}");
        }
    }

    #[test]
    fn a_move_from_either_earlier_format_stopped_after_any_step_leaves_one_whole_database() {
        let expected: Vec<String> = (0..300).map(|n| format!("秘密 {n}")).collect();
        let steps =
            [Step::Checkpointed, Step::Exported, Step::Verified, Step::Synced, Step::Swapped];
        for earlier in Format::EARLIER {
            for step in steps {
                let dir = tempfile::tempdir().unwrap();
                let path = dir.path().join("vibe.db");
                // A file in the earlier format: the clear rows exported into it.
                let clear = dir.path().join("clear.db");
                clear_db(&clear);
                {
                    let conn = crate::sqlite_ready::open(&path).unwrap();
                    conn.pragma_update(None, "key", key().pragma_text().unwrap().as_str()).unwrap();
                    earlier.set_on(&conn).unwrap();
                    conn.execute("ATTACH DATABASE ?1 AS c KEY ''", [clear.to_str().unwrap()])
                        .unwrap();
                    conn.query_row("SELECT sqlcipher_export('main', 'c')", [], |_| Ok(())).unwrap();
                    conn.pragma_update(None, "user_version", 6).unwrap();
                }
                let format =
                    |p: &Path| apply(&crate::sqlite_ready::open(p).unwrap(), &key(), p).unwrap();
                assert_eq!(format(&path), earlier);
                let err = reformat_in_place(&path, &key(), Some(step)).unwrap_err();
                assert!(err.to_string().contains("stopped after"), "{err}");
                // What a crash leaves: one database with every row, in one format or the other.
                let now = if step == Step::Swapped { Format::Standard } else { earlier };
                assert_eq!(format(&path), now, "{earlier:?} {step:?}");
                assert_eq!(rows(&path, &key()), (6, expected.clone()), "{earlier:?} {step:?}");
                // The next open finishes the job.
                reformat_in_place(&path, &key(), None).unwrap();
                assert_eq!(format(&path), Format::Standard, "{earlier:?} {step:?}");
                assert!(!work_path(&path).exists(), "{earlier:?} {step:?}: a copy left behind");
                assert_eq!(rows(&path, &key()), (6, expected.clone()), "{earlier:?} {step:?}");
            }
        }
    }
}
