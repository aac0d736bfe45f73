//! Private working folders in the data folder (`.backup-*` while a backup is written,
//! `.verify-*` while one is checked). They hold copies of the run folders in clear text, so one
//! a crash left behind must not stay: each holds a locked `.lock` file while in use, and
//! [`sweep_work_dirs`] (at every open) removes those whose lock nobody holds.

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
}
