//! Due protocol reminders as desktop notifications: once a minute (and once at start) the shell
//! asks the core which reminders to notify now (`App::notify_due_reminders`: the latest due,
//! unanswered one per run, once, honouring the off switch and quiet hours) and shows each with
//! tauri-plugin-notification. Choosing them is the core's; this only keeps the clock and shows
//! what it gets; no window is needed, so reminders go on while VibeLife sits in the tray
//! (`window.rs`). The window's reminder card reads `reminder_notices` itself, since the Linux
//! notification cannot report a click.

use std::time::Duration;

use tauri::Manager as _;
use tauri_plugin_notification::NotificationExt as _;

use crate::shell::Shell;

/// How often due reminders are checked (their times are whole minutes).
const EVERY: Duration = Duration::from_secs(60);

pub async fn notify_due(handle: tauri::AppHandle) {
    let mut tick = tokio::time::interval(EVERY);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tick.tick().await;
        // The tray menu follows a language change on the same clock.
        crate::tray::refresh(&handle);
        let Some(app) = handle.state::<Shell>().opened() else { continue };
        let due = tauri::async_runtime::spawn_blocking(move || app.notify_due_reminders()).await;
        let list = match due {
            Ok(Ok(list)) => list,
            Ok(Err(e)) => {
                tracing::debug!(kind = e.kind().as_str(), "no reminder check: {e}");
                continue;
            }
            Err(e) => {
                tracing::warn!("the reminder check stopped: {e}");
                continue;
            }
        };
        for reminder in list.reminders {
            let shown = handle
                .notification()
                .builder()
                .title(format!("VibeLife · {}", reminder.time))
                .body(&reminder.question)
                .show();
            match shown {
                Ok(()) => {
                    tracing::info!(run = %reminder.protocol_run_id, at = %reminder.at, "reminder notified")
                }
                Err(e) => {
                    tracing::warn!(run = %reminder.protocol_run_id, "reminder notification not shown: {e}")
                }
            }
        }
    }
}
