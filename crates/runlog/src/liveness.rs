//! Telling a live run from one a killed process left behind: a run's open audit log
//! ([`RunAudit`](super::RunAudit)) holds an OS file lock on `runs/<id>/events.jsonl` for the
//! run's whole life. When the lock can be taken, nobody holds it, so the run's process is gone
//! and crash recovery may close the run. Works across processes (app + CLI) without pids, and
//! costs no file of its own.

use std::fs::OpenOptions;
use std::path::Path;

use super::EVENTS_FILE;

/// The lock file of runs written by earlier versions, which locked a file of its own.
const LEGACY_LOCK_FILE: &str = ".lock";

/// Whether the run whose folder is `run_dir` is dead (its lock is free, or it never had a
/// folder, e.g. an in-memory run of a process that is gone).
pub fn is_dead(run_dir: &Path) -> bool {
    let legacy = run_dir.join(LEGACY_LOCK_FILE);
    let path = if legacy.exists() { legacy } else { run_dir.join(EVENTS_FILE) };
    let Ok(file) = OpenOptions::new().write(true).open(path) else {
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
    use crate::RunAudit;

    #[test]
    fn an_open_audit_log_means_alive_and_a_closed_one_dead() {
        let dir = tempfile::tempdir().unwrap();
        let run = dir.path().join("runs").join("r1");
        let audit = RunAudit::create(dir.path(), "r1").unwrap();
        assert!(!is_dead(&run));
        let err = RunAudit::create(dir.path(), "r1").err().unwrap();
        assert!(err.to_string().contains("still running in another process"), "{err}");
        drop(audit);
        assert!(is_dead(&run));
        assert!(is_dead(&dir.path().join("never-existed")));
    }

    #[test]
    fn a_run_of_an_earlier_version_is_judged_by_its_own_lock_file() {
        let dir = tempfile::tempdir().unwrap();
        let run = dir.path().join("old");
        std::fs::create_dir_all(&run).unwrap();
        std::fs::write(run.join(EVENTS_FILE), "").unwrap();
        let lock = std::fs::File::create(run.join(LEGACY_LOCK_FILE)).unwrap();
        lock.lock().unwrap();
        assert!(!is_dead(&run));
        drop(lock);
        assert!(is_dead(&run));
    }
}
