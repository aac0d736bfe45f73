//! Warm-up of the embedded model (docs/local-model.md#warm-up): with the `local` preset and
//! `llm.local.warm_up` on, the prompt prefix of a conversation's next turn is handed to the
//! model in the background when a long-lived front end opens (the desktop app: a new
//! conversation; the CLI's REPL: its conversation) and when one opens a conversation
//! (`get_conversation`), so that the first turn starts from the cache; one at a time
//! (`vibe_agent::chat::WarmUps`). Remote presets: nothing happens. This module decides when;
//! building the prefix is the chat service's, evaluating it the engine's.

use std::sync::Arc;

use vibe_agent::chat::{WarmUpJob, log_warm_up};
use vibe_llm::{LlmSettingsExt as _, Warmed};
use vibe_store::Conversation;

use crate::app::{App, AppError};

impl App {
    /// Warm up the prefix of `conversation_id`'s next turn (`None`: a new conversation's) and
    /// wait for it (`vibe bench local --warm-up`, tests). `Ok(None)`: nothing to do (another
    /// preset, `llm.local.warm_up` off, the same warm-up already running) or cancelled.
    pub async fn warm_up(&self, conversation_id: Option<&str>) -> Result<Option<Warmed>, AppError> {
        let conversation = conversation_id.map(|id| self.store.conversation(id)).transpose()?;
        match self.warm_up_job(conversation)? {
            Some(job) => Ok(job.run().await?),
            None => Ok(None),
        }
    }

    /// Warm up in the background as a long-lived front end opens: the conversation it shows
    /// first (`None`: a new one, as the desktop app's window; the REPL of `vibe chat
    /// --conversation ID`: that one). Returns at once; the model is set up on that thread.
    pub fn warm_up_at_start(self: &Arc<Self>, conversation_id: Option<String>) {
        let app = Arc::downgrade(self);
        let spawned = std::thread::Builder::new().name("warm-up".into()).spawn(move || {
            let Some(app) = app.upgrade() else { return };
            let job = conversation_id
                .map(|id| app.store.conversation(&id))
                .transpose()
                .map_err(AppError::from)
                .and_then(|conversation| app.warm_up_job(conversation));
            drop(app);
            match job {
                Ok(Some(job)) => job.run_blocking(),
                Ok(None) => {}
                Err(e) => log_warm_up(&Err(e.to_string())),
            }
        });
        if let Err(e) = spawned {
            tracing::warn!("no warm-up at start (cannot start its thread): {e}");
        }
    }

    /// The conversation being warmed up now (`Some(None)`: a new conversation's).
    pub fn warming_up(&self) -> Option<Option<String>> {
        self.warm_ups.running()
    }

    /// A conversation was opened: warm up its prefix in the background (opening it never
    /// fails for that). Only in a long-lived front end (the desktop app): a one-shot command
    /// (`vibe conversations show`) ends before it could be used.
    pub(crate) fn warm_up_in_background(&self, conversation: &Conversation) {
        if !self.assembly().long_lived {
            return;
        }
        match self.warm_up_job(Some(conversation.clone())) {
            Ok(Some(job)) => job.spawn(),
            Ok(None) => {}
            Err(e) => log_warm_up(&Err(e.to_string())),
        }
    }

    /// A registered warm-up of `conversation`, when one applies: the `local` preset of the
    /// settings (not an injected model; only the embedded engine keeps a prompt cache the app
    /// can fill) with `llm.local.warm_up` on.
    fn warm_up_job(
        &self,
        conversation: Option<Conversation>,
    ) -> Result<Option<WarmUpJob>, AppError> {
        if self.assembly().ready_model.is_some() {
            return Ok(None);
        }
        let endpoint = self.llm_settings(None, None).resolve()?;
        if endpoint.preset.id != vibe_llm::LOCAL_PRESET || !endpoint.local.warm_up {
            return Ok(None);
        }
        let service = self.chat_service()?;
        let key = conversation.as_ref().map(|c| c.id.as_str());
        let Some(ticket) = self.warm_ups.start(key) else { return Ok(None) };
        Ok(Some(WarmUpJob { service, conversation, ticket }))
    }
}
