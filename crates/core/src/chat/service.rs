//! `ChatService::run_turn`: one request → one run (see the module docs of `chat`).

use std::path::PathBuf;
use std::sync::{Arc, Mutex, PoisonError, mpsc};

use serde::{Deserialize, Serialize};
use serde_json::json;
use tokio_util::sync::CancellationToken;
use vibe_llm::{ChatModel, Message};
use vibe_skills::Registry;
use vibe_store::{LOCAL_USER, NewMessage, Recovery, Role, Store};
use vibe_wire::{ErrorInfo, Event, Phase, StopReason, TokenUsage};

use crate::CoreError;
use crate::agent::{AgentInput, Approver, Budgets, run_agent};
use crate::audit::{RunAudit, SpareRun, sweep_spares};
use crate::chat::liveness;
use crate::context::{ContextBuilder, ContextLimits};
use crate::emit::{Emitter, EventSink};
use crate::tools::{ToolRegistry, ToolsSettings};

/// Settings of the chat service (the `chat` section of settings.json); an unknown key is
/// refused.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ChatConfig {
    pub budgets: Budgets,
    pub context: ContextLimits,
    /// Seed for tools that draw at random (tests, evals, replays).
    pub seed: Option<u64>,
    /// Compaction summaries written by the model (one extra call) instead of the
    /// deterministic digest alone.
    pub summarize_with_model: bool,
    /// Protocol rules (idle timeout, recap).
    pub protocol: crate::protocol::ProtocolSettings,
}

/// One request.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TurnRequest {
    /// Continue this conversation; `None` starts a new one.
    pub conversation_id: Option<String>,
    /// What the person said (ignored with `retry`).
    pub message: String,
    /// Activate this skill before the turn (the person picked it).
    pub skill: Option<String>,
    pub scenario: Option<String>,
    pub voice_mode: Option<String>,
    /// Answer the conversation's last user message again instead of a new one.
    pub retry: bool,
}

/// How the run went.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TurnResult {
    pub run_id: String,
    pub conversation_id: String,
    pub stop_reason: StopReason,
    pub text: String,
    pub usage: TokenUsage,
    pub skill: Option<String>,
}

/// The spare run folder kept ready by a background thread (see `audit::spare`).
struct Spares {
    slot: Arc<Mutex<Option<SpareRun>>>,
    wake: mpsc::Sender<()>,
}

impl Drop for Spares {
    fn drop(&mut self) {
        if let Some(spare) = self.slot.lock().unwrap_or_else(PoisonError::into_inner).take() {
            spare.discard();
        }
    }
}

/// The routing layer over the agent.
pub struct ChatService {
    store: Arc<Store>,
    skills: Arc<Registry>,
    tools: Arc<ToolRegistry>,
    context: Arc<ContextBuilder>,
    model: Arc<dyn ChatModel>,
    data_dir: Option<PathBuf>,
    config: ChatConfig,
    user: String,
    spares: Option<Spares>,
    protocol_clock: crate::protocol::Clock,
}

impl ChatService {
    /// `data_dir` holds `runs/` (audit); `None` keeps runs in the database only. Fails on
    /// invalid context limits or when the tokenizer cannot load.
    pub fn new(
        store: Arc<Store>,
        skills: Arc<Registry>,
        model: Arc<dyn ChatModel>,
        data_dir: Option<PathBuf>,
        config: ChatConfig,
    ) -> Result<Self, CoreError> {
        let context = Arc::new(
            ContextBuilder::new(store.clone(), skills.clone(), config.context.clone())?
                .calibrated_for(model.model_name())?,
        );
        let mut config = config;
        config.budgets = config.budgets.for_context(&config.context);
        Ok(Self {
            store,
            skills,
            tools: Arc::new(ToolRegistry::with_builtins()),
            context,
            model,
            data_dir,
            config,
            user: LOCAL_USER.to_string(),
            spares: None,
            protocol_clock: crate::protocol::system_clock(),
        })
    }

    /// Keep a run folder ready ahead of each turn, made by a background thread, so a turn
    /// takes it over with a rename instead of creating a folder and a file. For long-lived
    /// hosts (the desktop app, the REPL); pointless for one turn per process. Needs a data dir.
    pub fn prepare_runs_ahead(mut self) -> Self {
        let Some(dir) = self.data_dir.clone() else { return self };
        let slot: Arc<Mutex<Option<SpareRun>>> = Arc::new(Mutex::new(None));
        let (wake, woken) = mpsc::channel::<()>();
        let worker_slot = Arc::clone(&slot);
        let started = std::thread::Builder::new().name("run-folders".into()).spawn(move || {
            let lock = || worker_slot.lock().unwrap_or_else(PoisonError::into_inner);
            while woken.recv().is_ok() {
                if lock().is_some() {
                    continue;
                }
                match SpareRun::create(&dir) {
                    Ok(spare) => {
                        let mut slot = lock();
                        match slot.as_ref() {
                            None => *slot = Some(spare),
                            Some(_) => spare.discard(),
                        }
                    }
                    Err(e) => tracing::warn!(error = %e, "cannot prepare a run folder ahead"),
                }
            }
            // The service is gone: nothing will take what is left.
            if let Some(spare) = lock().take() {
                spare.discard();
            }
        });
        match started {
            Ok(_) => {
                let _ = wake.send(());
                self.spares = Some(Spares { slot, wake });
            }
            Err(e) => tracing::warn!(error = %e, "cannot start the run-folders thread"),
        }
        self
    }

    /// A new run's id and, with a data dir, its open audit log: the spare folder when one is
    /// ready (and the next one is asked for), else a folder made now.
    fn new_run(&self) -> Result<(String, Option<RunAudit>), CoreError> {
        let Some(dir) = &self.data_dir else { return Ok((uuid::Uuid::now_v7().to_string(), None)) };
        if let Some(spares) = &self.spares {
            let spare = spares.slot.lock().unwrap_or_else(PoisonError::into_inner).take();
            let _ = spares.wake.send(());
            if let Some(spare) = spare {
                match spare.activate(dir) {
                    Ok((id, audit)) => return Ok((id, Some(audit))),
                    Err(e) => tracing::warn!(error = %e, "cannot take over the spare run folder"),
                }
            }
        }
        let id = uuid::Uuid::now_v7().to_string();
        let audit = RunAudit::create(dir, &id)?;
        Ok((id, Some(audit)))
    }

    /// Run skill scripts under the limits of the `tools` settings section.
    pub fn with_tools_settings(mut self, settings: &ToolsSettings) -> Self {
        self.tools = Arc::new(
            ToolRegistry::with_limits(settings.script_limits())
                .with_protocol_clock(self.protocol_clock.clone()),
        );
        self
    }

    pub fn store(&self) -> &Arc<Store> {
        &self.store
    }

    pub fn skills(&self) -> &Arc<Registry> {
        &self.skills
    }

    pub fn context(&self) -> &Arc<ContextBuilder> {
        &self.context
    }

    fn run_dir(&self, run_id: &str) -> Option<PathBuf> {
        self.data_dir.as_ref().map(|d| d.join("runs").join(run_id))
    }

    /// Close runs that a killed process left `running` (their lock is free): partial answers
    /// kept and marked interrupted, dangling tool calls answered "interrupted", run failed.
    /// Spare run folders of processes that are gone are removed.
    pub fn recover(&self) -> Result<Recovery, CoreError> {
        if let Some(dir) = &self.data_dir {
            let swept = sweep_spares(dir);
            if swept > 0 {
                tracing::info!(swept, "removed spare run folders left by a process that is gone");
            }
        }
        let dirs = self.data_dir.clone();
        Ok(self.store.close_interrupted_runs(&|run_id: &str| match &dirs {
            Some(d) => liveness::is_dead(&d.join("runs").join(run_id)),
            None => false,
        })?)
    }

    /// Run one turn, sending its events to `sinks` (and the audit log).
    pub async fn run_turn(
        &self,
        request: TurnRequest,
        sinks: Vec<Arc<dyn EventSink>>,
        approver: Arc<dyn Approver>,
        cancel: CancellationToken,
    ) -> Result<TurnResult, CoreError> {
        let conversation = self.open_conversation(&request)?;
        // The open audit log locks the run folder before the run row exists, so recovery in
        // another process never takes this run for a dead one.
        let (run_id, audit) = self.new_run()?;
        let audit = audit.map(Arc::new);
        let run_dir = self.run_dir(&run_id);
        let (user_message, user_message_id) =
            self.start_run(&conversation.id, &request, &run_id)?;
        let conversation = self.store.conversation(&conversation.id)?;

        let mut all_sinks = sinks;
        if let Some(audit) = &audit {
            all_sinks.push(audit.clone());
        }
        let emitter = Emitter::new(run_id.clone(), all_sinks);
        emitter.emit(Event::RunStarted {
            conversation_id: conversation.id.clone(),
            phase: if conversation.skill.is_some() { Phase::Phase2 } else { Phase::Phase1 },
            skill: conversation.skill.clone(),
            user_message: user_message.clone(),
            model: self.model.model_name().to_string(),
        });
        // Safety first: a risky message pauses the protocol (acute) and gets the supportive
        // section instead of the protocol's for this turn (a retry is screened again).
        let protocol_prompt =
            match self.safety_turn(&conversation, &user_message, user_message_id, &emitter) {
                Some(turn) => {
                    if !turn.pause_protocol {
                        // A concern keeps the protocol's events but not its section.
                        let _ = self.protocol_turn(&conversation, &user_message, &emitter);
                    }
                    Some(turn.prompt)
                }
                None => self.protocol_turn(&conversation, &user_message, &emitter),
            };
        let input = AgentInput {
            store: self.store.clone(),
            skills: self.skills.clone(),
            tools: self.tools.clone(),
            context: self.context.clone(),
            model: self.model.clone(),
            emitter: emitter.clone(),
            approver,
            cancel,
            budgets: self.config.budgets,
            user: self.user.clone(),
            conversation: conversation.clone(),
            run_id: run_id.clone(),
            user_message,
            user_message_id,
            protocol_prompt,
            run_dir,
            audit,
            seed: self.config.seed,
            summarize_with_model: self.config.summarize_with_model,
        };
        let outcome = match run_agent(input).await {
            Ok(outcome) => outcome,
            Err(err) => {
                emitter.emit(Event::Error { error: ErrorInfo::new(err.kind(), err.to_string()) });
                emitter.emit(Event::RunFinished {
                    stop_reason: StopReason::Failed,
                    usage: TokenUsage::default(),
                    rounds: 0,
                    tool_calls: 0,
                });
                self.store.finish_run(
                    &run_id,
                    "failed",
                    StopReason::Failed.as_str(),
                    &json!({}),
                )?;
                return Err(err);
            }
        };
        let status = match outcome.stop_reason {
            StopReason::Cancelled => "cancelled",
            StopReason::ModelError | StopReason::Failed | StopReason::Interrupted => "failed",
            _ => "completed",
        };
        self.store.finish_run_with(
            &run_id,
            status,
            outcome.stop_reason.as_str(),
            &serde_json::to_value(outcome.usage).unwrap_or_default(),
            outcome.answer,
        )?;
        emitter.emit(Event::RunFinished {
            stop_reason: outcome.stop_reason,
            usage: outcome.usage,
            rounds: outcome.rounds,
            tool_calls: outcome.tool_calls,
        });
        Ok(TurnResult {
            run_id,
            conversation_id: conversation.id,
            stop_reason: outcome.stop_reason,
            text: outcome.final_text,
            usage: outcome.usage,
            skill: outcome.active_skill,
        })
    }

    fn open_conversation(
        &self,
        request: &TurnRequest,
    ) -> Result<vibe_store::Conversation, CoreError> {
        if !request.retry && request.message.trim().is_empty() {
            return Err(CoreError::InvalidRequest(
                "the message is empty; say something to your coach".into(),
            ));
        }
        if let Some(skill) = &request.skill {
            let entry = self.skills.skill(skill)?;
            if !entry.meta.user_invocable {
                return Err(CoreError::InvalidRequest(format!(
                    "skill \"{skill}\" cannot be picked directly"
                )));
            }
        }
        let conversation = match &request.conversation_id {
            Some(id) => self.store.conversation(id)?,
            None => {
                if request.retry {
                    return Err(CoreError::InvalidRequest(
                        "--retry needs a conversation: pass --conversation ID (see `vibe conversations list`)".into(),
                    ));
                }
                let title: String = request.message.trim().chars().take(40).collect();
                self.store.create_conversation(&self.user, Some(&title))?
            }
        };
        if let Some(skill) = &request.skill {
            let scenario = request.scenario.clone().or_else(|| {
                self.skills.skill(skill).ok().and_then(|e| e.meta.default_scenario.clone())
            });
            self.store.set_conversation_skill(
                &conversation.id,
                Some(skill),
                scenario.as_deref(),
            )?;
        }
        if let Some(mode) = &request.voice_mode {
            self.store.set_conversation_voice_mode(&conversation.id, Some(mode))?;
        }
        Ok(conversation)
    }

    /// Record the run and, in the same transaction, the user message (before any model call);
    /// for a retry, find the last user message again.
    fn start_run(
        &self,
        conversation_id: &str,
        request: &TurnRequest,
        run_id: &str,
    ) -> Result<(String, i64), CoreError> {
        if request.retry {
            let last = self
                .store
                .messages(conversation_id)?
                .into_iter()
                .rev()
                .find(|m| m.role == Role::User)
                .ok_or_else(|| {
                    CoreError::InvalidRequest("this conversation has no message to retry".into())
                })?;
            self.store.start_run(run_id, conversation_id, None)?;
            return Ok((last.content, last.id));
        }
        let text = request.message.trim().to_string();
        let tokens = self.context.tokenizer().count_message(&Message::user(text.clone()));
        let message = NewMessage { token_count: tokens, ..NewMessage::text(Role::User, text) };
        let stored = self
            .store
            .start_run(run_id, conversation_id, Some(message))?
            .ok_or_else(|| CoreError::InvalidRequest("the user message was not stored".into()))?;
        Ok((stored.content, stored.id))
    }
}

#[path = "protocol_hook.rs"]
mod protocol_hook;
#[path = "safety_hook.rs"]
mod safety_hook;
