//! `watch_skills`: the skill registry's own change notices (`skills_changed`, from its file
//! watcher) go to the webview's channel, so the Skills screen shows a skill edited on disk
//! within about a second. One channel at a time: a new call replaces the old one. The registry
//! decides what changed; this file only forwards.

use std::sync::{Arc, Mutex, PoisonError};

use tauri::State;
use tauri::ipc::Channel;
use vibe_core::emit::Emitter;
use vibe_wire::Envelope;
use vibe_wire::command::CommandError;

use crate::shell::Shell;
use crate::sink::ChannelSink;

/// The channel the registry's notices go to, and which registry is being listened to.
#[derive(Default)]
pub struct SkillsWatch {
    target: Arc<Mutex<Option<Emitter>>>,
    /// The registry a forwarding thread listens to (its address; a new registry after a
    /// settings change gets a new thread, the old one ends with its registry).
    listening: Mutex<usize>,
}

#[tauri::command]
pub async fn watch_skills(
    shell: State<'_, Shell>,
    watch: State<'_, SkillsWatch>,
    on_event: Channel<Envelope>,
) -> Result<(), CommandError> {
    let registry = shell.app().await?.skills();
    *watch.target.lock().unwrap_or_else(PoisonError::into_inner) =
        Some(Emitter::new("", vec![Arc::new(ChannelSink(on_event))]));
    let address = Arc::as_ptr(&registry) as usize;
    let mut listening = watch.listening.lock().unwrap_or_else(PoisonError::into_inner);
    if *listening != address {
        *listening = address;
        let notices = registry.subscribe();
        drop(registry);
        let target = watch.target.clone();
        std::thread::Builder::new()
            .name("skills-watch".into())
            .spawn(move || {
                for event in notices {
                    if let Some(emitter) =
                        target.lock().unwrap_or_else(PoisonError::into_inner).as_ref()
                    {
                        emitter.emit(event);
                    }
                }
            })
            .map_err(|e| super::internal(format!("cannot start the skills watch: {e}")))?;
    }
    Ok(())
}
