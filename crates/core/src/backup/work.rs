//! Private working folders in the data folder (`.backup-*` while a backup is written,
//! `.verify-*` while one is checked) and a backup file being written (`.vibelife-backup-*.partial`
//! beside its target). A crash or a kill must not leave them: each is locked while in use, and
//! [`sweep_work_dirs`] (at every open) and [`sweep_partial_backups`] (at every open for
//! `backups/`, and before each backup for its folder) remove those whose lock nobody holds.

use std::fs::File;
use std::path::Path;
use std::time::Duration;

use super::BackupError;

/// The prefixes of working folders.
pub const WORK_PREFIXES: &[&str] = &[".backup-", ".verify-"];
const LOCK: &str = ".lock";
/// A working folder without its lock file yet is left alone this long (it is being made).
const GRACE: Duration = Duration::from_secs(600);

/// A working folder in use; removed when dropped.
pub struct WorkDir {
    dir: tempfile::TempDir,
    _lock: File,
}

impl WorkDir {
    /// A new working folder `<prefix>XXXX` in `data_dir` (0700), locked.
    pub fn new(data_dir: &Path, prefix: &str) -> Result<Self, BackupError> {
        let dir = tempfile::Builder::new()
            .prefix(prefix)
            .tempdir_in(data_dir)
            .map_err(BackupError::io("make a working folder in", data_dir))?;
        let path = dir.path().join(LOCK);
        let lock = File::create(&path).map_err(BackupError::io("write", &path))?;
        lock.lock().map_err(BackupError::io("lock", &path))?;
        Ok(Self { dir, _lock: lock })
    }

    pub fn path(&self) -> &Path {
        self.dir.path()
    }
}

/// How a backup file being written is named beside its target until it is complete.
pub const PARTIAL_PREFIX: &str = ".vibelife-backup-";
pub const PARTIAL_SUFFIX: &str = ".partial";

/// Remove the backup files being written in `dir` that nobody writes any more (a killed
/// `backup create` left them): the writer holds its partial file's lock until it is done.
pub fn sweep_partial_backups(dir: &Path) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        if !name.starts_with(PARTIAL_PREFIX) || !name.ends_with(PARTIAL_SUFFIX) {
            continue;
        }
        let file = entry.path();
        let abandoned = File::open(&file).is_ok_and(|f| f.try_lock().is_ok());
        if abandoned {
            match std::fs::remove_file(&file) {
                Ok(()) => {
                    tracing::info!(file = %file.display(), "removed a backup a kill cut short")
                }
                Err(e) => {
                    tracing::warn!(file = %file.display(), "cannot remove a cut-short backup: {e}")
                }
            }
        }
    }
}

/// Remove the working folders of `data_dir` nobody uses any more (a crash left them).
pub fn sweep_work_dirs(data_dir: &Path) {
    let Ok(entries) = std::fs::read_dir(data_dir) else { return };
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        if !WORK_PREFIXES.iter().any(|p| name.starts_with(p)) || !entry.path().is_dir() {
            continue;
        }
        let dir = entry.path();
        let abandoned = match File::open(dir.join(LOCK)) {
            Ok(lock) => lock.try_lock().is_ok(),
            Err(_) => entry
                .metadata()
                .and_then(|m| m.modified())
                .ok()
                .and_then(|t| t.elapsed().ok())
                .is_some_and(|age| age > GRACE),
        };
        if abandoned {
            match std::fs::remove_dir_all(&dir) {
                Ok(()) => {
                    tracing::info!(dir = %dir.display(), "removed a working folder a crash left")
                }
                Err(e) => {
                    tracing::warn!(dir = %dir.display(), "cannot remove a stale working folder: {e}")
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_working_folder_in_use_stays_and_an_abandoned_one_goes() {
        let data = tempfile::tempdir().unwrap();
        let live = WorkDir::new(data.path(), ".backup-").unwrap();
        let crashed = data.path().join(".verify-abc");
        std::fs::create_dir(&crashed).unwrap();
        std::fs::write(crashed.join(LOCK), "").unwrap();
        std::fs::write(crashed.join("events.jsonl"), "秘密").unwrap();
        let fresh = data.path().join(".backup-new");
        std::fs::create_dir(&fresh).unwrap();
        sweep_work_dirs(data.path());
        assert!(live.path().exists(), "in use");
        assert!(!crashed.exists(), "abandoned");
        assert!(fresh.exists(), "being made: no lock file yet");
    }

    #[test]
    fn a_partial_backup_being_written_stays_and_one_a_kill_left_goes() {
        let dir = tempfile::tempdir().unwrap();
        let written = dir.path().join(".vibelife-backup-live.partial");
        let writer = File::create(&written).unwrap();
        writer.lock().unwrap();
        let killed = dir.path().join(".vibelife-backup-Xy12.partial");
        std::fs::write(&killed, "half a backup").unwrap();
        let other = dir.path().join("vibelife-20260101T000000.000Z.tar");
        std::fs::write(&other, "a backup").unwrap();
        sweep_partial_backups(dir.path());
        assert!(written.exists(), "in use");
        assert!(!killed.exists(), "abandoned");
        assert!(other.exists(), "finished backups are kept");
    }
}
