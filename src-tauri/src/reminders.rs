//! Due protocol reminders as desktop notifications: once a minute (and once at start) the shell
//! asks the core which reminders to notify now (`App::notify_due_reminders`: the latest due,
//! unanswered one per run, once, honouring the off switch and quiet hours) and shows each with
//! tauri-plugin-notification. Choosing them is the core's; this only keeps the clock and shows
//! what it gets; no window is needed, so reminders go on while VibeLife sits in the tray
//! (`window.rs`). On Linux the notification carries an action ("Answer now", and a click on it
//! where the desktop has one): it opens the window at the question in its run's conversation
//! (`window::Screen::Reminder`), made again if the window was closed to the tray. Elsewhere (the
//! plugin's notifications report no click) and on a desktop without actions, the window's
//! reminder card, which reads `reminder_notices` itself, is the way to the question.

use std::time::Duration;

use tauri::Manager as _;
use vibe_wire::command::ReminderView;

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
            match show(&handle, &reminder) {
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

/// A reminder's key as the UI's `reminderKey` builds it: `RUN/STEP/AT`.
pub fn key(reminder: &ReminderView) -> String {
    format!("{}/{}/{}", reminder.protocol_run_id, reminder.step, reminder.at)
}

/// The notification's title.
fn title(reminder: &ReminderView) -> String {
    format!("VibeLife · {}", reminder.time)
}

/// Shows `reminder` over the desktop's notification service (org.freedesktop.Notifications)
/// with its action; a thread waits for the person's answer to it (or its closing) and opens
/// the window at the question.
#[cfg(target_os = "linux")]
fn show(
    handle: &tauri::AppHandle,
    reminder: &ReminderView,
) -> Result<(), notify_rust::error::Error> {
    let answer = crate::tray::current_labels(handle).answer;
    let shown = notify_rust::Notification::new()
        .appname("VibeLife")
        .summary(&title(reminder))
        .body(&reminder.question)
        // "default" is a click on the notification itself where the desktop offers one.
        .action("default", answer)
        .action("answer", answer)
        .show()?;
    let handle = handle.clone();
    let screen = crate::window::Screen::Reminder(key(reminder));
    let spawned = std::thread::Builder::new().name("reminder-action".into()).spawn(move || {
        shown.wait_for_action(|action| {
            if action == "default" || action == "answer" {
                tracing::info!(action, "reminder notification answered: opening its question");
                let opener = handle.clone();
                if let Err(e) =
                    handle.run_on_main_thread(move || crate::window::open(&opener, &screen))
                {
                    tracing::warn!("the window could not be opened for the reminder: {e}");
                }
            }
        })
    });
    if let Err(e) = spawned {
        tracing::warn!("no wait for the reminder notification's action: {e}");
    }
    Ok(())
}

/// Shows `reminder` with tauri-plugin-notification (no action: the window's card leads to it).
#[cfg(not(target_os = "linux"))]
fn show(
    handle: &tauri::AppHandle,
    reminder: &ReminderView,
) -> tauri_plugin_notification::Result<()> {
    use tauri_plugin_notification::NotificationExt as _;
    handle.notification().builder().title(title(reminder)).body(&reminder.question).show()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_key_is_the_one_the_window_finds_the_reminder_by() {
        let reminder: ReminderView = serde_json::from_value(serde_json::json!({
            "protocol_run_id": "0b5c", "skill": "lifecoach", "protocol_id": "dankoe", "step": 2,
            "at": "11:00", "time": "11:30", "question": "此刻你在逃避什么？",
            "due": true, "answered": false
        }))
        .unwrap();
        // ui/src/reminders/ReminderCard.tsx: `${run}/${step}/${at}` (the protocol's time).
        assert_eq!(key(&reminder), "0b5c/2/11:00");
        assert_eq!(title(&reminder), "VibeLife · 11:30");
    }
}
