//! Saving prompt states off the engine's worker (docs/local-model.md#saved-states): the worker
//! only copies a conversation's KV state out of llama.cpp and hands it here; one thread of the
//! process seals and writes it ([`SavedStates::save`]), so the next request never waits behind
//! a 100 MB write. Only the newest state of each conversation waits: a newer one replaces it.
//! A request that wants a state still waiting (or being written) takes it from here, not from
//! the older file; deleting a conversation's state drops its waiting one and waits out one
//! being written, so no state outlives its deletion; [`flush`] waits until every answer that
//! may still hand one over is done and everything handed over is on disk (the core's `App`
//! calls it when it is closed or dropped). This module never touches llama.cpp and knows nothing
//! of what a state holds.

use std::collections::VecDeque;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, OnceLock, PoisonError};
use std::time::{Duration, Instant};

use crate::saved_state::{STATES_DIR, SavedState, SavedStates, state_file};

/// How long [`flush`] waits at most for answers still running to hand their state over; an
/// answer whose reader has gone stops within one token, so this is only for answers still read.
const BUSY_GRACE: Duration = Duration::from_secs(2);

/// A state handed over, for conversation `key` by model `model_id`.
#[derive(Clone)]
struct Entry {
    /// The file it goes to (`state_file` of the folder and the conversation).
    path: PathBuf,
    states: SavedStates,
    key: String,
    model_id: String,
    saved: Arc<SavedState>,
}

#[derive(Default)]
struct Queue {
    /// Oldest first; at most one per file.
    waiting: VecDeque<Entry>,
    /// The one the thread is writing now.
    writing: Option<Entry>,
    /// Answers running that may still hand a state over ([`Busy`]).
    busy: usize,
    /// The thread has been started.
    started: bool,
}

struct Saver {
    queue: Mutex<Queue>,
    changed: Condvar,
}

fn saver() -> &'static Saver {
    static SAVER: OnceLock<Saver> = OnceLock::new();
    SAVER.get_or_init(|| Saver { queue: Mutex::new(Queue::default()), changed: Condvar::new() })
}

fn lock(saver: &Saver) -> MutexGuard<'_, Queue> {
    // The queue holds no half-made state a panic could leave behind: use it as it is.
    saver.queue.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Hand `saved` over to be written as conversation `key`'s state (replacing one of that
/// conversation still waiting). Written on the saver thread; its failures are logged there.
pub(crate) fn save(states: &SavedStates, key: &str, model_id: &str, saved: SavedState) {
    let saver = saver();
    let path = state_file(states.dir(), key);
    let entry = Entry {
        path: path.clone(),
        states: states.clone(),
        key: key.to_string(),
        model_id: model_id.to_string(),
        saved: Arc::new(saved),
    };
    let mut queue = lock(saver);
    match queue.waiting.iter_mut().find(|e| e.path == entry.path) {
        Some(older) => *older = entry,
        None => queue.waiting.push_back(entry),
    }
    if !queue.started {
        match std::thread::Builder::new().name("kv-state-saver".into()).spawn(run) {
            Ok(_) => queue.started = true,
            Err(e) => {
                // No thread: write here, as before there was one.
                tracing::warn!("cannot start the prompt state saver ({e}); saving in place");
                let at = queue.waiting.iter().position(|e| e.path == path);
                let entry = at.and_then(|at| queue.waiting.remove(at));
                drop(queue);
                if let Some(entry) = entry {
                    write(&entry);
                }
                return;
            }
        }
    }
    saver.changed.notify_all();
}

/// Conversation `key`'s state still waiting or being written, when it is by `model_id` into
/// `states`: newer than its file.
pub(crate) fn unwritten(
    states: &SavedStates,
    key: &str,
    model_id: &str,
) -> Option<Arc<SavedState>> {
    lock(saver()).find(&state_file(states.dir(), key), states, model_id)
}

impl Queue {
    /// The state for `path` waiting or being written (the waiting one is newer), when it is by
    /// `model_id` into `states`.
    fn find(&self, path: &Path, states: &SavedStates, model_id: &str) -> Option<Arc<SavedState>> {
        self.waiting
            .iter()
            .chain(self.writing.as_ref())
            .find(|e| e.path == path)
            .filter(|e| e.model_id == model_id && e.states == *states)
            .map(|e| e.saved.clone())
    }
}

/// Drop the state waiting for `path`, wait out its writing, then run `remove` (the file's
/// deletion) before any other state of it can be written.
fn forget<T>(path: &Path, remove: impl FnOnce() -> T) -> T {
    let saver = saver();
    let mut queue = lock(saver);
    queue.waiting.retain(|e| e.path != path);
    while queue.writing.as_ref().is_some_and(|e| e.path == path) {
        queue = saver.changed.wait(queue).unwrap_or_else(PoisonError::into_inner);
    }
    remove()
}

/// Delete conversation `key`'s saved state in the data folder `data_dir`, if there is one; a
/// state of it still waiting to be written is dropped first.
pub fn delete_saved_state(data_dir: &Path, key: &str) -> std::io::Result<()> {
    let path = state_file(&data_dir.join(STATES_DIR), key);
    forget(&path, || match std::fs::remove_file(&path) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
        other => other,
    })
}

/// An answer that may hand a state over: [`flush`] waits for it (briefly) while it lives.
pub(crate) struct Busy(());

impl Busy {
    pub(crate) fn start() -> Self {
        lock(saver()).busy += 1;
        Busy(())
    }
}

impl Drop for Busy {
    fn drop(&mut self) {
        let saver = saver();
        let mut queue = lock(saver);
        queue.busy = queue.busy.saturating_sub(1);
        drop(queue);
        saver.changed.notify_all();
    }
}

/// Wait until answers still running have handed their states over (at most a short grace)
/// and every state handed over is written, or `timeout` passes; whether all were written.
pub fn flush(timeout: Duration) -> bool {
    let saver = saver();
    let deadline = Instant::now() + timeout;
    let grace = Instant::now() + BUSY_GRACE.min(timeout);
    let mut queue = lock(saver);
    loop {
        let now = Instant::now();
        let busy = queue.busy > 0 && now < grace;
        if !busy && queue.waiting.is_empty() && queue.writing.is_none() {
            return true;
        }
        if now >= deadline {
            tracing::warn!(
                waiting = queue.waiting.len() + usize::from(queue.writing.is_some()),
                "prompt states not written before the end (the next start reads the prompt in full)"
            );
            return false;
        }
        let until = if busy { grace.min(deadline) } else { deadline };
        queue = saver
            .changed
            .wait_timeout(queue, until - now)
            .unwrap_or_else(PoisonError::into_inner)
            .0;
    }
}

/// The saver thread: write the oldest waiting state, forever.
fn run() {
    yield_to_the_engine();
    let saver = saver();
    loop {
        let entry = {
            let mut queue = lock(saver);
            let entry = loop {
                if let Some(entry) = queue.waiting.pop_front() {
                    break entry;
                }
                queue = saver.changed.wait(queue).unwrap_or_else(PoisonError::into_inner);
            };
            queue.writing = Some(entry.clone());
            entry
        };
        write(&entry);
        drop(entry);
        lock(saver).writing = None;
        saver.changed.notify_all();
    }
}

/// Run this thread at a lower priority (nice 10) than the engine's: sealing 100 MB should use
/// the time a person spends reading and typing, not slow the next prefill, whose threads
/// wait for each other after every operation.
#[cfg(all(target_os = "linux", feature = "engine"))]
#[allow(unsafe_code)]
fn yield_to_the_engine() {
    // SAFETY: setpriority only reads its three integer arguments; on Linux `who` 0 with
    // PRIO_PROCESS names the calling thread (nice is per thread there).
    let done = unsafe { libc::setpriority(libc::PRIO_PROCESS, 0, 10) };
    if done != 0 {
        tracing::debug!("the prompt state saver keeps the normal priority");
    }
}

#[cfg(not(all(target_os = "linux", feature = "engine")))]
fn yield_to_the_engine() {}

fn write(entry: &Entry) {
    let saved = &entry.saved;
    match entry.states.save(&entry.key, &entry.model_id, &saved.tokens, &saved.state) {
        Ok(()) => tracing::debug!(
            tokens = saved.tokens.len(),
            bytes = saved.state.len(),
            "prompt state saved"
        ),
        Err(e) => tracing::warn!("the prompt state could not be saved: {e}"),
    }
}

#[cfg(test)]
#[path = "state_saver_tests.rs"]
mod tests;
