//! Local model commands (docs/models.md): the catalogue with what is installed and the free
//! disk space, a download whose `model_download_*` events stream through the caller's
//! channel, cancel, remove, use, and adding a GGUF file the person picks in the system's open
//! dialog (tauri-plugin-dialog, called from here, so the webview needs no dialog or file
//! permission). Everything else is the core's.

use std::sync::Arc;

use tauri::ipc::Channel;
use tauri::{AppHandle, State};
use tauri_plugin_dialog::DialogExt as _;
use vibe_wire::Envelope;
use vibe_wire::command::{
    AddModelRequest, CommandError, InstalledModelView, LocalModelRequest, LocalModels,
    ModelDownloadCancelled, ModelInUse, ModelPulled, ModelRemoved,
};

use super::{blocking, internal};
use crate::shell::Shell;
use crate::sink::ChannelSink;

#[tauri::command]
pub async fn list_local_models(shell: State<'_, Shell>) -> Result<LocalModels, CommandError> {
    shell.app()?.list_local_models().await.map_err(|e| e.to_command_error())
}

#[tauri::command]
pub async fn pull_model(
    shell: State<'_, Shell>,
    request: LocalModelRequest,
    on_event: Channel<Envelope>,
) -> Result<ModelPulled, CommandError> {
    let app = shell.app()?;
    // Its own task: a closed window must not drop a download half-way (it ends, or is
    // cancelled, and leaves its partial file to resume).
    let pull = tauri::async_runtime::spawn(async move {
        app.pull_model(&request, Arc::new(ChannelSink(on_event))).await
    });
    match pull.await {
        Ok(result) => result.map_err(|e| e.to_command_error()),
        Err(e) => Err(internal(format!("the download's task stopped: {e}"))),
    }
}

#[tauri::command]
pub async fn cancel_model_download(
    shell: State<'_, Shell>,
    request: LocalModelRequest,
) -> Result<ModelDownloadCancelled, CommandError> {
    Ok(shell.app()?.cancel_model_download(&request))
}

#[tauri::command]
pub async fn remove_model(
    shell: State<'_, Shell>,
    request: LocalModelRequest,
) -> Result<ModelRemoved, CommandError> {
    blocking(&shell, move |app| app.remove_model(&request)).await
}

#[tauri::command]
pub async fn use_model(
    shell: State<'_, Shell>,
    request: LocalModelRequest,
) -> Result<ModelInUse, CommandError> {
    blocking(&shell, move |app| app.use_model(&request)).await
}

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
