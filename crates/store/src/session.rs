//! Whether the last use of a database file ended cleanly (docs/performance.md#integrity-at-open),
//! so the cheap integrity check at open runs only when it may find something: every open
//! [`Store`](crate::Store) holds a shared lock on `<db>.inuse`, and `<db>.dirty` exists while any
//! is open. A process that opens the file alone (nobody holds the lock) and finds the marker
//! knows the last session ended without closing (a crash, a kill, a power loss). The last
//! session to close removes the marker. Both ends run under the exclusive open lock (`lib`), so
//! an open and a close never interleave. It must not judge the file (`integrity` does), and a
//! folder where the files cannot be made (read-only) only means no check is asked for.

use std::fs::{File, OpenOptions};
use std::path::{Path, PathBuf};

/// This process's hold on a database file; dropping it closes the session.
pub(crate) struct Session {
    inuse: Option<File>,
    db: PathBuf,
    /// Damage was found: leave the marker at close, so the next open runs the quick check.
    keep: std::sync::atomic::AtomicBool,
    /// The marker was there before this session began (an unclean end, or another session).
    marked_before: bool,
}

/// Make (or keep) `path`, owner-only (0600): the marker and lock files beside the database.
fn private_file(path: &Path) -> std::io::Result<File> {
    let mut options = OpenOptions::new();
    options.create(true).truncate(false).write(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    let file = options.open(path)?;
    // One made by an earlier version may be 0644.
    crate::crypt::restrict(path);
    Ok(file)
}

fn sibling(db: &Path, suffix: &str) -> PathBuf {
    let mut name = db.file_name().map(|n| n.to_os_string()).unwrap_or_default();
    name.push(suffix);
    db.with_file_name(name)
}

/// What [`begin`] found.
pub(crate) struct Begun {
    /// The session (none where the lock file cannot be made).
    pub session: Option<Session>,
    /// The last session ended without closing.
    pub unclean: bool,
    /// No other process has the file open (false when it cannot be told).
    pub alone: bool,
}

/// Begin a session on `db` (call it holding the open lock).
pub(crate) fn begin(db: &Path) -> Begun {
    let inuse = match private_file(&sibling(db, ".inuse")) {
        Ok(file) => file,
        Err(e) => {
            tracing::debug!(path = %db.display(), "no session marker (cannot make the lock file): {e}");
            return Begun { session: None, unclean: false, alone: false };
        }
    };
    let dirty = sibling(db, ".dirty");
    let alone = inuse.try_lock().is_ok();
    let marked_before = dirty.exists();
    let unclean = alone && marked_before;
    if let Err(e) = private_file(&dirty) {
        tracing::debug!(path = %dirty.display(), "cannot write the session marker: {e}");
    }
    if alone {
        let _ = inuse.unlock();
    }
    if let Err(e) = inuse.lock_shared() {
        tracing::debug!(path = %db.display(), "cannot hold the session lock: {e}");
    }
    let session =
        Session { inuse: Some(inuse), db: db.to_path_buf(), keep: false.into(), marked_before };
    Begun { session: Some(session), unclean, alone }
}

impl Session {
    /// Close without removing the marker: the file is damaged, the next open must check it.
    pub(crate) fn keep_marker(&self) {
        self.keep.store(true, std::sync::atomic::Ordering::Relaxed);
    }

    /// Give up the session after a failed open (a wrong key, a refused file): a marker that was
    /// there before stays (the next open looks again); one this session made goes, as nothing
    /// was opened. Called holding the open lock.
    pub(crate) fn abandon(mut self) {
        let Some(inuse) = self.inuse.take() else { return };
        let _ = inuse.unlock();
        if !self.marked_before && inuse.try_lock().is_ok() {
            remove_marker(&self.db);
        }
        // Closing the file releases its lock.
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        let Some(inuse) = self.inuse.take() else { return };
        let _open = crate::open_lock(&self.db);
        let _ = inuse.unlock();
        // The last session out says the file was closed cleanly.
        let keep = self.keep.load(std::sync::atomic::Ordering::Relaxed);
        if !keep && inuse.try_lock().is_ok() {
            remove_marker(&self.db);
            let _ = inuse.unlock();
        }
    }
}

fn remove_marker(db: &Path) {
    let dirty = sibling(db, ".dirty");
    if let Err(e) = std::fs::remove_file(&dirty)
        && e.kind() != std::io::ErrorKind::NotFound
    {
        tracing::warn!(path = %dirty.display(), "cannot remove the session marker: {e}");
    }
}
