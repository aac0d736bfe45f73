//! Update checks while the app runs (docs/packaging.md#updates): one at a time, whoever asks
//! (the window at its start, Settings' "Check now", or the clock of a VibeLife that stays open
//! or in the tray for weeks), and the update the last check found, kept for the install and
//! handed to a window once. Whether a check may ask the server now is the core's
//! (`App::update_check_decision`: the person's choice, a day since the last check, the time of
//! which is kept in the data folder so a restart does not check early); talking to the server
//! is `crate::update`'s. This module owns the order of things, never the policy.

use std::future::Future;
use std::sync::Mutex;
use std::time::{Duration, SystemTime};

use tauri::Manager as _;
use vibe_core::app::updates::CheckDecision;
use vibe_core::app::{App, AppError};
use vibe_wire::command::{UpdateCheck, UpdateOffer};

use crate::shell::Shell;

/// How often the clock asks the core whether a check is due (the check itself is at most daily).
pub const TICK: Duration = Duration::from_secs(15 * 60);

/// Who asks for a check.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Asker {
    /// A window: at its start or when told the clock found an update. An update found before
    /// and not yet shown to a window is its answer when no check is due.
    Window,
    /// The person's "Check now" (skips the once-a-day rule, never their choice).
    Manual,
    /// The shell's clock: nobody is shown the answer now.
    Clock,
}

/// The update found by the last check, and whether a window was shown it.
struct Found<T> {
    offer: UpdateOffer,
    update: T,
    shown: bool,
}

/// The checks of one running app: never two at once, and what the last one found. `T` is the
/// plugin's `Update` in the app (anything in the unit tests).
pub struct Checks<T> {
    running: tokio::sync::Mutex<()>,
    found: Mutex<Option<Found<T>>>,
}

impl<T> Default for Checks<T> {
    fn default() -> Self {
        Self { running: tokio::sync::Mutex::new(()), found: Mutex::new(None) }
    }
}

impl<T: Clone> Checks<T> {
    /// One check at `now` for `asker`: waits for a check already running (so a second one sees
    /// the first one's recorded time and is not due), lets the core decide, records the time
    /// before asking (a failing server is not asked again within the day), and calls `ask` with
    /// the decision (`crate::update::check`, which makes no request unless it is `Check`). A
    /// check that ran replaces the update kept; a check the person does not allow drops it.
    pub async fn run<F, Fut>(
        &self,
        core: &App,
        now: SystemTime,
        asker: Asker,
        ask: F,
    ) -> Result<UpdateCheck, AppError>
    where
        F: FnOnce(CheckDecision) -> Fut,
        Fut: Future<Output = (UpdateCheck, Option<T>)>,
    {
        let _one_at_a_time = self.running.lock().await;
        let decision = core.update_check_decision(now, asker == Asker::Manual);
        if decision == CheckDecision::Check {
            core.record_update_check(now)?;
        }
        let (answer, update) = ask(decision).await;
        let mut found = self.found.lock().unwrap_or_else(|e| e.into_inner());
        match (decision, &answer, update) {
            (CheckDecision::Check, UpdateCheck::Available { offer }, Some(update)) => {
                let shown = asker != Asker::Clock;
                *found = Some(Found { offer: offer.clone(), update, shown });
                Ok(answer)
            }
            (CheckDecision::Check, _, _) | (CheckDecision::NotAllowed, _, _) => {
                *found = None;
                Ok(answer)
            }
            (CheckDecision::NotDue, _, _) => match found.as_mut() {
                Some(f) if asker == Asker::Window && !f.shown => {
                    f.shown = true;
                    Ok(UpdateCheck::Available { offer: f.offer.clone() })
                }
                _ => Ok(answer),
            },
        }
    }

    /// The update the last check found, for the install.
    pub fn update(&self) -> Option<T> {
        self.found.lock().unwrap_or_else(|e| e.into_inner()).as_ref().map(|f| f.update.clone())
    }

    /// The update found is to be shown again (the tray's "Update available" was chosen): the
    /// next window check hands it over.
    pub fn show_again(&self) {
        if let Some(found) = self.found.lock().unwrap_or_else(|e| e.into_inner()).as_mut() {
            found.shown = false;
        }
    }

    /// The version the last check found (the tray's "Update available").
    pub fn available(&self) -> Option<String> {
        self.found
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .as_ref()
            .map(|f| f.offer.version.clone())
    }
}

/// The app's checks (managed state).
pub type AppChecks = Checks<tauri_plugin_updater::Update>;

/// One check through the updater plugin (the endpoint of `tauri.conf.json`, or
/// `VIBELIFE_UPDATE_URL`).
pub async fn run_now(
    handle: &tauri::AppHandle,
    core: &App,
    asker: Asker,
) -> Result<UpdateCheck, AppError> {
    let endpoint = std::env::var(crate::update::URL_ENV).ok();
    let checks = handle.state::<AppChecks>();
    let answer = checks
        .run(core, SystemTime::now(), asker, |decision| {
            crate::update::check(decision, || crate::update::builder(handle, endpoint))
        })
        .await;
    crate::tray::show_update(handle, checks.available().is_some());
    answer
}

/// The clock of a running app (with or without its window): every [`TICK`] the core is asked
/// whether a check is due (the first time a minute after start, leaving start-up and the
/// window's own check alone); nothing happens while the folder is locked, the person has not
/// allowed checks, or the last check is less than a day old. An update found is announced to
/// an open window (a DOM event its update check listens for, ui/src/updates/UpdateCheck.tsx)
/// and in the tray's menu.
pub async fn every(handle: tauri::AppHandle) {
    tokio::time::sleep(Duration::from_secs(60)).await;
    let mut tick = tokio::time::interval(TICK);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tick.tick().await;
        let Some(core) = handle.state::<Shell>().opened() else { continue };
        match run_now(&handle, &core, Asker::Clock).await {
            Ok(UpdateCheck::Available { offer }) => {
                tracing::info!(version = %offer.version, "the clock's check found an update");
                announce(&handle);
            }
            Ok(_) => {}
            Err(e) => tracing::warn!("the clock's update check failed: {e}"),
        }
    }
}

/// The tray's "Update available" (the window is open or opening): its update dialog. A window
/// that just opened asks at its start; an open one is told.
pub fn show_found(handle: &tauri::AppHandle) {
    handle.state::<AppChecks>().show_again();
    announce(handle);
}

/// Tells an open window that an update was found (it asks `update_check`, which hands it the
/// offer).
fn announce(handle: &tauri::AppHandle) {
    for window in handle.webview_windows().into_values() {
        if let Err(e) = window.eval("window.dispatchEvent(new Event('vibelife:update-found'))") {
            tracing::warn!("the window could not be told about the update: {e}");
        }
    }
}

#[cfg(test)]
#[path = "update_runs_tests.rs"]
mod tests;
