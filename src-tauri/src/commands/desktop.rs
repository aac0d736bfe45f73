//! What only a desktop does: open the data folder or the skills folder in the system's file
//! manager.

use std::path::Path;
use std::process::Command;

use tauri::State;
use vibe_wire::command::{CommandError, SkillRootKind};

use crate::shell::Shell;

#[tauri::command]
pub async fn open_data_dir(shell: State<'_, Shell>) -> Result<(), CommandError> {
    open_folder(shell.data_dir())
}

/// The person's own skills folder (the `user` root of the skill index), made if missing.
#[tauri::command]
pub async fn open_skills_dir(shell: State<'_, Shell>) -> Result<(), CommandError> {
    let app = shell.app().await?;
    let root = app.list_skills().roots.into_iter().find(|r| r.kind == SkillRootKind::User);
    let Some(root) = root else {
        return Err(super::internal("no user skills folder is configured".into()));
    };
    let dir = std::path::PathBuf::from(root.path);
    std::fs::create_dir_all(&dir)
        .map_err(|e| super::internal(format!("cannot make {}: {e}", dir.display())))?;
    open_folder(&dir)
}

fn open_folder(dir: &Path) -> Result<(), CommandError> {
    let opener = if cfg!(target_os = "macos") {
        "open"
    } else if cfg!(target_os = "windows") {
        "explorer"
    } else {
        "xdg-open"
    };
    // Spawned, not waited for: the file manager lives on after the call.
    Command::new(opener)
        .arg(dir)
        .spawn()
        .map(drop)
        .map_err(|e| super::internal(format!("cannot open {} with {opener}: {e}", dir.display())))
}

/// The UI calls this once, when the composer first takes input: the log records how long the
/// launch took (from the process start to an interactive window) and the wall-clock time of
/// that moment, which the launch benchmark reads (docs/performance.md).
#[tauri::command]
pub async fn ui_ready(started: State<'_, crate::Started>) -> Result<(), CommandError> {
    let now_ms = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_millis())
        .unwrap_or(0);
    tracing::info!(
        since_start_ms = started.0.elapsed().as_millis() as u64,
        epoch_ms = now_ms as u64,
        "ui ready"
    );
    Ok(())
}
