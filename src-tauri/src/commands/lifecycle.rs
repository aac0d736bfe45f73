//! The window's and the app's life beside the desktop: closing as the first-close dialog
//! answered (`window::close_as_chosen`), and starting at login (tauri-plugin-autostart writes or
//! removes the OS entry — on Linux `~/.config/autostart/VibeLife.desktop`, launching with
//! `--minimized`). No product logic.

use tauri::AppHandle;
use tauri_plugin_autostart::ManagerExt as _;
use vibe_wire::command::{Autostart, CommandError, SetAutostartRequest};

#[tauri::command]
pub async fn close_window(app: AppHandle) -> Result<(), CommandError> {
    crate::window::close_as_chosen(&app);
    Ok(())
}

#[tauri::command]
pub async fn autostart_status(app: AppHandle) -> Result<Autostart, CommandError> {
    let enabled = app.autolaunch().is_enabled().map_err(|e| {
        super::internal(format!("cannot read whether VibeLife starts at login: {e}"))
    })?;
    Ok(Autostart { enabled })
}

#[tauri::command]
pub async fn set_autostart(
    app: AppHandle,
    request: SetAutostartRequest,
) -> Result<Autostart, CommandError> {
    let launcher = app.autolaunch();
    let done = if request.enabled { launcher.enable() } else { launcher.disable() };
    done.map_err(|e| {
        let what = if request.enabled { "turn on" } else { "turn off" };
        super::internal(format!("cannot {what} starting at login: {e}"))
    })?;
    tracing::info!(enabled = request.enabled, "start at login changed");
    autostart_status(app).await
}
