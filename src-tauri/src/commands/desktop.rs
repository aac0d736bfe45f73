//! What only a desktop does: open the data folder in the system's file manager.

use std::process::Command;

use tauri::State;
use vibe_wire::command::CommandError;

use crate::shell::Shell;

#[tauri::command]
pub async fn open_data_dir(shell: State<'_, Shell>) -> Result<(), CommandError> {
    let dir = shell.data_dir();
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
