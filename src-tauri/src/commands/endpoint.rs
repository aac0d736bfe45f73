//! Model endpoint commands: the models an endpoint lists, a connection test (a failure is an
//! answer with the error, shown beside the fields), and first run's detection of a local
//! server (the probing is the core's; the webview reaches no network).

use tauri::State;
use vibe_wire::command::{
    CommandError, ListModelsRequest, LocalServerView, ModelList, TestConnectionRequest,
    TestConnectionResponse,
};

use crate::shell::Shell;

#[tauri::command]
pub async fn list_models(
    shell: State<'_, Shell>,
    request: ListModelsRequest,
) -> Result<ModelList, CommandError> {
    let app = shell.app()?;
    app.list_models(&request).await.map_err(|e| e.to_command_error())
}

#[tauri::command]
pub async fn test_connection(
    shell: State<'_, Shell>,
    request: TestConnectionRequest,
) -> Result<TestConnectionResponse, CommandError> {
    Ok(shell.app()?.test_connection(&request).await)
}

/// First run is needed while no model is configured: no settings file yet and no
/// `VIBE_LLM_BASE_URL` in the environment.
#[tauri::command]
pub async fn needs_first_run(shell: State<'_, Shell>) -> Result<bool, CommandError> {
    Ok(shell.app()?.needs_first_run())
}

#[tauri::command]
pub async fn detect_local_servers(
    shell: State<'_, Shell>,
) -> Result<Vec<LocalServerView>, CommandError> {
    Ok(shell.app()?.detect_local_servers().await)
}
