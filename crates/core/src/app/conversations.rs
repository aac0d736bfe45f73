//! Conversation commands: list, get, rename, delete, search.

use vibe_store::LOCAL_USER;
use vibe_wire::command::{
    ConversationDetail, ConversationList, ConversationSummary, DeleteConversationRequest,
    DeleteConversationResponse, GetConversationRequest, RenameConversationRequest,
    SearchConversationsRequest,
};

use crate::app::{App, AppError, dto};

/// The longest title kept.
const MAX_TITLE_CHARS: usize = 200;

impl App {
    /// `list_conversations`: newest first.
    pub fn list_conversations(&self) -> Result<ConversationList, AppError> {
        let rows = self.store.list_conversations(LOCAL_USER)?;
        Ok(ConversationList { conversations: rows.into_iter().map(dto::conversation).collect() })
    }

    /// `get_conversation`: with its messages, oldest first.
    pub fn get_conversation(
        &self,
        request: &GetConversationRequest,
    ) -> Result<ConversationDetail, AppError> {
        let conversation = self.store.conversation(&request.id)?;
        let messages = self.store.messages(&request.id)?;
        Ok(ConversationDetail {
            conversation: dto::conversation(conversation),
            messages: messages.into_iter().map(dto::message).collect(),
        })
    }

    /// `rename_conversation`: an empty title clears it.
    pub fn rename_conversation(
        &self,
        request: &RenameConversationRequest,
    ) -> Result<ConversationSummary, AppError> {
        let title = request.title.trim();
        if title.chars().count() > MAX_TITLE_CHARS {
            return Err(AppError::InvalidInput(format!(
                "the title is longer than {MAX_TITLE_CHARS} characters; shorten it"
            )));
        }
        let title = (!title.is_empty()).then_some(title);
        self.store.set_conversation_title(&request.id, title)?;
        Ok(dto::conversation(self.store.conversation(&request.id)?))
    }

    /// `delete_conversation`: with its messages and runs.
    pub fn delete_conversation(
        &self,
        request: &DeleteConversationRequest,
    ) -> Result<DeleteConversationResponse, AppError> {
        self.store.delete_conversation(&request.id)?;
        Ok(DeleteConversationResponse { deleted: request.id.clone() })
    }

    /// `search_conversations`: title or messages containing the query, newest first.
    pub fn search_conversations(
        &self,
        request: &SearchConversationsRequest,
    ) -> Result<ConversationList, AppError> {
        let rows = self.store.search_conversations(LOCAL_USER, &request.query)?;
        Ok(ConversationList { conversations: rows.into_iter().map(dto::conversation).collect() })
    }
}
