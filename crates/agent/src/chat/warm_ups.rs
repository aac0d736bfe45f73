//! One warm-up at a time (docs/local-model.md#warm-up): [`WarmUps`] registers the warm-up in
//! progress and which conversation it is for; a newer warm-up cancels an older one of another
//! conversation, and a turn cancels a warm-up of another conversation (one of its own goes on:
//! the turn waits for it in the engine's queue and starts from it).
//! [`ChatService::warm_up`] runs one under its [`WarmUpTicket`]. When to warm up is the host's
//! (the core's `app/warm_up.rs`); the prefix is `warm_up.rs`'.

use std::sync::{Arc, Mutex, PoisonError};

use futures::future::Either;
use tokio_util::sync::CancellationToken;
use vibe_llm::Warmed;
use vibe_store::Conversation;

use super::ChatService;
use crate::CoreError;

/// The warm-up in progress, if any (one per app).
#[derive(Default, Clone)]
pub struct WarmUps(Arc<Mutex<State>>);

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
pub struct WarmUpTicket {
    warm_ups: WarmUps,
    id: u64,
    cancel: CancellationToken,
}

impl Drop for WarmUpTicket {
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
    pub fn start(&self, key: Option<&str>) -> Option<WarmUpTicket> {
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
        Some(WarmUpTicket { warm_ups: self.clone(), id, cancel })
    }

    /// A turn of `key` starts: a warm-up of another conversation is cancelled (its prefix would
    /// only delay the turn); one of the same conversation goes on.
    pub fn before_turn(&self, key: Option<&str>) {
        if let Some(running) = self.lock().running.take_if(|r| r.key.as_deref() != key) {
            running.cancel.cancel();
        }
    }

    /// Cancel the warm-up in progress (the settings changed: its model may be gone).
    pub fn cancel(&self) {
        if let Some(running) = self.lock().running.take() {
            running.cancel.cancel();
        }
    }

    /// The conversation being warmed up (`Some(None)`: a new conversation's).
    pub fn running(&self) -> Option<Option<String>> {
        self.lock().running.as_ref().map(|r| r.key.clone())
    }
}

impl WarmUpTicket {
    /// Whether a newer warm-up, a turn or the host cancelled this one.
    pub fn is_cancelled(&self) -> bool {
        self.cancel.is_cancelled()
    }
}

/// One warm-up, registered and ready to run: the service, the conversation (`None`: a new
/// one) and its ticket.
pub struct WarmUpJob {
    pub service: Arc<ChatService>,
    pub conversation: Option<Conversation>,
    pub ticket: WarmUpTicket,
}

impl WarmUpJob {
    pub async fn run(self) -> Result<Option<Warmed>, CoreError> {
        self.service.warm_up(self.conversation.as_ref(), &self.ticket).await
    }

    /// Run to its end on this thread (the model's future only awaits a channel; building the
    /// prefix reads the database) and log the outcome.
    pub fn run_blocking(self) {
        log_warm_up(&futures::executor::block_on(self.run()).map_err(|e| e.to_string()));
    }

    /// Run on a thread of its own: the caller never waits.
    pub fn spawn(self) {
        if let Err(e) =
            std::thread::Builder::new().name("warm-up".into()).spawn(|| self.run_blocking())
        {
            tracing::warn!("no warm-up (cannot start its thread): {e}");
        }
    }
}

/// The log line of a warm-up's outcome (a failure is often the settings' problem, which the
/// next turn reports to the person).
pub fn log_warm_up(outcome: &Result<Option<Warmed>, String>) {
    match outcome {
        Ok(Some(w)) => tracing::info!(
            prefix_tokens = w.prefix_tokens,
            evaluated = w.evaluated_tokens,
            reused = w.reused_tokens,
            state_loaded = w.state_loaded,
            "local model warmed up"
        ),
        Ok(None) => tracing::debug!("warm-up cancelled or not needed"),
        Err(e) => tracing::info!("no warm-up: {e}"),
    }
}

impl ChatService {
    /// Have the model warm up `conversation`'s prefix ([`ChatService::warm_up_request`]) while
    /// `ticket` holds; `Ok(None)` when cancelled, or when the model keeps no cache of its own.
    pub async fn warm_up(
        &self,
        conversation: Option<&Conversation>,
        ticket: &WarmUpTicket,
    ) -> Result<Option<Warmed>, CoreError> {
        if ticket.is_cancelled() {
            return Ok(None);
        }
        let request = self.warm_up_request(conversation)?;
        let warm = self.model().warm_up(request);
        // Dropping the model's future is its cancel: the engine stops between batches.
        match futures::future::select(Box::pin(ticket.cancel.cancelled()), warm).await {
            Either::Left(_) => Ok(None),
            Either::Right((done, _)) => Ok(done?),
        }
    }
}

#[cfg(test)]
#[path = "warm_ups_tests.rs"]
mod tests;
