//! Hot reload: a `notify` watcher on every existing root. Changes (not mere reads: opening a
//! file is an event too on Linux, and the registry's own reads must not wake it) are gathered
//! until the roots are quiet for [`DEBOUNCE`], then each batch of changed paths triggers a
//! targeted rescan (`refresh`). The watcher holds only a weak handle, so dropping the last
//! `Registry` stops it.

use std::collections::BTreeSet;
use std::path::PathBuf;
use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::{Arc, PoisonError, Weak};
use std::time::{Duration, Instant};

use notify::{Event, EventKind, RecursiveMode, Watcher};

use crate::error::SkillsError;
use crate::registry::{Inner, Registry};
use crate::roots::RootKind;

/// Quiet time before a burst of file events is handled (well under the 1 s promise).
pub const DEBOUNCE: Duration = Duration::from_millis(200);
/// A file written to without pause is still picked up this long after its first change.
const MAX_DELAY: Duration = Duration::from_millis(800);

/// What the watcher thread hears.
enum Heard {
    /// Paths that changed.
    Changed(Vec<PathBuf>),
    /// Events were lost (the watcher failed or the OS queue overflowed): check everything.
    Lost(Option<notify::Error>),
}

/// Whether an event reports a change (reads and opens do not).
fn is_change(event: &Event) -> bool {
    !matches!(event.kind, EventKind::Access(_))
}

impl Registry {
    /// Watch all roots for changes (creating the user root if it is missing); changes are
    /// applied within about a second and sent to [`Registry::subscribe`]rs. Idempotent.
    /// Roots that do not exist (other than the user root) are not watched.
    pub fn watch(&self) -> Result<(), SkillsError> {
        let mut slot = self.inner.watcher.lock().unwrap_or_else(PoisonError::into_inner);
        if slot.is_some() {
            return Ok(());
        }
        let (tx, rx) = mpsc::channel::<Heard>();
        let mut watcher = notify::recommended_watcher(move |result: notify::Result<Event>| {
            let heard = match result {
                Ok(event) if event.need_rescan() || event.paths.is_empty() => Heard::Lost(None),
                Ok(event) if is_change(&event) => Heard::Changed(event.paths),
                Ok(_) => return,
                Err(e) => Heard::Lost(Some(e)),
            };
            // The receiving thread is gone only when the registry is.
            let _ = tx.send(heard);
        })
        .map_err(|source| SkillsError::Watch { path: PathBuf::new(), source })?;
        for root in self.roots() {
            if root.kind == RootKind::User && !root.path.exists() {
                std::fs::create_dir_all(&root.path).map_err(|e| SkillsError::io(&root.path, e))?;
            }
            if root.path.is_dir() {
                watcher
                    .watch(&root.path, RecursiveMode::Recursive)
                    .map_err(|source| SkillsError::Watch { path: root.path.clone(), source })?;
            }
        }
        let weak = Arc::downgrade(&self.inner);
        std::thread::Builder::new()
            .name("skills-watch".into())
            .spawn(move || debounce(&rx, &weak))
            .map_err(|e| SkillsError::io(&PathBuf::from("skills-watch thread"), e))?;
        *slot = Some(watcher);
        drop(slot);
        // From here on the watcher reports every change: caches may be served without
        // checking the disk. Catch anything that changed between opening and watching.
        self.inner.trusted.store(true, std::sync::atomic::Ordering::Release);
        self.refresh();
        Ok(())
    }
}

/// Gather changed paths until the roots are quiet for [`DEBOUNCE`] (or [`MAX_DELAY`] passed
/// since the first change), then rescan; ends when the watcher (and so the registry) is
/// dropped.
fn debounce(rx: &mpsc::Receiver<Heard>, weak: &Weak<Inner>) {
    let mut pending: BTreeSet<PathBuf> = BTreeSet::new();
    let mut failed = false;
    let mut since = Instant::now();
    loop {
        let heard = if pending.is_empty() && !failed {
            let first = rx.recv().map_err(|_| RecvTimeoutError::Disconnected);
            since = Instant::now();
            first
        } else {
            let left = MAX_DELAY.saturating_sub(since.elapsed());
            if left.is_zero() {
                Err(RecvTimeoutError::Timeout)
            } else {
                rx.recv_timeout(DEBOUNCE.min(left))
            }
        };
        match heard {
            Ok(Heard::Changed(paths)) => pending.extend(paths),
            Ok(Heard::Lost(error)) => {
                match error {
                    Some(e) => tracing::warn!(error = %e, "skill file watcher error"),
                    None => tracing::info!("skill file events were lost; rescanning everything"),
                }
                failed = true;
            }
            Err(RecvTimeoutError::Timeout) => {
                let Some(inner) = weak.upgrade() else { return };
                if failed {
                    // Events may have been lost: check everything against the disk again.
                    inner.refresh_paths(None);
                } else {
                    let paths: Vec<PathBuf> = std::mem::take(&mut pending).into_iter().collect();
                    inner.refresh_paths(Some(&paths));
                }
                pending.clear();
                failed = false;
            }
            Err(RecvTimeoutError::Disconnected) => return,
        }
    }
}
