//! Telling a live run from one a killed process left behind: each run holds an OS file lock
//! on `runs/<id>/.lock` for its whole life. When the lock can be taken, nobody holds it, so
//! the run's process is gone and crash recovery may close the run. Works across processes
//! (app + CLI) without pids.

use std::fs::{File, OpenOptions};
use std::path::Path;

const LOCK_FILE: &str = ".lock";

/// The held lock of a live run; released when dropped (or when the process dies).
pub struct RunLock {
    _file: File,
}

impl RunLock {
    /// Take the lock of the run whose folder is `run_dir`.
    pub fn acquire(run_dir: &Path) -> std::io::Result<Self> {
        std::fs::create_dir_all(run_dir)?;
        let file = OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(run_dir.join(LOCK_FILE))?;
        file.lock()?;
        Ok(Self { _file: file })
    }
}

/// Whether the run whose folder is `run_dir` is dead (its lock is free, or it never had a
/// folder, e.g. an in-memory run of a process that is gone).
pub fn is_dead(run_dir: &Path) -> bool {
    let Ok(file) = OpenOptions::new().write(true).open(run_dir.join(LOCK_FILE)) else {
        return true;
    };
    match file.try_lock() {
        Ok(()) => {
            let _ = file.unlock();
            true
        }
        Err(_) => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_held_lock_means_alive_and_a_released_one_dead() {
        let dir = tempfile::tempdir().unwrap();
        let run = dir.path().join("r1");
        let lock = RunLock::acquire(&run).unwrap();
        assert!(!is_dead(&run));
        drop(lock);
        assert!(is_dead(&run));
        assert!(is_dead(&dir.path().join("never-existed")));
    }
}
