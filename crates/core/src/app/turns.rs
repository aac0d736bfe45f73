//! Turns: `send_message` (events streamed to the caller's sink until the run ends),
//! `cancel_run` and `resolve_approval` from any other task while a turn runs. The chat
//! service behind them is built here at the first turn from the settings in force; turns
//! themselves are the chat service's.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};

use tokio_util::sync::CancellationToken;
use vibe_wire::Envelope;
use vibe_wire::command::{
    CancelRunRequest, CancelRunResponse, ResolveApprovalRequest, ResolveApprovalResponse,
    SendMessageRequest, SendMessageResponse, TurnInput,
};

use crate::agent::Approver;
use crate::app::{App, AppError};
use crate::chat::{ChatService, ProtocolChoiceMade, TurnRequest};
use crate::emit::EventSink;

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
}

/// Registers a run under its id as soon as its first event names it, so `cancel_run` finds
/// it; the turn removes it when it ends.
struct Register {
    live: Arc<LiveRuns>,
    cancel: CancellationToken,
    run_id: Mutex<Option<String>>,
}

impl EventSink for Register {
    fn send(&self, envelope: &Envelope) {
        let mut slot = self.run_id.lock().unwrap_or_else(PoisonError::into_inner);
        if slot.is_none() && !envelope.run_id.is_empty() {
            self.live.lock().insert(envelope.run_id.clone(), self.cancel.clone());
            *slot = Some(envelope.run_id.clone());
        }
    }
}

impl Drop for Register {
    fn drop(&mut self) {
        let slot = self.run_id.get_mut().unwrap_or_else(PoisonError::into_inner);
        if let Some(id) = slot.take() {
            self.live.lock().remove(&id);
        }
    }
}

impl App {
    /// `send_message`: one turn. Approvals wait for [`App::resolve_approval`]; the turn can
    /// be stopped with [`App::cancel_run`] (its id is in the first event).
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
        let turn = turn_request(request)?;
        let service = self.chat_service()?;
        let register = Arc::new(Register {
            live: self.live.clone(),
            cancel: cancel.clone(),
            run_id: Mutex::new(None),
        });
        let mut all: Vec<Arc<dyn EventSink>> = vec![register.clone()];
        all.extend(sinks);
        let result = service.run_turn(turn, all, approver, cancel).await;
        // The run is over: it can no longer be cancelled (Register's drop forgets it).
        drop(register);
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
        ResolveApprovalResponse {
            resolved: self.approvals.resolve(&request.request_id, request.approved),
        }
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
        crate::safety::warm_up();
        self.chat_service()?;
        Ok(self.notices())
    }

    /// The chat service turns run on (built now from the settings in force when missing);
    /// for hosts that drive it directly, like test harnesses.
    pub fn chat(&self) -> Result<Arc<ChatService>, AppError> {
        self.chat_service()
    }

    /// The chat service for the next turn, built from the settings in force when missing.
    pub(crate) fn chat_service(&self) -> Result<Arc<ChatService>, AppError> {
        let mut slot = self.service.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(service) = slot.as_ref() {
            return Ok(service.clone());
        }
        let settings = self.settings();
        let (model, notices) = self.build_model(None, None)?;
        let mut config = settings.chat.clone();
        if self.overrides.seed.is_some() {
            config.seed = self.overrides.seed;
        }
        if let Some(budgets) = self.overrides.budgets {
            config.budgets = budgets;
        }
        if let Some(memory) = self.overrides.memory {
            config.memory = memory;
        }
        let mut service = ChatService::new(
            self.store.clone(),
            self.skills(),
            model,
            Some(self.paths.data_dir.clone()),
            config,
        )?
        .with_tools_settings(&settings.tools);
        if let Some(clock) = &self.overrides.protocol_clock {
            service = service.with_protocol_clock(clock.clone());
        }
        if self.overrides.long_lived {
            service = service.prepare_runs_ahead();
        }
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
        conversation_id: request.conversation_id,
        message,
        skill: request.skill,
        scenario: request.scenario,
        voice_mode: request.voice_mode,
        retry,
        choice,
    })
}
