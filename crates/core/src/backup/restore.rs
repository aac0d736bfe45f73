//! Putting a checked backup in place of a data folder's database and run folders, crash-safe:
//! the backup is read into `restore.staging/` beside the data and checked; only then is
//! `restore.staging/READY` written, and from that point the swap only ever rolls forward —
//! each step (runs folder, database file) is one rename that the next open repeats if a crash
//! stopped it ([`finish_restore`]). A staging folder without `READY` is an unfinished read and
//! is removed. `restore.lock` is held throughout, so an open elsewhere never meddles; it is
//! removed (still held) when the restore ends, whether it finished or was refused, and a
//! process that locked the file just removed tries again on the new one.

use std::fs::File;
use std::path::{Path, PathBuf};

use super::{BackupError, DB_ENTRY, private_dir};
use vibe_runlog::RUNS_DIR;

/// The folder a backup is read into before it is swapped in.
pub const STAGING_DIR: &str = "restore.staging";
const READY: &str = "READY";
const LOCK: &str = "restore.lock";

/// The staging folder of the data folder `data_dir`.
pub fn staging_dir(data_dir: &Path) -> PathBuf {
    data_dir.join(STAGING_DIR)
}

/// `restore.lock`, held; removed (while still held) when dropped, so nothing of a restore
/// stays in the data folder.
pub struct RestoreLock {
    path: PathBuf,
    _file: File,
}

impl Drop for RestoreLock {
    fn drop(&mut self) {
        // Windows refuses to remove a file that is open; the empty file stays there.
        #[cfg(unix)]
        if let Err(e) = std::fs::remove_file(&self.path) {
            tracing::debug!(path = %self.path.display(), "cannot remove the restore lock: {e}");
        }
    }
}

/// Hold `restore.lock` (blocking): one restore at a time, and no open finishes or removes a
/// staging folder that a restore is still writing.
pub fn lock(data_dir: &Path) -> Result<RestoreLock, BackupError> {
    let path = data_dir.join(LOCK);
    loop {
        let file = lock_file(&path)?;
        file.lock().map_err(BackupError::io("lock", &path))?;
        if still_named(&file, &path) {
            return Ok(RestoreLock { path, _file: file });
        }
    }
}

/// [`lock`] without waiting: `None` while another process holds it (or it cannot be made).
fn try_lock(data_dir: &Path) -> Option<RestoreLock> {
    let path = data_dir.join(LOCK);
    loop {
        let file = lock_file(&path).ok()?;
        file.try_lock().ok()?;
        if still_named(&file, &path) {
            return Some(RestoreLock { path, _file: file });
        }
    }
}

/// Whether the locked `file` is still the one named `path` (its holder may have removed it
/// while this process waited: that lock protects nothing any more).
fn still_named(file: &File, path: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        match (file.metadata(), std::fs::metadata(path)) {
            (Ok(held), Ok(named)) => held.dev() == named.dev() && held.ino() == named.ino(),
            _ => false,
        }
    }
    #[cfg(not(unix))]
    {
        let _ = (file, path);
        true
    }
}

fn lock_file(path: &Path) -> Result<File, BackupError> {
    let mut options = std::fs::OpenOptions::new();
    options.create(true).truncate(false).write(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    options.open(path).map_err(BackupError::io("open", path))
}

/// Swap the checked backup in `staging` into the data folder: mark it `READY` (after syncing
/// it), then roll forward. The caller holds [`lock`] and the database exclusively, and has
/// closed every store of it.
pub fn swap_in(data_dir: &Path, staging: &Path) -> Result<(), BackupError> {
    private_dir(&staging.join(RUNS_DIR))?;
    let db = staging.join(DB_ENTRY);
    File::open(&db).and_then(|f| f.sync_all()).map_err(BackupError::io("sync", &db))?;
    let ready = staging.join(READY);
    File::create(&ready).and_then(|f| f.sync_all()).map_err(BackupError::io("write", &ready))?;
    sync_dir(&ready);
    roll_forward(data_dir, staging)
}

/// Finish a restore a crash interrupted (its staging folder is `READY`), or remove the staging
/// folder of one that never got that far. Nothing to do, and nothing done, while a restore is
/// running (it holds the lock) or another process has the database open. Problems are logged:
/// opening goes on with what is in place, which is always whole.
pub fn finish_restore(data_dir: &Path) {
    let staging = staging_dir(data_dir);
    if !staging.exists() {
        return;
    }
    let Some(_lock) = try_lock(data_dir) else { return };
    let result = if staging.join(READY).exists() {
        match vibe_store::hold_exclusive(&data_dir.join(DB_ENTRY)) {
            Ok(_held) => {
                tracing::info!(dir = %staging.display(), "finishing an interrupted restore");
                roll_forward(data_dir, &staging)
            }
            Err(e) => {
                tracing::warn!("an interrupted restore waits for the database to be free: {e}");
                return;
            }
        }
    } else {
        std::fs::remove_dir_all(&staging).map_err(BackupError::io("remove", &staging))
    };
    if let Err(e) = result {
        tracing::warn!("cannot finish the restore in {}: {e}", staging.display());
    }
}

/// The swap's steps, each skipped once done: the runs folder, then the database file, then the
/// staging folder (with the replaced runs) goes.
fn roll_forward(data_dir: &Path, staging: &Path) -> Result<(), BackupError> {
    let rename = |from: &Path, to: &Path| {
        std::fs::rename(from, to).map_err(BackupError::io("move into place", from))
    };
    let new_runs = staging.join(RUNS_DIR);
    if new_runs.exists() {
        let runs = data_dir.join(RUNS_DIR);
        let old_runs = staging.join("runs.old");
        if runs.exists() {
            if old_runs.exists() {
                // Made after the replaced folder was moved aside: not part of either state.
                std::fs::remove_dir_all(&runs).map_err(BackupError::io("remove", &runs))?;
            } else {
                rename(&runs, &old_runs)?;
            }
        }
        rename(&new_runs, &runs)?;
    }
    let new_db = staging.join(DB_ENTRY);
    if new_db.exists() {
        let db = data_dir.join(DB_ENTRY);
        for suffix in ["-wal", "-shm"] {
            let side = PathBuf::from(format!("{}{suffix}", db.display()));
            match std::fs::remove_file(&side) {
                Ok(()) => {}
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
                Err(e) => return Err(BackupError::Io { what: "remove", path: side, err: e }),
            }
        }
        rename(&new_db, &db)?;
    }
    sync_dir(&data_dir.join(DB_ENTRY));
    std::fs::remove_dir_all(staging).map_err(BackupError::io("remove", staging))
}

/// Make a rename in the folder of `path` durable (best effort).
fn sync_dir(path: &Path) {
    if let Some(dir) = path.parent()
        && let Ok(d) = File::open(dir)
    {
        let _ = d.sync_all();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(path: &Path, text: &str) {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }

    fn read(path: &Path) -> String {
        std::fs::read_to_string(path).unwrap()
    }

    /// A data folder with old data and a READY staging folder holding new data.
    fn ready(dir: &Path) -> PathBuf {
        let paths = dir.to_path_buf();
        write(&dir.join("vibe.db"), "old db");
        write(&dir.join("runs/a/events.jsonl"), "old run");
        let staging = staging_dir(&paths);
        write(&staging.join("vibe.db"), "new db");
        write(&staging.join("runs/b/events.jsonl"), "new run");
        write(&staging.join(READY), "");
        paths
    }

    fn restored(dir: &Path) {
        assert_eq!(read(&dir.join("vibe.db")), "new db");
        assert_eq!(read(&dir.join("runs/b/events.jsonl")), "new run");
        assert!(!dir.join("runs/a").exists());
        assert!(!dir.join(STAGING_DIR).exists());
    }

    #[test]
    fn a_swap_stopped_after_any_step_is_finished_by_the_next_open() {
        // Stopped after: nothing, the old runs moved aside, the new runs moved in, the database.
        for stop in 0..4 {
            let dir = tempfile::tempdir().unwrap();
            let d = dir.path();
            let paths = ready(d);
            let staging = staging_dir(&paths);
            if stop >= 1 {
                std::fs::rename(d.join("runs"), staging.join("runs.old")).unwrap();
            }
            if stop >= 2 {
                std::fs::rename(staging.join("runs"), d.join("runs")).unwrap();
            }
            if stop >= 3 {
                std::fs::rename(staging.join("vibe.db"), d.join("vibe.db")).unwrap();
            }
            finish_restore(&paths);
            restored(d);
        }
    }

    #[test]
    fn a_staging_folder_that_was_never_ready_is_removed_and_the_data_stays() {
        let dir = tempfile::tempdir().unwrap();
        let paths = ready(dir.path());
        std::fs::remove_file(staging_dir(&paths).join(READY)).unwrap();
        finish_restore(&paths);
        assert_eq!(read(&dir.path().join("vibe.db")), "old db");
        assert_eq!(read(&dir.path().join("runs/a/events.jsonl")), "old run");
        assert!(!staging_dir(&paths).exists());
    }
}
