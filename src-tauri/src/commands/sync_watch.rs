//! `watch_sync`: sync's status as it changes (a background or asked-for run began or ended,
//! set up, joined, paused) goes to the webview's channel as `sync_changed`, so Settings → Sync
//! shows it live. One channel at a time: a new call replaces the old one. When to sync is the
//! core's (`vibe_core::app::run_sync_in_background`); this file only forwards.

use std::sync::{Arc, Mutex, PoisonError};

use tauri::State;
use tauri::ipc::Channel;
use vibe_core::emit::Emitter;
use vibe_wire::command::CommandError;
use vibe_wire::{Envelope, Event};

use crate::shell::Shell;
use crate::sink::ChannelSink;

/// The channel the notices go to, and which app is being listened to.
#[derive(Default)]
pub struct SyncWatch {
    target: Arc<Mutex<Option<Emitter>>>,
    /// The app a forwarding task listens to (its address; an app opened again after an
    /// unlock gets a task of its own, the old one ends with its app).
    listening: Mutex<usize>,
}

#[tauri::command]
pub async fn watch_sync(
    shell: State<'_, Shell>,
    watch: State<'_, SyncWatch>,
    on_event: Channel<Envelope>,
) -> Result<(), CommandError> {
    let app = shell.app().await?;
    *watch.target.lock().unwrap_or_else(PoisonError::into_inner) =
        Some(Emitter::new("", vec![Arc::new(ChannelSink(on_event))]));
    let address = Arc::as_ptr(&app) as usize;
    let mut listening = watch.listening.lock().unwrap_or_else(PoisonError::into_inner);
    if *listening == address {
        return Ok(());
    }
    *listening = address;
    let mut changes = app.sync_watch();
    let app = Arc::downgrade(&app);
    let target = watch.target.clone();
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
            if let Some(emitter) = target.lock().unwrap_or_else(PoisonError::into_inner).as_ref() {
                emitter.emit(Event::SyncChanged { status });
            }
        }
    });
    Ok(())
}
