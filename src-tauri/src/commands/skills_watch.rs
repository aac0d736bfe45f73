//! `watch_skills`: the skill registry's own change notices (`skills_changed`, from its file
//! watcher) go to the webview's channel, so the Skills screen shows a skill edited on disk
//! within about a second. One channel at a time: a new call replaces the old one. The registry
//! decides what changed; this file only forwards.

use tauri::State;
use tauri::ipc::Channel;
use vibe_wire::Envelope;
use vibe_wire::command::CommandError;

use super::watch_target::WatchTarget;
use crate::shell::Shell;

/// The channel the registry's notices go to, and which registry is being listened to (a new
/// registry after a settings change gets a new thread, the old one ends with its registry).
#[derive(Default)]
pub struct SkillsWatch(WatchTarget);

#[tauri::command]
pub async fn watch_skills(
    shell: State<'_, Shell>,
    watch: State<'_, SkillsWatch>,
    on_event: Channel<Envelope>,
) -> Result<(), CommandError> {
    let registry = shell.app().await?.skills();
    if let Some(forward) = watch.0.point_to(on_event, &registry) {
        let notices = registry.subscribe();
        drop(registry);
        std::thread::Builder::new()
            .name("skills-watch".into())
            .spawn(move || notices.into_iter().for_each(|event| forward.emit(event)))
            .map_err(|e| super::internal(format!("cannot start the skills watch: {e}")))?;
    }
    Ok(())
}
