//! `ChatService::run_turn`: one request → one run (see the module docs of `chat`).

use std::path::PathBuf;
use std::sync::Arc;

use serde::{Deserialize, Serialize};
use serde_json::json;
use tokio_util::sync::CancellationToken;
use vibe_context::{ContextBuilder, ContextLimits};
use vibe_llm::{ChatModel, Message};
use vibe_skills::Registry;
use vibe_store::{LOCAL_USER, NewMessage, Role, Store};
use vibe_wire::{ErrorInfo, Event, Phase, RunStatus, StopReason, TokenUsage};

use crate::CoreError;
use crate::agent::{AgentInput, Approver, Budgets, run_agent};
use crate::emit::{Emitter, EventSink};
use crate::store_io::blocking;
use crate::tools::{ToolRegistry, ToolsSettings};

pub use run_folders::recover_runs;
use run_folders::{Spares, UNSAVED_FILE, say_unsaved};

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
    pub protocol: vibe_protocol::ProtocolSettings,
    /// When memory extraction runs by itself (docs/memory.md).
    pub memory: crate::memory::MemorySettings,
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
    pub voice_mode: Option<vibe_wire::VoiceMode>,
    /// Answer the conversation's last user message again instead of a new one.
    pub retry: bool,
    /// A protocol invitation's button, pressed: `message` is its label.
    pub choice: Option<ProtocolChoiceMade>,
}

/// A protocol invitation's action chosen with a button rather than typed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProtocolChoiceMade {
    pub protocol_id: String,
    pub choice: vibe_wire::ProtocolChoice,
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
    protocol_clock: vibe_protocol::Clock,
    /// Held while memory passes run, so a turn's end and the idle check never read the same
    /// messages twice at once (`memory_hook.rs`).
    memory_passes: tokio::sync::Mutex<()>,
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
            protocol_clock: vibe_protocol::system_clock(),
            memory_passes: tokio::sync::Mutex::new(()),
        })
    }

    /// Run skill scripts under the limits of the `tools` settings section.
    pub fn with_tools_settings(mut self, settings: &ToolsSettings) -> Self {
        self.tools = Arc::new(
            ToolRegistry::from_settings(settings).with_protocol_clock(self.protocol_clock.clone()),
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

    /// Run one turn, sending its events to `sinks` (and the audit log).
    pub async fn run_turn(
        &self,
        request: TurnRequest,
        sinks: Vec<Arc<dyn EventSink>>,
        approver: Arc<dyn Approver>,
        cancel: CancellationToken,
    ) -> Result<TurnResult, CoreError> {
        let conversation = self.open_conversation(&request).await?;
        // The open audit log locks the run folder before the run row exists, so recovery in
        // another process never takes this run for a dead one.
        let (run_id, audit) = self.new_run()?;
        let audit = audit.map(Arc::new);
        let run_dir = self.run_dir(&run_id);
        let (user_message, user_message_id) =
            self.start_run(&conversation.id, &request, &run_id).await?;

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
        // Safety first: a risky message (concern or acute) pauses the protocol and gets the
        // supportive section instead of the protocol's for this turn (a retry is screened
        // again).
        let (safety, check_usage) =
            self.safety_turn(&conversation, &user_message, user_message_id, &emitter).await;
        let protocol_prompt = match safety {
            Some(turn) => Some(turn.prompt),
            None => {
                self.protocol_turn(&conversation, &user_message, request.choice.as_ref(), &emitter)
                    .await
            }
        };
        let unsaved_note = run_dir.as_ref().map(|d| d.join(UNSAVED_FILE));
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
        let mut outcome = match run_agent(input).await {
            Ok(outcome) => outcome,
            Err(err) => {
                say_unsaved(&err, unsaved_note.as_deref(), &emitter);
                emitter.emit(Event::Error { error: ErrorInfo::new(err.kind(), err.to_string()) });
                emitter.emit(Event::RunFinished {
                    stop_reason: StopReason::Failed,
                    usage: TokenUsage::default(),
                    rounds: 0,
                    tool_calls: 0,
                });
                let id = run_id.clone();
                let closed = blocking(&self.store, move |s| {
                    s.finish_run(&id, RunStatus::Failed, StopReason::Failed, &json!({}))
                })
                .await;
                // The run's own error is the one to report; a failed close is left to recovery.
                if let Err(e) = closed {
                    tracing::warn!(run_id = %run_id, "cannot close the failed run: {e}");
                }
                return Err(err);
            }
        };
        // The safety model check (if any) is part of the run: its tokens count in its usage.
        if let Some(usage) = check_usage {
            outcome.usage.add(usage);
        }
        let (id, reason, answer) = (run_id.clone(), outcome.stop_reason, outcome.answer);
        let usage = serde_json::to_value(outcome.usage).unwrap_or_default();
        let closed = blocking(&self.store, move |s| {
            s.finish_run_with(&id, reason.run_status(), reason, &usage, answer)
        })
        .await;
        // The last answer is stored as the run closes: if that cannot be saved, the reply
        // shown is unsaved and the run failed.
        if let Err(err) = closed {
            say_unsaved(&err, unsaved_note.as_deref(), &emitter);
            emitter.emit(Event::Error { error: ErrorInfo::new(err.kind(), err.to_string()) });
            emitter.emit(Event::RunFinished {
                stop_reason: StopReason::Failed,
                usage: outcome.usage,
                rounds: outcome.rounds,
                tool_calls: outcome.tool_calls,
            });
            let id = run_id.clone();
            let failed = blocking(&self.store, move |s| {
                s.finish_run(&id, RunStatus::Failed, StopReason::Failed, &json!({}))
            })
            .await;
            if let Err(e) = failed {
                tracing::warn!(run_id = %run_id, "cannot close the failed run: {e}");
            }
            return Err(err);
        }
        emitter.emit(Event::RunFinished {
            stop_reason: outcome.stop_reason,
            usage: outcome.usage,
            rounds: outcome.rounds,
            tool_calls: outcome.tool_calls,
        });
        self.extract_memory_due().await;
        Ok(TurnResult {
            run_id,
            conversation_id: conversation.id,
            stop_reason: outcome.stop_reason,
            text: outcome.final_text,
            usage: outcome.usage,
            skill: outcome.active_skill,
        })
    }

    /// The conversation the turn belongs to (made for a first message), as stored once the
    /// request's skill and voice mode are set.
    async fn open_conversation(
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
                        "a retry needs the conversation whose last message to answer again".into(),
                    ));
                }
                let title: String = request.message.trim().chars().take(40).collect();
                let user = self.user.clone();
                blocking(&self.store, move |s| s.create_conversation(&user, Some(&title))).await?
            }
        };
        if let Some(skill) = &request.skill {
            let scenario = request.scenario.clone().or_else(|| {
                self.skills.skill(skill).ok().and_then(|e| e.meta.default_scenario.clone())
            });
            let (id, skill) = (conversation.id.clone(), skill.clone());
            blocking(&self.store, move |s| {
                s.set_conversation_skill(&id, Some(&skill), scenario.as_deref())
            })
            .await?;
        }
        if let Some(mode) = request.voice_mode {
            let id = conversation.id.clone();
            blocking(&self.store, move |s| s.set_conversation_voice_mode(&id, Some(mode))).await?;
        }
        if request.skill.is_some() || request.voice_mode.is_some() {
            // Read back what was just set (a skill's default scenario, the mode).
            return Ok(self.store.conversation(&conversation.id)?);
        }
        Ok(conversation)
    }

    /// Record the run and, in the same transaction, the user message (before any model call);
    /// for a retry, find the last user message again. The writes wait for the database's
    /// write lock on a blocking thread (`store_io`).
    async fn start_run(
        &self,
        conversation_id: &str,
        request: &TurnRequest,
        run_id: &str,
    ) -> Result<(String, i64), CoreError> {
        if request.retry {
            let last = self.store.last_user_message(conversation_id)?.ok_or_else(|| {
                CoreError::InvalidRequest("this conversation has no message to retry".into())
            })?;
            let (run, conversation) = (run_id.to_string(), conversation_id.to_string());
            blocking(&self.store, move |s| s.start_run(&run, &conversation, None)).await?;
            return Ok((last.content, last.id));
        }
        let text = request.message.trim().to_string();
        let tokens = self.context.tokenizer().count_message(&Message::user(text.clone()));
        let message = NewMessage { token_count: tokens, ..NewMessage::text(Role::User, text) };
        let (run, conversation) = (run_id.to_string(), conversation_id.to_string());
        let stored =
            blocking(&self.store, move |s| s.start_run(&run, &conversation, Some(message)))
                .await?
                .ok_or_else(|| {
                    CoreError::InvalidRequest("the user message was not stored".into())
                })?;
        Ok((stored.content, stored.id))
    }
}

#[path = "memory_hook.rs"]
mod memory_hook;
#[path = "protocol_hook.rs"]
mod protocol_hook;
#[path = "run_folders.rs"]
mod run_folders;
#[path = "safety_hook.rs"]
mod safety_hook;
