//! Conversation commands: list, get (with messages), rename, delete, search.

use tauri::State;
use vibe_wire::command::{
    CommandError, ConversationDetail, ConversationList, ConversationSummary,
    DeleteConversationRequest, DeleteConversationResponse, GetConversationRequest,
    RenameConversationRequest, SearchConversationsRequest,
};

use super::blocking;
use crate::shell::Shell;

#[tauri::command]
pub async fn list_conversations(shell: State<'_, Shell>) -> Result<ConversationList, CommandError> {
    blocking(&shell, |app| app.list_conversations()).await
}

#[tauri::command]
pub async fn get_conversation(
    shell: State<'_, Shell>,
    request: GetConversationRequest,
) -> Result<ConversationDetail, CommandError> {
    blocking(&shell, move |app| app.get_conversation(&request)).await
}

#[tauri::command]
pub async fn rename_conversation(
    shell: State<'_, Shell>,
    request: RenameConversationRequest,
) -> Result<ConversationSummary, CommandError> {
    blocking(&shell, move |app| app.rename_conversation(&request)).await
}

#[tauri::command]
pub async fn delete_conversation(
    shell: State<'_, Shell>,
    request: DeleteConversationRequest,
) -> Result<DeleteConversationResponse, CommandError> {
    blocking(&shell, move |app| app.delete_conversation(&request)).await
}

#[tauri::command]
pub async fn search_conversations(
    shell: State<'_, Shell>,
    request: SearchConversationsRequest,
) -> Result<ConversationList, CommandError> {
    blocking(&shell, move |app| app.search_conversations(&request)).await
}
