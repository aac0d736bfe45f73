//! Hot reload: a `notify` watcher (debounced with `notify-debouncer-mini`) on every existing
//! root; each batch of changed paths triggers a targeted rescan (`refresh`). The watcher
//! holds only a weak handle, so dropping the last `Registry` stops it.

use std::path::PathBuf;
use std::sync::{Arc, PoisonError};
use std::time::Duration;

use notify::RecursiveMode;
use notify_debouncer_mini::{DebounceEventResult, new_debouncer};

use crate::error::SkillsError;
use crate::registry::Registry;
use crate::roots::RootKind;

/// Quiet time before a burst of file events is handled (well under the 1 s promise).
pub const DEBOUNCE: Duration = Duration::from_millis(200);

impl Registry {
    /// Watch all roots for changes (creating the user root if it is missing); changes are
    /// applied within about a second and sent to [`Registry::subscribe`]rs. Idempotent.
    /// Roots that do not exist (other than the user root) are not watched.
    pub fn watch(&self) -> Result<(), SkillsError> {
        let mut slot = self.inner.watcher.lock().unwrap_or_else(PoisonError::into_inner);
        if slot.is_some() {
            return Ok(());
        }
        let weak = Arc::downgrade(&self.inner);
        let mut debouncer =
            new_debouncer(DEBOUNCE, move |result: DebounceEventResult| match result {
                Ok(events) => {
                    if let Some(inner) = weak.upgrade() {
                        let paths: Vec<PathBuf> = events.into_iter().map(|e| e.path).collect();
                        inner.refresh_paths(Some(&paths));
                    }
                }
                Err(e) => {
                    // Events may have been lost: check everything against the disk again.
                    tracing::warn!(error = %e, "skill file watcher error");
                    if let Some(inner) = weak.upgrade() {
                        inner.refresh_paths(None);
                    }
                }
            })
            .map_err(|source| SkillsError::Watch { path: PathBuf::new(), source })?;
        for root in self.roots() {
            if root.kind == RootKind::User && !root.path.exists() {
                std::fs::create_dir_all(&root.path).map_err(|e| SkillsError::io(&root.path, e))?;
            }
            if root.path.is_dir() {
                debouncer
                    .watcher()
                    .watch(&root.path, RecursiveMode::Recursive)
                    .map_err(|source| SkillsError::Watch { path: root.path.clone(), source })?;
            }
        }
        *slot = Some(debouncer);
        drop(slot);
        // From here on the watcher reports every change: caches may be served without
        // checking the disk. Catch anything that changed between opening and watching.
        self.inner.trusted.store(true, std::sync::atomic::Ordering::Release);
        self.refresh();
        Ok(())
    }
}
