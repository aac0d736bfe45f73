//! Turns: `send_message` (events streamed to the caller's sink until the run ends),
//! `cancel_run` and `resolve_approval` from any other task while a turn runs. The run's id is
//! the caller's (checked fresh) or minted here, and the run registered under it before it starts. The chat service behind them
//! is built here at the first turn from the assembly in force (`assembly.rs`); turns
//! themselves are the chat service's.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};

use tokio_util::sync::CancellationToken;
use vibe_wire::command::{
    CancelRunRequest, CancelRunResponse, ResolveApprovalRequest, ResolveApprovalResponse,
    SendMessageRequest, SendMessageResponse, TurnInput,
};

use crate::app::{App, AppError};
use vibe_agent::agent::Approver;
use vibe_agent::chat::{ChatService, ChatSetup, ProtocolChoiceMade, TurnRequest};
use vibe_context::ContextLimitsExt as _;
use vibe_runlog::emit::EventSink;

/// The runs in progress in this app, by run id, with what cancels each.
#[derive(Default)]
pub struct LiveRuns(Mutex<HashMap<String, CancellationToken>>);

impl LiveRuns {
    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, CancellationToken>> {
        self.0.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Ids of the runs in progress.
    pub fn running(&self) -> Vec<String> {
        self.lock().keys().cloned().collect()
    }

    /// Registers the run; `None` when a run with that id is already in progress.
    fn register(self: &Arc<Self>, run_id: &str, cancel: CancellationToken) -> Option<Registered> {
        let mut live = self.lock();
        if live.contains_key(run_id) {
            return None;
        }
        live.insert(run_id.to_string(), cancel);
        Some(Registered { live: self.clone(), run_id: run_id.to_string() })
    }
}

/// A run registered under the id its caller minted, from before it starts until it ends (the
/// guard's drop forgets it), so `cancel_run` finds it at once.
struct Registered {
    live: Arc<LiveRuns>,
    run_id: String,
}

impl Drop for Registered {
    fn drop(&mut self) {
        self.live.lock().remove(&self.run_id);
    }
}

impl App {
    /// `send_message`: one turn. Approvals wait for [`App::resolve_approval`]; the turn can
    /// be stopped with [`App::cancel_run`] (its id is in every event). Memory passes the reply
    /// makes due run after it is returned ([`App::settle`] waits for them).
    pub async fn send_message(
        &self,
        request: SendMessageRequest,
        sink: Arc<dyn EventSink>,
    ) -> Result<SendMessageResponse, AppError> {
        let approver: Arc<dyn Approver> = self.approvals.clone();
        self.send_message_with(request, vec![sink], approver, CancellationToken::new()).await
    }

    /// As [`App::send_message`], with the caller's sinks, approver (a policy, or a terminal
    /// prompt) and cancellation (e.g. Ctrl-C). `cancel_run` works for it too.
    pub async fn send_message_with(
        &self,
        request: SendMessageRequest,
        sinks: Vec<Arc<dyn EventSink>>,
        approver: Arc<dyn Approver>,
        cancel: CancellationToken,
    ) -> Result<SendMessageResponse, AppError> {
        let minted = request.run_id.clone();
        // A warm-up of another conversation would only delay this turn.
        self.warm_ups.before_turn(request.conversation_id.as_deref());
        let mut turn = turn_request(request)?;
        let service = self.chat_service()?;
        // The run's id is the caller's (a front end that can stop the run before any event names
        // it) or minted here; registered before the run starts, so `cancel_run` finds it at once.
        let run_id = match minted {
            Some(id) => self.fresh_run_id(id)?,
            None => uuid::Uuid::now_v7().to_string(),
        };
        let registered = self.live.register(&run_id, cancel.clone()).ok_or_else(|| {
            AppError::InvalidInput(format!("run id {run_id} is in use by a running turn"))
        })?;
        turn.run_id = Some(run_id);
        let result = service.run_turn(turn, sinks, approver, cancel).await;
        // The run is over: it can no longer be cancelled.
        drop(registered);
        let result = result?;
        Ok(SendMessageResponse {
            run_id: result.run_id,
            conversation_id: result.conversation_id,
            stop_reason: result.stop_reason,
            text: result.text,
            usage: result.usage,
            skill: result.skill,
        })
    }

    /// A run id a caller minted: a UUID no recorded run has (a reused id would write into an
    /// earlier run's log).
    fn fresh_run_id(&self, id: String) -> Result<String, AppError> {
        if uuid::Uuid::parse_str(&id).is_err() {
            return Err(AppError::InvalidInput(format!(
                "run id \"{id}\" is not a UUID: mint one (e.g. a UUID v7) or leave it out"
            )));
        }
        let recorded = self.store.run(&id)?.is_some() || self.run_folders.run_dir(&id)?.exists();
        if recorded {
            return Err(AppError::InvalidInput(format!(
                "run id {id} was used by an earlier run: mint a new one for each turn"
            )));
        }
        Ok(id)
    }

    /// `cancel_run`: stop a run of this app (from any task).
    pub fn cancel_run(&self, request: &CancelRunRequest) -> CancelRunResponse {
        let token = self.live.lock().get(&request.run_id).cloned();
        match token {
            Some(token) => {
                token.cancel();
                CancelRunResponse { cancelled: true }
            }
            None => CancelRunResponse { cancelled: false },
        }
    }

    /// `resolve_approval`: the person's answer to an `approval_required` event of a turn sent
    /// with [`App::send_message`].
    pub fn resolve_approval(&self, request: &ResolveApprovalRequest) -> ResolveApprovalResponse {
        let always = if request.always && request.approved {
            self.approvals.connection(&request.request_id)
        } else {
            None
        };
        let resolved = self.approvals.resolve(&request.request_id, request.approved);
        if resolved && let Some(c) = always {
            // The call goes ahead either way; a setting that cannot be written is said in the
            // log (the next call asks again).
            if let Err(e) = self.always_allow_mcp_tool(&c.server, &c.tool) {
                tracing::warn!(server = %c.server, tool = %c.tool, "cannot save always allow: {e}");
            }
        }
        ResolveApprovalResponse { resolved }
    }

    /// Approval requests waiting for an answer now.
    pub fn pending_approvals(&self) -> Vec<String> {
        self.approvals.waiting()
    }

    /// Runs in progress in this app.
    pub fn running(&self) -> Vec<String> {
        self.live.running()
    }

    /// Set up the model and the chat service now (a front end's early check: a configuration
    /// error is reported before anything is stored). Returns the set-up's notices.
    pub fn prepare_chat(&self) -> Result<Vec<String>, AppError> {
        vibe_agent::safety::warm_up();
        self.chat_service()?;
        Ok(self.notices())
    }

    /// The chat service turns run on (built now from the settings in force when missing);
    /// for hosts that drive it directly, like test harnesses.
    pub fn chat(&self) -> Result<Arc<ChatService>, AppError> {
        self.chat_service()
    }

    /// Wait for the work a turn left running after its reply (memory passes): a one-shot
    /// front end calls it before it exits.
    pub async fn settle(&self) {
        let service = self.service.lock().unwrap_or_else(PoisonError::into_inner).clone();
        if let Some(service) = service {
            service.settle().await;
        }
    }

    /// The chat service for the next turn, built from the assembly in force when missing.
    pub(crate) fn chat_service(&self) -> Result<Arc<ChatService>, AppError> {
        let mut slot = self.service.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(service) = slot.as_ref() {
            return Ok(service.clone());
        }
        let assembly = self.assembly();
        let (model, notices) = self.build_model(None, None)?;
        let mut config = assembly.chat.clone();
        // The embedded engine's window is the model file's (capped by the settings): the
        // budgets follow it (docs/local-model.md, "Budgets follow the model").
        if let Some(window) = self.local_window()? {
            config.context = config.context.fitted_to(window)?;
            config.budgets = config.budgets.for_context(&config.context);
        }
        let service = ChatService::new(ChatSetup {
            store: self.store.clone(),
            skills: self.skills(),
            model,
            runs: Some(self.run_folders.clone()),
            config,
            tools: assembly.tools.clone(),
            clock: assembly.clock.clone(),
            runs_ahead: assembly.long_lived,
            connections: self.mcp_connections(),
            language: self.chosen_language(),
        })?;
        *self.notices.lock().unwrap_or_else(PoisonError::into_inner) = notices;
        let service = Arc::new(service);
        *slot = Some(service.clone());
        Ok(service)
    }
}

fn turn_request(request: SendMessageRequest) -> Result<TurnRequest, AppError> {
    let (message, retry, choice) = match request.input {
        TurnInput::Say { text } => (text, false, None),
        TurnInput::Retry => {
            if request.conversation_id.is_none() {
                return Err(AppError::NeedsConversation);
            }
            (String::new(), true, None)
        }
        TurnInput::Choose { protocol_id, choice, label } => {
            if request.conversation_id.is_none() {
                return Err(AppError::NeedsConversation);
            }
            // The button's words are the person's message; a blank label says the choice.
            let label = match label.trim() {
                "" => choice.as_str().to_string(),
                words => words.to_string(),
            };
            (label, false, Some(ProtocolChoiceMade { protocol_id, choice }))
        }
    };
    Ok(TurnRequest {
        run_id: None,
        conversation_id: request.conversation_id,
        message,
        skill: request.skill,
        scenario: request.scenario,
        voice_mode: request.voice_mode,
        retry,
        choice,
    })
}
