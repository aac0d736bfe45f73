//! `watch_sync`: sync's status as it changes (a background or asked-for run began or ended,
//! set up, joined, paused) goes to the webview's channel as `sync_changed`, so Settings → Sync
//! shows it live. One channel at a time: a new call replaces the old one. When to sync is the
//! core's (`vibe_core::app::run_sync_in_background`); this file only forwards.

use std::sync::Arc;

use tauri::State;
use tauri::ipc::Channel;
use vibe_wire::command::CommandError;
use vibe_wire::{Envelope, Event};

use super::watch_target::WatchTarget;
use crate::shell::Shell;

/// The channel the notices go to, and which app is being listened to (an app opened again
/// after an unlock gets a task of its own, the old one ends with its app).
#[derive(Default)]
pub struct SyncWatch(WatchTarget);

#[tauri::command]
pub async fn watch_sync(
    shell: State<'_, Shell>,
    watch: State<'_, SyncWatch>,
    on_event: Channel<Envelope>,
) -> Result<(), CommandError> {
    let app = shell.app().await?;
    let Some(forward) = watch.0.point_to(on_event, &app) else { return Ok(()) };
    let mut changes = app.sync_watch();
    let app = Arc::downgrade(&app);
    tauri::async_runtime::spawn(async move {
        while changes.changed().await.is_ok() {
            let app = app.clone();
            let read = tauri::async_runtime::spawn_blocking(move || {
                app.upgrade().map(|open| open.sync_status())
            });
            let status = match read.await {
                Ok(Some(Ok(status))) => status,
                Ok(Some(Err(e))) => {
                    tracing::debug!(kind = e.kind().as_str(), "sync status not read: {e}");
                    continue;
                }
                Ok(None) | Err(_) => return,
            };
            forward.emit(Event::SyncChanged { status });
        }
    });
    Ok(())
}
