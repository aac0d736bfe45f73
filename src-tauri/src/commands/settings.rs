//! Settings and API key commands. Settings are read and validated by the core (`update_settings`
//! writes nothing when any change is invalid). The API key goes to the OS keychain; the webview
//! can only learn whether one is set (`ApiKeyStatus`), never the key.

use tauri::State;
use vibe_wire::command::{
    ApiKeyRequest, ApiKeyStatus, CommandError, SetApiKeyRequest, SettingsView,
    UpdateSettingsRequest,
};

use super::blocking;
use crate::shell::Shell;

#[tauri::command]
pub async fn get_settings(shell: State<'_, Shell>) -> Result<SettingsView, CommandError> {
    blocking(&shell, |app| Ok(app.get_settings())).await
}

#[tauri::command]
pub async fn update_settings(
    shell: State<'_, Shell>,
    request: UpdateSettingsRequest,
) -> Result<SettingsView, CommandError> {
    blocking(&shell, move |app| app.update_settings(request)).await
}

#[tauri::command]
pub async fn set_api_key(
    shell: State<'_, Shell>,
    request: SetApiKeyRequest,
) -> Result<ApiKeyStatus, CommandError> {
    blocking(&shell, move |app| app.set_api_key(&request)).await
}

#[tauri::command]
pub async fn clear_api_key(
    shell: State<'_, Shell>,
    request: ApiKeyRequest,
) -> Result<ApiKeyStatus, CommandError> {
    blocking(&shell, move |app| app.clear_api_key(&request)).await
}

#[tauri::command]
pub async fn api_key_status(
    shell: State<'_, Shell>,
    request: ApiKeyRequest,
) -> Result<ApiKeyStatus, CommandError> {
    blocking(&shell, move |app| app.api_key_status(&request)).await
}
