//! Memory commands: list, edit, forget, export and the switch. The rules are the core's.

use tauri::State;
use vibe_wire::command::{
    CommandError, EditMemoryRequest, ForgetMemoryResponse, ListMemoryRequest, MemoryExport,
    MemoryItemRequest, MemoryItemView, MemoryList, MemorySwitch, SetMemoryEnabledRequest,
};

use super::blocking;
use crate::shell::Shell;

#[tauri::command]
pub async fn list_memory(
    shell: State<'_, Shell>,
    request: ListMemoryRequest,
) -> Result<MemoryList, CommandError> {
    blocking(&shell, move |app| app.list_memory(&request)).await
}

#[tauri::command]
pub async fn edit_memory_item(
    shell: State<'_, Shell>,
    request: EditMemoryRequest,
) -> Result<MemoryItemView, CommandError> {
    blocking(&shell, move |app| app.edit_memory_item(&request)).await
}

#[tauri::command]
pub async fn forget_memory_item(
    shell: State<'_, Shell>,
    request: MemoryItemRequest,
) -> Result<ForgetMemoryResponse, CommandError> {
    blocking(&shell, move |app| app.forget_memory_item(&request)).await
}

#[tauri::command]
pub async fn export_memory(shell: State<'_, Shell>) -> Result<MemoryExport, CommandError> {
    blocking(&shell, |app| app.export_memory()).await
}

#[tauri::command]
pub async fn set_memory_enabled(
    shell: State<'_, Shell>,
    request: SetMemoryEnabledRequest,
) -> Result<MemorySwitch, CommandError> {
    blocking(&shell, move |app| app.set_memory_enabled(&request)).await
}
