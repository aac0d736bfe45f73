//! Saving a file the person asked for: a protocol run's report (`App::protocol_report`) and
//! the memory export (`App::export_memory`). The core makes the bytes; the person picks where
//! they go in the system's save dialog (tauri-plugin-dialog, called from here, so the webview
//! needs no dialog permission); the shell writes them there.

use tauri::{AppHandle, State};
use tauri_plugin_dialog::DialogExt as _;
use vibe_wire::command::{CommandError, ProtocolReportRequest, ReportFormatKind, Saved};

use super::{blocking, internal};
use crate::shell::Shell;

#[tauri::command]
pub async fn export_protocol_report(
    handle: AppHandle,
    shell: State<'_, Shell>,
    request: ProtocolReportRequest,
) -> Result<Saved, CommandError> {
    let (ext, label) = extension(request.format);
    let name = format!("protocol-{}.{ext}", short(&request.run_id));
    let bytes = blocking(&shell, move |app| app.protocol_report(&request)).await?;
    save_with_dialog(&handle, name, label, ext, bytes).await
}

#[tauri::command]
pub async fn save_memory_export(
    handle: AppHandle,
    shell: State<'_, Shell>,
) -> Result<Saved, CommandError> {
    let export = blocking(&shell, |app| app.export_memory()).await?;
    let bytes = serde_json::to_vec_pretty(&export)
        .map_err(|e| internal(format!("cannot write the memory export as JSON: {e}")))?;
    save_with_dialog(&handle, "vibelife-memory.json".into(), "JSON", "json", bytes).await
}

/// Asks for a path (suggesting `name`), then writes `bytes` there on a blocking thread.
async fn save_with_dialog(
    handle: &AppHandle,
    name: String,
    label: &str,
    ext: &str,
    bytes: Vec<u8>,
) -> Result<Saved, CommandError> {
    let (tx, rx) = tokio::sync::oneshot::channel();
    handle.dialog().file().set_file_name(name).add_filter(label, &[ext]).save_file(move |path| {
        let _ = tx.send(path);
    });
    let chosen = rx.await.map_err(|e| internal(format!("the save dialog went away: {e}")))?;
    let Some(chosen) = chosen else {
        return Ok(Saved { path: None, bytes: 0 });
    };
    let path = chosen
        .into_path()
        .map_err(|e| internal(format!("the save dialog gave no file path: {e}")))?;
    let len = bytes.len() as u64;
    let shown = path.display().to_string();
    tauri::async_runtime::spawn_blocking(move || std::fs::write(&path, &bytes))
        .await
        .map_err(|e| internal(format!("writing the file stopped: {e}")))?
        .map_err(|e| internal(format!("cannot write {shown}: {e}")))?;
    tracing::info!(bytes = len, "file exported");
    Ok(Saved { path: Some(shown), bytes: len })
}

fn extension(format: ReportFormatKind) -> (&'static str, &'static str) {
    match format {
        ReportFormatKind::Md => ("md", "Markdown"),
        ReportFormatKind::Html => ("html", "HTML"),
        ReportFormatKind::Json => ("json", "JSON"),
        ReportFormatKind::Pdf => ("pdf", "PDF"),
    }
}

/// The first part of a run id, enough to tell two files apart.
fn short(run_id: &str) -> &str {
    run_id.get(..8).unwrap_or(run_id)
}
