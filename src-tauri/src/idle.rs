//! The app's work while it sits open: once a minute, the memory passes that are due (a
//! conversation the person left quiet for `quiet_minutes`). Which passes are due and running
//! them are the core's (`App::extract_memory_due`); this only keeps the clock. Nothing runs
//! while the data folder is locked or no model is set up.

use std::time::Duration;

use tauri::Manager as _;

use crate::shell::Shell;

/// How often the idle check runs.
const EVERY: Duration = Duration::from_secs(60);

pub async fn memory_checks(handle: tauri::AppHandle) {
    let mut tick = tokio::time::interval(EVERY);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    // The first tick is immediate: leave start-up alone and check after a minute.
    tick.tick().await;
    loop {
        tick.tick().await;
        let Some(app) = handle.state::<Shell>().opened() else { continue };
        match app.extract_memory_due().await {
            Ok(done) if !done.passes.is_empty() => {
                tracing::info!(passes = done.passes.len(), "memory passes ran while idle");
            }
            Ok(_) => {}
            Err(e) => tracing::debug!(kind = e.kind().as_str(), "no idle memory check: {e}"),
        }
    }
}
