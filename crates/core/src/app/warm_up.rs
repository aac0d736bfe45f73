//! Warm-up of the embedded model (docs/local-model.md#warm-up): with the `local` preset and
//! `llm.local.warm_up` on, the prompt prefix of a conversation's next turn (its phase's system
//! prompt and tools, `ChatService::warm_up_request`) is handed to the model in the background
//! when a long-lived front end opens (the desktop app: a new conversation's phase 1; the CLI's
//! REPL: its conversation) and when a conversation is opened
//! (`get_conversation`, in a long-lived front end), so that the first turn starts from the
//! cache. One at a time: a newer
//! warm-up cancels an older one of another conversation, and a turn cancels a warm-up of
//! another conversation (one of its own goes on: the turn waits for it in the engine's queue
//! and starts from it). Remote presets: nothing happens. This module decides when; building
//! the prefix is the chat service's and evaluating it the engine's.

use std::sync::{Arc, Mutex, PoisonError};

use futures::future::Either;
use tokio_util::sync::CancellationToken;
use vibe_agent::chat::ChatService;
use vibe_llm::{LlmSettingsExt as _, Warmed};
use vibe_store::Conversation;

use crate::app::{App, AppError};

/// The warm-up in progress, if any (one per app).
#[derive(Default, Clone)]
pub(crate) struct WarmUps(Arc<Mutex<State>>);

#[derive(Default)]
struct State {
    next_id: u64,
    running: Option<Running>,
}

struct Running {
    id: u64,
    /// The conversation (`None`: a new one).
    key: Option<String>,
    cancel: CancellationToken,
}

/// The current warm-up's registration; dropping it (the warm-up ended) forgets it.
pub(crate) struct Ticket {
    warm_ups: WarmUps,
    id: u64,
    cancel: CancellationToken,
}

impl Drop for Ticket {
    fn drop(&mut self) {
        let mut state = self.warm_ups.lock();
        if state.running.as_ref().is_some_and(|r| r.id == self.id) {
            state.running = None;
        }
    }
}

impl WarmUps {
    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        self.0.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Register a warm-up of `key`. `None` when one of the same conversation runs already (it
    /// goes on); else one of another conversation is cancelled and this one is current.
    pub(crate) fn start(&self, key: Option<&str>) -> Option<Ticket> {
        let mut state = self.lock();
        if let Some(running) = &state.running {
            if running.key.as_deref() == key {
                return None;
            }
            running.cancel.cancel();
        }
        state.next_id += 1;
        let id = state.next_id;
        let cancel = CancellationToken::new();
        state.running = Some(Running { id, key: key.map(str::to_string), cancel: cancel.clone() });
        Some(Ticket { warm_ups: self.clone(), id, cancel })
    }

    /// A turn of `key` starts: a warm-up of another conversation is cancelled (its prefix would
    /// only delay the turn); one of the same conversation goes on.
    pub(crate) fn before_turn(&self, key: Option<&str>) {
        if let Some(running) = self.lock().running.take_if(|r| r.key.as_deref() != key) {
            running.cancel.cancel();
        }
    }

    /// Cancel the warm-up in progress (the settings changed: its model may be gone).
    pub(crate) fn cancel(&self) {
        if let Some(running) = self.lock().running.take() {
            running.cancel.cancel();
        }
    }

    /// The conversation being warmed up (`Some(None)`: a new conversation's).
    pub(crate) fn running(&self) -> Option<Option<String>> {
        self.lock().running.as_ref().map(|r| r.key.clone())
    }
}

/// One warm-up, registered and ready to run.
pub(crate) struct WarmUpJob {
    service: Arc<ChatService>,
    conversation: Option<Conversation>,
    ticket: Ticket,
}

impl WarmUpJob {
    /// Build the prefix and have the model evaluate it; `Ok(None)` when cancelled (or when the
    /// model keeps no cache of its own).
    pub(crate) async fn run(self) -> Result<Option<Warmed>, AppError> {
        let cancel = self.ticket.cancel.clone();
        if cancel.is_cancelled() {
            return Ok(None);
        }
        let request = self.service.warm_up_request(self.conversation.as_ref())?;
        let model = self.service.model().clone();
        let warm = model.warm_up(request);
        // Dropping the model's future is its cancel: the engine stops between batches.
        match futures::future::select(Box::pin(cancel.cancelled()), warm).await {
            Either::Left(_) => Ok(None),
            Either::Right((done, _)) => Ok(done?),
        }
    }

    /// Run on a thread of its own (the model's future only awaits a channel; building the
    /// prefix reads the database): the caller never waits. The outcome is logged.
    pub(crate) fn spawn(self) {
        let spawned = std::thread::Builder::new().name("warm-up".into()).spawn(move || {
            log_outcome(&futures::executor::block_on(self.run()));
        });
        if let Err(e) = spawned {
            tracing::warn!("no warm-up (cannot start its thread): {e}");
        }
    }
}

fn log_outcome(outcome: &Result<Option<Warmed>, AppError>) {
    match outcome {
        Ok(Some(w)) => tracing::info!(
            prefix_tokens = w.prefix_tokens,
            evaluated = w.evaluated_tokens,
            reused = w.reused_tokens,
            state_loaded = w.state_loaded,
            "local model warmed up"
        ),
        Ok(None) => tracing::debug!("warm-up cancelled or not needed"),
        // Often the settings' problem, which the next turn reports to the person.
        Err(e) => tracing::info!(kind = e.kind().as_str(), "no warm-up: {e}"),
    }
}

impl App {
    /// Warm up the prefix of `conversation_id`'s next turn (`None`: a new conversation's) and
    /// wait for it (`vibe bench local --warm-up`, tests). `Ok(None)`: nothing to do (another
    /// preset, `llm.local.warm_up` off, the same warm-up already running) or cancelled.
    pub async fn warm_up(&self, conversation_id: Option<&str>) -> Result<Option<Warmed>, AppError> {
        let conversation = conversation_id.map(|id| self.store.conversation(id)).transpose()?;
        match self.warm_up_job(conversation)? {
            Some(job) => job.run().await,
            None => Ok(None),
        }
    }

    /// Warm up in the background as a long-lived front end opens: the conversation it shows
    /// first (`None`: a new one, as the desktop app's window; the REPL of `vibe chat
    /// --conversation ID`: that one). Returns at once; the model is set up on the warm-up's
    /// thread.
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
                Ok(Some(job)) => log_outcome(&futures::executor::block_on(job.run())),
                Ok(None) => {}
                Err(e) => log_outcome(&Err(e)),
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

    /// A conversation was opened: warm up its prefix in the background (errors are logged;
    /// opening it never fails for them). Only in a long-lived front end (the desktop app): a
    /// one-shot command (`vibe conversations show`) ends before it could be used.
    pub(crate) fn warm_up_in_background(&self, conversation: &Conversation) {
        if !self.assembly().long_lived {
            return;
        }
        match self.warm_up_job(Some(conversation.clone())) {
            Ok(Some(job)) => job.spawn(),
            Ok(None) => {}
            Err(e) => log_outcome(&Err(e)),
        }
    }

    /// A registered warm-up of `conversation`, when one applies: the `local` preset of the
    /// settings (not an injected model) with `llm.local.warm_up` on.
    fn warm_up_job(
        &self,
        conversation: Option<Conversation>,
    ) -> Result<Option<WarmUpJob>, AppError> {
        if self.assembly().ready_model.is_some() {
            return Ok(None);
        }
        let endpoint = self.llm_settings(None, None).resolve()?;
        if !applies(endpoint.preset.id, endpoint.local.warm_up) {
            return Ok(None);
        }
        let service = self.chat_service()?;
        let key = conversation.as_ref().map(|c| c.id.as_str());
        let Some(ticket) = self.warm_ups.start(key) else { return Ok(None) };
        Ok(Some(WarmUpJob { service, conversation, ticket }))
    }
}

/// Whether a warm-up applies to an endpoint of `preset` with the setting `on`: only the
/// embedded engine keeps a prompt cache the app can fill.
fn applies(preset: &str, on: bool) -> bool {
    on && preset == vibe_llm::LOCAL_PRESET
}

#[cfg(test)]
#[path = "warm_up_tests.rs"]
mod tests;
