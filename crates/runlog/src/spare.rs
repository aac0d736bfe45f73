//! Run folders made ahead of time. Creating a folder and a file costs a disk far more than
//! renaming a folder (on the shared test VM, hundreds of microseconds against tens), and a
//! chat turn must not wait for it: a long-lived host (the desktop app, the `vibe chat` REPL)
//! keeps one spare folder ready under `runs/.spare/<id>/`, its `events.jsonl` already open and
//! locked, and a new run takes it over with one rename to `runs/<id>/`. Spares left by a
//! process that is gone (their lock is free) are removed by [`sweep_spares`].

use std::path::{Path, PathBuf};

use super::liveness;
use super::{RUNS_DIR, RunAudit, RunFolders, io_error};
use crate::RunLogError;

/// The folder under `runs/` that holds spare run folders.
pub const SPARE_DIR: &str = ".spare";

/// A run folder made ahead of time, its log open and locked and nothing written to it yet;
/// the run it becomes names it when it takes it over ([`SpareRun::activate`]).
pub struct SpareRun {
    /// The folder's name under `runs/.spare/` (not a run id).
    id: String,
    audit: RunAudit,
}

fn spare_root(data_dir: &Path) -> PathBuf {
    data_dir.join(RUNS_DIR).join(SPARE_DIR)
}

impl SpareRun {
    /// Make `runs/.spare/<new id>/events.jsonl`, open and locked, sealed with the folders' key
    /// when they have one.
    pub fn create(folders: &RunFolders) -> Result<SpareRun, RunLogError> {
        let id = uuid::Uuid::now_v7().to_string();
        let audit = RunAudit::open_in(
            spare_root(folders.data_dir()).join(&id),
            &id,
            folders.key().cloned(),
        )?;
        Ok(SpareRun { id, audit })
    }

    /// The folder's name under `runs/.spare/`.
    pub fn id(&self) -> &str {
        &self.id
    }

    /// Move the folder to `runs/<run_id>/` (the id the caller minted for its run) and hand
    /// over its open log, now the log of `run_id` (the lock is kept throughout: it belongs to
    /// the open file, not to its name). When the move fails (some systems refuse to rename a
    /// folder holding an open file), the spare is removed.
    pub fn activate(self, folders: &RunFolders, run_id: &str) -> Result<RunAudit, RunLogError> {
        let moved = folders.run_dir(run_id).and_then(|target| {
            std::fs::rename(self.audit.dir(), &target)
                .map(|()| target)
                .map_err(|e| io_error("move", self.audit.dir(), e))
        });
        match moved {
            Ok(target) => self.audit.moved_to(target, run_id),
            Err(e) => {
                self.discard();
                Err(e)
            }
        }
    }

    /// Remove the folder (it was not used).
    pub fn discard(self) {
        let dir = self.audit.dir().to_path_buf();
        drop(self.audit);
        if let Err(e) = std::fs::remove_dir_all(&dir) {
            tracing::debug!(dir = %dir.display(), error = %e, "cannot remove a spare run folder");
        }
    }
}

/// Remove spare run folders whose process is gone (their lock is free); returns how many.
pub fn sweep_spares(data_dir: &Path) -> usize {
    let Ok(entries) = std::fs::read_dir(spare_root(data_dir)) else { return 0 };
    let mut removed = 0;
    for entry in entries.flatten() {
        let dir = entry.path();
        if liveness::is_dead(&dir) && std::fs::remove_dir_all(&dir).is_ok() {
            removed += 1;
        }
    }
    removed
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{list_runs_on_disk, read_events};
    use vibe_wire::{Envelope, Event};

    #[test]
    fn a_spare_becomes_the_run_folder_with_its_lock_and_log() {
        let data = tempfile::tempdir().unwrap();
        let folders = RunFolders::unkeyed(data.path()).unwrap();
        let spare = SpareRun::create(&folders).unwrap();
        assert!(list_runs_on_disk(data.path()).unwrap().is_empty(), "spares are not runs");
        assert_eq!(sweep_spares(data.path()), 0, "a live spare is kept");
        let id = "0190d3c2-7a1e-7c3b-9f00-minted".to_string();
        let Ok(audit) = spare.activate(&folders, &id) else { panic!("activate") };
        assert_eq!(audit.run_id(), id);
        let dir = data.path().join(RUNS_DIR).join(&id);
        assert_eq!(audit.dir(), dir);
        assert!(!liveness::is_dead(&dir), "still locked after the move");
        audit.write(&Envelope {
            run_id: id.clone(),
            seq: 0,
            ts: "2026-01-01T00:00:00Z".into(),
            event: Event::RoundStarted { round: 1 },
        });
        drop(audit);
        assert!(liveness::is_dead(&dir));
        assert_eq!(read_events(data.path(), &id).unwrap().events.len(), 1);
        assert_eq!(list_runs_on_disk(data.path()).unwrap(), vec![id]);
    }

    #[test]
    fn spares_of_a_gone_process_are_swept_and_unused_ones_discarded() {
        let data = tempfile::tempdir().unwrap();
        // A spare whose process died: its folder remains, unlocked.
        let orphan = spare_root(data.path()).join("0190d3c2-7a1e-7c3b-9f00-1234567890ab");
        std::fs::create_dir_all(&orphan).unwrap();
        std::fs::write(orphan.join(crate::EVENTS_FILE), "").unwrap();
        let live = SpareRun::create(&RunFolders::unkeyed(data.path()).unwrap()).unwrap();
        assert_eq!(sweep_spares(data.path()), 1);
        assert!(!orphan.exists());
        let dir = spare_root(data.path()).join(live.id());
        assert!(dir.exists());
        live.discard();
        assert!(!dir.exists());
    }
}
