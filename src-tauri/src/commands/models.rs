//! Adding a GGUF file the person picks in the system's open dialog (tauri-plugin-dialog, called
//! from here, so the webview needs no dialog or file permission), then copied in by the core
//! (`App::add_model`). The other local model commands (docs/models.md) are list commands
//! (`commands::wire`).

use tauri::{AppHandle, State};
use tauri_plugin_dialog::DialogExt as _;
use vibe_wire::command::{AddModelRequest, CommandError, InstalledModelView};

use super::{blocking, internal};
use crate::shell::Shell;

/// Asks for a `.gguf` file in the system's open dialog, then copies it in (`None`: the
/// person closed the dialog).
#[tauri::command]
pub async fn add_model_file(
    handle: AppHandle,
    shell: State<'_, Shell>,
) -> Result<Option<InstalledModelView>, CommandError> {
    let (tx, rx) = tokio::sync::oneshot::channel();
    handle.dialog().file().add_filter("GGUF", &["gguf"]).pick_file(move |path| {
        let _ = tx.send(path);
    });
    let chosen = rx.await.map_err(|e| internal(format!("the open dialog went away: {e}")))?;
    let Some(chosen) = chosen else { return Ok(None) };
    let path = chosen
        .into_path()
        .map_err(|e| internal(format!("the open dialog gave no file path: {e}")))?;
    let request = AddModelRequest { path: path.display().to_string(), id: None };
    blocking(&shell, move |app| app.add_model(&request)).await.map(Some)
}
