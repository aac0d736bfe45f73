//! Conversation commands: list, get, rename, delete (with the run folders), search.

use vibe_store::{Conversation, LOCAL_USER};
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

    /// `get_conversation`: [`App::conversation_detail`]. The conversation is being opened:
    /// with the local preset its next turn's prompt prefix is warmed up in the background
    /// (`warm_up.rs`).
    pub fn get_conversation(
        &self,
        request: &GetConversationRequest,
    ) -> Result<ConversationDetail, AppError> {
        let conversation = self.store.conversation(&request.id)?;
        self.warm_up_in_background(&conversation);
        self.detail_of(conversation)
    }

    /// A conversation with its messages, oldest first, and the crisis contacts when a message
    /// of it is marked (the app shows its notice again, docs/safety.md). A read only: what
    /// reads conversations without opening one (an export) warms nothing up.
    pub(crate) fn conversation_detail(&self, id: &str) -> Result<ConversationDetail, AppError> {
        self.detail_of(self.store.conversation(id)?)
    }

    fn detail_of(&self, conversation: Conversation) -> Result<ConversationDetail, AppError> {
        let messages = self.store.messages(&conversation.id)?;
        let crisis_resources = messages.iter().any(|m| m.safety.is_some()).then(|| {
            let language = self.chosen_language();
            vibe_agent::crisis_resources(&self.store, &conversation.user_id, language.as_deref())
        });
        Ok(ConversationDetail {
            conversation: dto::conversation(conversation),
            messages: messages.into_iter().map(dto::message).collect(),
            crisis_resources,
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

    /// `delete_conversation`: with its messages, its run rows and then its run folders
    /// (`runs/<run_id>/`, which hold the messages' text too; docs/privacy.md#deleting) and
    /// the embedded engine's saved prompt state of it (`kv-states/`). The
    /// rows go first, in one transaction: a crash before the folders are removed leaves
    /// folders no row points to, never a row pointing at a missing folder. A folder that
    /// cannot be removed is logged and named in the error.
    pub fn delete_conversation(
        &self,
        request: &DeleteConversationRequest,
    ) -> Result<DeleteConversationResponse, AppError> {
        let runs = self.store.delete_conversation(&request.id)?;
        let mut failed = None;
        // The embedded engine's saved prompt state of it (docs/local-model.md#saved-states).
        if let Err(err) = vibe_local_llm::delete_saved_state(&self.paths.data_dir, &request.id) {
            let dir = self.paths.data_dir.join(vibe_local_llm::STATES_DIR);
            tracing::warn!(dir = %dir.display(), "cannot remove a deleted conversation's saved prompt state: {err}");
            failed = Some((format!("its saved prompt state in {}", dir.display()), err));
        }
        for run_id in &runs {
            let dir = vibe_runlog::run_dir(&self.paths.data_dir, run_id)?;
            match std::fs::remove_dir_all(&dir) {
                Ok(()) => {}
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
                Err(err) => {
                    tracing::warn!(dir = %dir.display(), "cannot remove a deleted run's folder: {err}");
                    failed.get_or_insert((format!("its run folder {}", dir.display()), err));
                }
            }
        }
        if let Some((what, err)) = failed {
            return Err(AppError::Files {
                what: format!(
                    "the conversation {} was deleted, but {what} could not be removed \
                     (remove it by hand)",
                    request.id,
                ),
                err,
            });
        }
        Ok(DeleteConversationResponse { deleted: request.id.clone(), runs_removed: runs })
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
