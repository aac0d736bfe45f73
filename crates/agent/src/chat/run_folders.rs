//! The chat service's run folders (`runs/<id>/`, docs/audit.md): a spare folder kept ready by a
//! background thread for long-lived hosts, a new run's folder and open audit log, recovery of
//! runs a killed process left open, and the note that a reply could not be saved. What a turn
//! does is `service.rs`'s.

use std::path::PathBuf;
use std::sync::{Arc, Mutex, PoisonError, mpsc};

use vibe_store::{Recovery, RunEnd, Store};
use vibe_wire::Event;

use super::ChatService;
use crate::CoreError;
use vibe_runlog::liveness;
use vibe_runlog::{RunAudit, RunFolders, SpareRun, sweep_spares};

/// The spare run folder kept ready by a background thread (see `audit::spare`).
pub(super) struct Spares {
    slot: Arc<Mutex<Option<SpareRun>>>,
    wake: mpsc::Sender<()>,
}

impl Drop for Spares {
    fn drop(&mut self) {
        if let Some(spare) = self.slot.lock().unwrap_or_else(PoisonError::into_inner).take() {
            spare.discard();
        }
    }
}

impl ChatService {
    /// Keep a run folder ready ahead of each turn, made by a background thread, so a turn
    /// takes it over with a rename instead of creating a folder and a file. For long-lived
    /// hosts (the desktop app, the REPL); pointless for one turn per process. Needs run
    /// folders.
    pub(super) fn prepare_runs_ahead(mut self) -> Self {
        let Some(folders) = self.runs.clone() else { return self };
        let slot: Arc<Mutex<Option<SpareRun>>> = Arc::new(Mutex::new(None));
        let (wake, woken) = mpsc::channel::<()>();
        let worker_slot = Arc::clone(&slot);
        let started = std::thread::Builder::new().name("run-folders".into()).spawn(move || {
            let lock = || worker_slot.lock().unwrap_or_else(PoisonError::into_inner);
            while woken.recv().is_ok() {
                if lock().is_some() {
                    continue;
                }
                match SpareRun::create(&folders) {
                    Ok(spare) => {
                        let mut slot = lock();
                        match slot.as_ref() {
                            None => *slot = Some(spare),
                            Some(_) => spare.discard(),
                        }
                    }
                    Err(e) => tracing::warn!(error = %e, "cannot prepare a run folder ahead"),
                }
            }
            // The service is gone: nothing will take what is left.
            if let Some(spare) = lock().take() {
                spare.discard();
            }
        });
        match started {
            Ok(_) => {
                let _ = wake.send(());
                self.spares = Some(Spares { slot, wake });
            }
            Err(e) => tracing::warn!(error = %e, "cannot start the run-folders thread"),
        }
        self
    }

    /// With run folders, the open audit log of run `run_id` (the id its caller minted): the
    /// spare folder taken over when one is ready (and the next one asked for), else a folder
    /// made now.
    pub(super) fn new_run(&self, run_id: &str) -> Result<Option<RunAudit>, CoreError> {
        let Some(folders) = &self.runs else { return Ok(None) };
        if let Some(spares) = &self.spares {
            let spare = spares.slot.lock().unwrap_or_else(PoisonError::into_inner).take();
            // The next spare is asked for once this one is moved: making it holds the spare
            // folder's directory lock (for hundreds of microseconds on a busy ext4), which the
            // move needs too.
            let taken = spare.map(|spare| spare.activate(folders, run_id));
            let _ = spares.wake.send(());
            match taken {
                Some(Ok(audit)) => return Ok(Some(audit)),
                Some(Err(e)) => tracing::warn!(error = %e, "cannot take over the spare run folder"),
                None => {}
            }
        }
        Ok(Some(folders.create(run_id)?))
    }

    pub(super) fn run_dir(&self, run_id: &str) -> Option<PathBuf> {
        self.runs.as_ref().map(|r| r.data_dir().join(vibe_runlog::RUNS_DIR).join(run_id))
    }

    /// Close runs that a killed process left `running` (their lock is free): partial answers
    /// kept and marked interrupted, dangling tool calls answered "interrupted", run failed.
    /// Spare run folders of processes that are gone are removed.
    pub fn recover(&self) -> Result<Recovery, CoreError> {
        recover_runs(&self.store, self.runs.as_ref().map(RunFolders::data_dir))
    }
}

/// Close runs that a killed process left `running` (see [`ChatService::recover`]); what a
/// host does once at start, before any turn.
pub fn recover_runs(
    store: &Store,
    data_dir: Option<&std::path::Path>,
) -> Result<Recovery, CoreError> {
    if let Some(dir) = data_dir {
        let swept = sweep_spares(dir);
        if swept > 0 {
            tracing::info!(swept, "removed spare run folders left by a process that is gone");
        }
    }
    Ok(store.close_dead_runs(&|run_id: &str| {
        let Some(dir) = data_dir.map(|d| d.join(vibe_runlog::RUNS_DIR).join(run_id)) else {
            return RunEnd::Alive;
        };
        if !liveness::is_dead(&dir) {
            RunEnd::Alive
        } else if dir.join(UNSAVED_FILE).exists() {
            RunEnd::Unsaved
        } else {
            RunEnd::Interrupted
        }
    })?)
}

/// When `err` says the database cannot be written, tell the front ends the reply shown was not
/// saved, and leave a note in the run's folder so that recovery, should closing the run fail
/// too, does not take it for a crash (docs/design.md#history).
pub(super) fn say_unsaved(
    err: &CoreError,
    note: Option<&std::path::Path>,
    emitter: &vibe_runlog::emit::Emitter,
) {
    if err.kind() != vibe_wire::ErrorKind::Storage {
        return;
    }
    if let Some(note) = note
        && let Err(e) = std::fs::write(note, err.to_string())
    {
        tracing::warn!(note = %note.display(), "cannot note the unsaved reply: {e}");
    }
    emitter.emit(Event::ReplyUnsaved {
        message: format!(
            "this reply could not be saved and will not be in the conversation: {err}"
        ),
    });
}

/// In a run's folder: the run ended because its reply could not be saved.
pub(super) const UNSAVED_FILE: &str = "unsaved";
