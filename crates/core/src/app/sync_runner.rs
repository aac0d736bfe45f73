//! Sync runs without the person asking (docs/sync.md, "Syncing in the background"): a few
//! seconds after this device's data changed (debounced) and every few minutes, never two runs
//! at once (a run asked for waits for the running one; a background one is skipped), never
//! while paused (`sync.paused`) or not set up. What each run did or why it failed is kept here
//! for the status (`SyncActivity`) and announced to watchers, not raised as an error. The
//! shell only starts [`run_in_background`]; what a run does is `sync.rs`'s.

use std::sync::{Mutex, PoisonError, Weak};
use std::time::{Duration, Instant};

use tokio::sync::watch;
use vibe_wire::command::{SyncActivity, SyncRunView};

use crate::app::{App, AppError};

/// When the background runner looks and how long it waits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SyncTiming {
    /// How often the runner looks at what waits to be sent.
    pub poll: Duration,
    /// How long the data must stay unchanged before a run (a burst of edits is one run).
    pub debounce: Duration,
    /// A run at least this often (to receive the other devices' changes).
    pub every: Duration,
}

impl Default for SyncTiming {
    fn default() -> Self {
        Self {
            poll: Duration::from_secs(2),
            debounce: Duration::from_secs(5),
            every: Duration::from_secs(5 * 60),
        }
    }
}

/// When a run is due, as a function of the clock and what waits to be sent (pure: tested with
/// made-up instants).
#[derive(Debug, Clone)]
pub struct Schedule {
    timing: SyncTiming,
    /// What waited at the last look, and since when it has been that.
    pending: u64,
    changed_at: Option<Instant>,
    /// The next periodic run (set at the first look: a debounce after it).
    next_periodic: Option<Instant>,
}

impl Schedule {
    pub fn new(timing: SyncTiming) -> Self {
        Self { timing, pending: 0, changed_at: None, next_periodic: None }
    }

    /// Whether a run is due at `now`, with `pending` changes waiting to be sent.
    pub fn due(&mut self, now: Instant, pending: u64) -> bool {
        let next = *self.next_periodic.get_or_insert(now + self.timing.debounce);
        if pending != self.pending {
            self.pending = pending;
            self.changed_at = Some(now);
        }
        let settled = self.changed_at.is_some_and(|at| now >= at + self.timing.debounce);
        (pending > 0 && settled) || now >= next
    }

    /// A run ended at `now` (worked or not: a failure waits for the next change or period).
    pub fn ran(&mut self, now: Instant) {
        self.changed_at = None;
        self.next_periodic = Some(now + self.timing.every);
    }

    /// Sync was paused or not set up: start afresh when it is on again.
    pub fn reset(&mut self) {
        *self = Self::new(self.timing);
    }
}

/// The app's sync runs: one at a time, what they did, and who is told.
pub(crate) struct SyncRuns {
    one_at_a_time: tokio::sync::Mutex<()>,
    activity: Mutex<SyncActivity>,
    changed: watch::Sender<u64>,
}

impl Default for SyncRuns {
    fn default() -> Self {
        Self {
            one_at_a_time: tokio::sync::Mutex::new(()),
            activity: Mutex::new(SyncActivity::default()),
            changed: watch::channel(0).0,
        }
    }
}

impl SyncRuns {
    pub(crate) fn activity(&self) -> SyncActivity {
        self.activity.lock().unwrap_or_else(PoisonError::into_inner).clone()
    }

    fn update(&self, change: impl FnOnce(&mut SyncActivity)) {
        change(&mut self.activity.lock().unwrap_or_else(PoisonError::into_inner));
        self.notify();
    }

    pub(crate) fn notify(&self) {
        self.changed.send_modify(|n| *n = n.wrapping_add(1));
    }

    fn began(&self) {
        self.update(|a| a.running = true);
    }

    fn ended(&self, outcome: &Result<SyncRunView, AppError>) {
        let at = chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Secs, true);
        self.update(|a| {
            a.running = false;
            a.last_run_at = Some(at);
            match outcome {
                Ok(run) => {
                    a.last_run = Some(run.clone());
                    a.last_error = None;
                }
                Err(e) => a.last_error = Some(e.to_error_info()),
            }
        });
    }
}

impl App {
    /// `sync_now`: one run, after the one going on (if any) ended. Its outcome is also kept
    /// for the status.
    pub async fn sync_now(&self) -> Result<SyncRunView, AppError> {
        let _one = self.sync_runs.one_at_a_time.lock().await;
        self.sync_runs.began();
        let outcome = self.sync_run().await;
        self.sync_runs.ended(&outcome);
        outcome
    }

    /// One background run, unless one is going on (`None` then). A failure is kept for the
    /// status and answered.
    pub async fn sync_in_background(&self) -> Option<Result<SyncRunView, AppError>> {
        let _one = self.sync_runs.one_at_a_time.try_lock().ok()?;
        self.sync_runs.began();
        let outcome = self.sync_run().await;
        self.sync_runs.ended(&outcome);
        Some(outcome)
    }

    /// A counter that moves each time sync's status changed (a run began or ended, set up,
    /// joined, paused): watchers read `sync_status` again.
    pub fn sync_watch(&self) -> watch::Receiver<u64> {
        self.sync_runs.changed.subscribe()
    }

    /// Whether the background runner may run now, and what waits to be sent.
    fn background_pending(&self) -> Result<Option<u64>, AppError> {
        let sync = &self.settings().sync;
        if sync.paused || sync.effective_target().is_none() {
            return Ok(None);
        }
        Ok(self.store().sync_device()?.map(|d| d.pending_ops))
    }
}

/// Runs sync in the background for as long as `app` is open: looks every `timing.poll` and
/// runs when [`Schedule::due`] says so. Failures are in the status (and logged), never raised.
pub async fn run_in_background(app: Weak<App>, timing: SyncTiming) {
    let mut schedule = Schedule::new(timing);
    loop {
        tokio::time::sleep(timing.poll).await;
        let Some(open) = app.upgrade() else { return };
        let pending = match open.background_pending() {
            Ok(Some(pending)) => pending,
            Ok(None) => {
                schedule.reset();
                continue;
            }
            Err(e) => {
                tracing::debug!(kind = e.kind().as_str(), "no background sync check: {e}");
                continue;
            }
        };
        if !schedule.due(Instant::now(), pending) {
            continue;
        }
        match open.sync_in_background().await {
            Some(Ok(run)) => tracing::info!(sent = run.sent, received = run.received, "synced"),
            Some(Err(e)) => tracing::warn!(kind = e.kind().as_str(), "background sync failed: {e}"),
            None => continue,
        }
        schedule.ran(Instant::now());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn timing() -> SyncTiming {
        SyncTiming {
            poll: Duration::from_secs(1),
            debounce: Duration::from_secs(5),
            every: Duration::from_secs(300),
        }
    }

    #[test]
    fn a_burst_of_changes_runs_once_after_it_settles() {
        let t0 = Instant::now();
        let at = |s: u64| t0 + Duration::from_secs(s);
        let mut s = Schedule::new(timing());
        assert!(!s.due(at(0), 0));
        s.ran(at(0)); // pretend the start-up run happened
        assert!(!s.due(at(1), 1), "a change waits for the debounce");
        assert!(!s.due(at(3), 2), "another change starts the wait again");
        assert!(!s.due(at(7), 2));
        assert!(s.due(at(8), 2), "five seconds without a change");
        s.ran(at(8));
        assert!(!s.due(at(9), 0), "sent: nothing waits");
        assert!(!s.due(at(100), 0));
    }

    #[test]
    fn runs_at_start_after_the_debounce_then_every_period() {
        let t0 = Instant::now();
        let at = |s: u64| t0 + Duration::from_secs(s);
        let mut s = Schedule::new(timing());
        assert!(!s.due(at(0), 0));
        assert!(s.due(at(5), 0), "a first run soon after start receives the others' changes");
        s.ran(at(5));
        assert!(!s.due(at(304), 0));
        assert!(s.due(at(305), 0));
    }

    #[test]
    fn a_failed_run_is_not_retried_at_every_look() {
        let t0 = Instant::now();
        let at = |s: u64| t0 + Duration::from_secs(s);
        let mut s = Schedule::new(timing());
        s.due(at(0), 3);
        assert!(s.due(at(5), 3));
        s.ran(at(6)); // failed: 3 still wait
        assert!(!s.due(at(7), 3));
        assert!(!s.due(at(200), 3), "no change: waits for the period");
        assert!(s.due(at(306), 3));
        s.ran(at(306));
        assert!(!s.due(at(307), 4), "a new change waits for the debounce");
        assert!(s.due(at(312), 4));
    }

    #[tokio::test]
    async fn a_run_never_overlaps_another() {
        let dir = tempfile::tempdir().unwrap();
        let keys = std::sync::Arc::new(crate::app::EphemeralKeys::default());
        let overrides = crate::app::Overrides {
            db_passphrase: Some(zeroize::Zeroizing::new("an overlap test".to_string())),
            ..crate::app::Overrides::default()
        };
        let app =
            App::open_with_keys(crate::app::AppPaths::new(dir.path()), overrides, keys).unwrap();
        let going = app.sync_runs.one_at_a_time.lock().await;
        assert!(app.sync_in_background().await.is_none(), "skipped while one runs");
        let asked = tokio::time::timeout(Duration::from_millis(50), app.sync_now()).await;
        assert!(asked.is_err(), "an asked-for run waits for the one going on");
        drop(going);
        // Now it runs (and says sync is not set up here).
        let ran = app.sync_now().await.unwrap_err();
        assert!(ran.to_string().contains("not set up"), "{ran}");
        assert!(app.sync_status().unwrap().activity.last_error.is_some());
    }

    #[test]
    fn reset_forgets_the_past() {
        let t0 = Instant::now();
        let mut s = Schedule::new(timing());
        s.due(t0, 2);
        s.reset();
        assert!(!s.due(t0 + Duration::from_secs(4), 2));
    }
}
