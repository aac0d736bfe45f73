//! `ChatService::run_turn`: one request → one run (see the module docs of `chat`): prepare →
//! the pre-turn plan (`plan.rs`) → the agent → one close for every ending. Memory passes a
//! reply makes due run after the reply is returned (`memory_hook.rs`).

use std::path::PathBuf;
use std::sync::Arc;

use serde::Serialize;
use serde_json::json;
use tokio_util::sync::CancellationToken;
use vibe_context::ContextBuilder;
use vibe_llm::ChatModel;
use vibe_protocol::Clock;
use vibe_skills::Registry;
use vibe_store::{LOCAL_USER, Store};
use vibe_wire::{ErrorInfo, Event, RunStatus, StopReason, TokenUsage};

use crate::CoreError;
use crate::agent::{AgentInput, AgentOutcome, Approver, run_agent};
use crate::connections::Connections;
use crate::store_io::blocking;
use crate::tools::{ToolRegistry, ToolsSettings};
use vibe_runlog::emit::{Emitter, EventSink};
use vibe_runlog::{RunAudit, RunFolders};

pub use run_folders::recover_runs;
use run_folders::{Spares, UNSAVED_FILE, say_unsaved};

/// Settings of the chat service: the `chat` section of settings.json (a wire type).
pub use vibe_wire::settings::ChatSettings as ChatConfig;

/// One request.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TurnRequest {
    /// The run's id, minted by the caller so it can cancel the run before any event names it
    /// (`None`: minted here).
    pub run_id: Option<String>,
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

/// Everything a chat service runs with, resolved once by its host (the app resolves settings
/// and overrides into it, `app/assembly.rs`) and taken whole by [`ChatService::new`].
pub struct ChatSetup {
    pub store: Arc<Store>,
    pub skills: Arc<Registry>,
    pub model: Arc<dyn ChatModel>,
    /// Where runs are recorded, with the key sealing them (`None`: the database only).
    pub runs: Option<RunFolders>,
    /// The `chat` settings in force, with the budgets already fitted to the context.
    pub config: ChatConfig,
    /// The limits skill scripts run under (the `tools` settings section).
    pub tools: ToolsSettings,
    /// The clock protocols (and protocol tools) read.
    pub clock: Clock,
    /// Keep a run folder ready ahead of each turn (long-lived hosts: the desktop app, the
    /// REPL); pointless for one turn per process.
    pub runs_ahead: bool,
    /// The enabled MCP servers (`None`: none configured).
    pub connections: Option<Arc<Connections>>,
    /// The app's language choice (`preferences.language` of the settings: `zh-CN`, `en`;
    /// `None` when it follows the system): the crisis contacts' locale when neither the
    /// profile nor the system names one (docs/safety.md#crisis-resources).
    pub language: Option<String>,
}

/// The routing layer over the agent.
pub struct ChatService {
    store: Arc<Store>,
    skills: Arc<Registry>,
    tools: Arc<ToolRegistry>,
    context: Arc<ContextBuilder>,
    model: Arc<dyn ChatModel>,
    runs: Option<RunFolders>,
    config: ChatConfig,
    user: String,
    spares: Option<Spares>,
    protocol_clock: Clock,
    /// Memory passes (`memory_hook.rs`): one at a time, and the ones started after a turn's
    /// reply, for [`ChatService::settle`].
    memory: memory_hook::MemoryPasses,
    connections: Option<Arc<Connections>>,
    pub(crate) language: Option<String>,
}

/// One turn on its way: what `prepare` set up and every later step uses.
struct Turn {
    conversation: vibe_store::Conversation,
    run_id: String,
    audit: Option<Arc<RunAudit>>,
    run_dir: Option<PathBuf>,
    user_message: String,
    user_message_id: i64,
    emitter: Emitter,
}

impl ChatService {
    /// The service over `setup`. Fails on invalid context limits or when the tokenizer
    /// cannot load.
    pub fn new(setup: ChatSetup) -> Result<Self, CoreError> {
        let ChatSetup {
            store,
            skills,
            model,
            runs,
            config,
            tools,
            clock,
            runs_ahead,
            connections,
            language,
        } = setup;
        let context = Arc::new(
            ContextBuilder::new(store.clone(), skills.clone(), config.context.clone())?
                .calibrated_for(model.model_name())?,
        );
        let memory = memory_hook::MemoryPasses::new(
            store.clone(),
            model.clone(),
            runs.clone(),
            LOCAL_USER,
            config.memory,
        );
        let service = Self {
            store,
            skills,
            tools: Arc::new(ToolRegistry::from_settings(&tools).with_protocol_clock(clock.clone())),
            context,
            model,
            runs,
            config,
            user: LOCAL_USER.to_string(),
            spares: None,
            protocol_clock: clock,
            memory,
            connections,
            language,
        };
        Ok(if runs_ahead { service.prepare_runs_ahead() } else { service })
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

    /// The model turns are answered by.
    pub fn model(&self) -> &Arc<dyn ChatModel> {
        &self.model
    }

    /// The connected MCP servers of this service.
    pub fn connections(&self) -> Option<&Arc<Connections>> {
        self.connections.as_ref()
    }

    /// Run one turn, sending its events to `sinks` (and the audit log): prepare (conversation,
    /// run, user message), the pre-turn plan (safety screen, protocol engine), the agent, and
    /// one close for every ending. The memory passes a reply makes due start after it and are
    /// not waited for ([`ChatService::settle`] waits for them).
    pub async fn run_turn(
        &self,
        request: TurnRequest,
        sinks: Vec<Arc<dyn EventSink>>,
        approver: Arc<dyn Approver>,
        cancel: CancellationToken,
    ) -> Result<TurnResult, CoreError> {
        let turn = self.prepare(&request, sinks).await?;
        let plan = self.plan(&turn, request.choice.as_ref()).await;
        for event in plan.events {
            turn.emitter.emit(event);
        }
        let input = AgentInput {
            store: self.store.clone(),
            skills: self.skills.clone(),
            tools: self.tools.clone(),
            context: self.context.clone(),
            model: self.model.clone(),
            emitter: turn.emitter.clone(),
            approver,
            cancel,
            budgets: self.config.budgets,
            user: self.user.clone(),
            conversation: turn.conversation.clone(),
            run_id: turn.run_id.clone(),
            user_message: turn.user_message.clone(),
            user_message_id: turn.user_message_id,
            protocol_prompt: plan.prompt,
            run_dir: turn.run_dir.clone(),
            audit: turn.audit.clone(),
            seed: self.config.seed,
            summarize_with_model: self.config.summarize_with_model,
            connections: self.connections.clone(),
            language: self.language.clone(),
        };
        let ended = run_agent(input).await;
        let result = self.close(&turn, ended, plan.usage).await?;
        self.memory.start_due();
        Ok(result)
    }

    /// Wait for the memory passes started after turns' replies (a one-shot front end before it
    /// exits, tests).
    pub async fn settle(&self) {
        self.memory.settle().await;
    }

    /// Close the run, however it ended: the agent's outcome stored with the last answer in one
    /// commit and `run_finished` sent; or, when the agent failed or the close could not be
    /// saved, the error reported, the run closed as failed and the error returned.
    async fn close(
        &self,
        turn: &Turn,
        ended: Result<AgentOutcome, CoreError>,
        check_usage: Option<TokenUsage>,
    ) -> Result<TurnResult, CoreError> {
        let (err, counts) = match ended {
            Ok(mut outcome) => {
                // The safety model check (if any) is part of the run: its tokens count in its
                // usage.
                if let Some(usage) = check_usage {
                    outcome.usage.add(usage);
                }
                let (id, reason, answer) =
                    (turn.run_id.clone(), outcome.stop_reason, outcome.answer.take());
                let usage = serde_json::to_value(outcome.usage).unwrap_or_default();
                let closed = blocking(&self.store, move |s| {
                    s.finish_run_with(&id, reason.run_status(), reason, &usage, answer)
                })
                .await;
                match closed {
                    Ok(_) => {
                        turn.emitter.emit(Event::RunFinished {
                            stop_reason: outcome.stop_reason,
                            usage: outcome.usage,
                            rounds: outcome.rounds,
                            tool_calls: outcome.tool_calls,
                        });
                        return Ok(TurnResult {
                            run_id: turn.run_id.clone(),
                            conversation_id: turn.conversation.id.clone(),
                            stop_reason: outcome.stop_reason,
                            text: outcome.final_text,
                            usage: outcome.usage,
                            skill: outcome.active_skill,
                        });
                    }
                    // The last answer is stored as the run closes: if that cannot be saved,
                    // the reply shown is unsaved and the run failed.
                    Err(err) => (err, (outcome.usage, outcome.rounds, outcome.tool_calls)),
                }
            }
            Err(err) => (err, (TokenUsage::default(), 0, 0)),
        };
        let (usage, rounds, tool_calls) = counts;
        let unsaved_note = turn.run_dir.as_ref().map(|d| d.join(UNSAVED_FILE));
        say_unsaved(&err, unsaved_note.as_deref(), &turn.emitter);
        turn.emitter.emit(Event::Error { error: ErrorInfo::new(err.kind(), err.to_string()) });
        turn.emitter.emit(Event::RunFinished {
            stop_reason: StopReason::Failed,
            usage,
            rounds,
            tool_calls,
        });
        let id = turn.run_id.clone();
        let failed = blocking(&self.store, move |s| {
            s.finish_run(&id, RunStatus::Failed, StopReason::Failed, &json!({}))
        })
        .await;
        // The run's own error is the one to report; a failed close is left to recovery.
        if let Err(e) = failed {
            tracing::warn!(run_id = %turn.run_id, "cannot close the failed run: {e}");
        }
        Err(err)
    }
}

#[path = "memory_hook.rs"]
mod memory_hook;
#[path = "plan.rs"]
mod plan;
#[path = "prepare.rs"]
mod prepare;
#[path = "protocol_hook.rs"]
mod protocol_hook;
#[path = "run_folders.rs"]
mod run_folders;
#[path = "safety_hook.rs"]
mod safety_hook;
#[path = "warm_up.rs"]
mod warm_up;
#[path = "warm_ups.rs"]
mod warm_ups;

pub use warm_ups::{WarmUpJob, WarmUpTicket, WarmUps, log_warm_up};
