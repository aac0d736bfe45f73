//! The async driver of the loop: asks the state machine what to do, does it (read the history,
//! build the prompt and assemble the request — `request` —, stream the model, run tools —
//! `tool_round` —, store each message where the machine says, emit events), and feeds the result
//! back. Each call's history is `window`'s. The system prompt is rebuilt before every model call
//! from current state, so a tool that changed the profile, or `use_skill`, is reflected in the
//! next call of the same turn (docs/design.md#same-turn-reload). Every database write waits on a
//! blocking thread (`store_io`), never on an async worker. It decides nothing itself.

use std::path::PathBuf;
use std::sync::Arc;

use tokio_util::sync::CancellationToken;
use vibe_context::{ContextBuilder, History, PromptRequest, RunParts};
use vibe_llm::{ChatModel, ChatResponse, Message, ToolCall};
use vibe_skills::{McpToolRef, Registry, ToolRef};
use vibe_store::{Conversation, NewMessage, Role, RunAnswer, Store};
use vibe_wire::{Event, Phase, StopReason, TokenUsage};

use crate::CoreError;
use crate::agent::approvals::Approver;
use crate::agent::budgets::Budgets;
use crate::agent::closing;
use crate::agent::execute::shown_arguments;
use crate::agent::fsm::{Action, Machine, StoreAnswer};
use crate::agent::persist::{Draft, tool_calls_json};
use crate::agent::request::{self, RoundState};
use crate::agent::round::{RoundEnd, stream_round};
use crate::connections::Connections;
use crate::store_io::{blocking, off_worker};
use crate::tools::{McpTool, ToolRegistry, ToolSet, UseConnection};
use vibe_runlog::RunAudit;
use vibe_runlog::emit::Emitter;

/// Longest a model round waits for the connections still connecting (a server that needs
/// longer is listed as still connecting; `use_connection` waits for it).
const CONNECT_WAIT: std::time::Duration = std::time::Duration::from_secs(3);

/// Everything one run needs. Built by the chat service.
pub struct AgentInput {
    pub store: Arc<Store>,
    pub skills: Arc<Registry>,
    pub tools: Arc<ToolRegistry>,
    pub context: Arc<ContextBuilder>,
    pub model: Arc<dyn ChatModel>,
    pub emitter: Emitter,
    pub approver: Arc<dyn Approver>,
    pub cancel: CancellationToken,
    pub budgets: Budgets,
    pub user: String,
    /// The conversation, with the active skill restored from the database.
    pub conversation: Conversation,
    pub run_id: String,
    pub user_message: String,
    /// The stored id of the user message this run answers: history is what came up to it;
    /// what this run adds is carried in memory.
    pub user_message_id: i64,
    /// From the protocol engine (a later layer); never trimmed.
    pub protocol_prompt: Option<String>,
    pub run_dir: Option<PathBuf>,
    pub audit: Option<Arc<RunAudit>>,
    pub seed: Option<u64>,
    /// Let the model write compaction summaries (one extra call, counted in the usage).
    pub summarize_with_model: bool,
    /// The connected MCP servers (`None`: none configured).
    pub connections: Option<Arc<Connections>>,
    /// The app's language choice ([`crate::chat::ChatSetup::language`]).
    pub language: Option<String>,
}

/// How the run ended.
#[derive(Debug, Clone, PartialEq)]
pub struct AgentOutcome {
    pub stop_reason: StopReason,
    pub usage: TokenUsage,
    pub rounds: u32,
    pub tool_calls: u32,
    /// The answer text of the last model call (or the closing text).
    pub final_text: String,
    /// The run's last answer, not stored yet: the caller stores it when it closes the run
    /// ([`vibe_store::Store::finish_run_with`]), in one commit.
    pub answer: Option<RunAnswer>,
    pub active_skill: Option<String>,
}

/// The tools offered while a skill is active, built once per run and skill (the two calls of
/// a turn offer the same tools).
struct Offer {
    skill: Option<String>,
    /// The connections `use_connection` opened this turn.
    connected: Vec<String>,
    /// The connections' version it was built at (their tools may have changed since).
    hub_version: u64,
    toolset: ToolSet,
    defs: Vec<vibe_llm::ToolDef>,
}

pub(super) struct Loop {
    pub(super) input: AgentInput,
    offer: Option<Arc<Offer>>,
    pub(super) machine: Machine,
    pub(super) active_skill: Option<String>,
    pub(super) scenario: Option<String>,
    /// Messages of this run after the history (assistant answers and tool results).
    pub(super) run_messages: Vec<Message>,
    pub(super) run_tokens: u32,
    pub(super) pending_calls: Vec<ToolCall>,
    /// The tools the model was offered with `pending_calls`; the calls run against these.
    pub(super) pending_tools: Option<ToolSet>,
    /// History per phase, read once (phase 2 after `use_skill` reads its own window).
    pub(super) histories: Vec<(Phase, History)>,
    pub(super) usage: TokenUsage,
    pub(super) done_tools: Vec<String>,
    pub(super) final_text: String,
    /// The last answer, stored when the run is closed.
    pub(super) answer: Option<RunAnswer>,
    /// The answer whose calls the tool round runs, until it is stored with the first of
    /// their results ([`StoreAnswer::WithResults`]).
    pub(super) calls_answer: Option<RunAnswer>,
    /// The prompt parts this run's model calls share (the skill's static parts, the cases
    /// matched to the person's message).
    prompt_parts: RunParts,
    /// The connections whose tools are offered for the rest of the turn (`use_connection`).
    pub(super) connected: Vec<String>,
}

/// Run the loop to its end. Errors are infrastructure failures (database, skills); model and
/// tool failures end the run normally with a stop reason and events.
pub async fn run_agent(input: AgentInput) -> Result<AgentOutcome, CoreError> {
    let machine = Machine::new(input.budgets);
    let active_skill = input.conversation.skill.clone();
    let scenario = input.conversation.scenario.clone();
    let mut lp = Loop {
        input,
        offer: None,
        machine,
        active_skill,
        scenario,
        run_messages: Vec::new(),
        run_tokens: 0,
        pending_calls: Vec::new(),
        pending_tools: None,
        histories: Vec::new(),
        usage: TokenUsage::default(),
        done_tools: Vec::new(),
        final_text: String::new(),
        answer: None,
        calls_answer: None,
        prompt_parts: RunParts::default(),
        connected: Vec::new(),
    };
    let mut action = lp.machine.start();
    loop {
        action = match action {
            Action::CallModel { .. } => lp.model_round(None).await?,
            Action::Close { reason } => lp.model_round(Some(reason)).await?,
            Action::RunTools { calls } => lp.tool_round(&calls).await?,
            Action::SayFallback { reason } => {
                lp.say_fallback(reason).await?;
                Action::Finish { reason }
            }
            Action::Finish { reason } => {
                return Ok(AgentOutcome {
                    stop_reason: reason,
                    usage: lp.usage,
                    rounds: lp.machine.round(),
                    tool_calls: lp.machine.tool_calls(),
                    final_text: lp.final_text,
                    answer: lp.answer,
                    active_skill: lp.active_skill,
                });
            }
        };
    }
}

/// The tools offered with `skill` active (phase 1 when `None`): the registry's for the skill,
/// and with connections configured, `use_connection`, the MCP tools the skill declares and
/// those of the connections opened this turn (`connected`). A warm-up offers the same
/// (`chat::ChatService::warm_up_request`).
pub(crate) fn offered_tools(
    tools: &ToolRegistry,
    skills: &Registry,
    connections: Option<&Arc<Connections>>,
    skill: Option<&str>,
    connected: &[String],
) -> ToolSet {
    let mut toolset = tools.tools_for(skills, skill);
    if let Some(hub) = connections.filter(|h| !h.is_empty()) {
        let declared = skill.map_or_else(Vec::new, |skill| declared_mcp_tools(skills, skill));
        offer_connections(&mut toolset, hub, connected, &declared);
    }
    toolset
}

/// The MCP tools the skill's tools.yaml names (`mcp: SERVER/TOOL`).
fn declared_mcp_tools(skills: &Registry, skill: &str) -> Vec<McpToolRef> {
    match skills.tools(skill) {
        Ok(Some(spec)) => spec
            .tools
            .iter()
            .filter_map(|t| match t {
                ToolRef::Mcp(m) => Some(m.clone()),
                _ => None,
            })
            .collect(),
        _ => Vec::new(),
    }
}

/// Offer `use_connection` (its definition listing every connection), the tools the active
/// skill declares (`declared`) and those of the connections opened this turn; a connection
/// that is unavailable, or a declared tool it does not have, is said in the notices.
fn offer_connections(
    toolset: &mut ToolSet,
    hub: &Arc<Connections>,
    connected: &[String],
    declared: &[McpToolRef],
) {
    toolset.push(Arc::new(UseConnection::with_catalogue(&hub.catalogue())));
    for name in hub.names() {
        if let Some(Err(e)) = hub.tried(name) {
            toolset.notices.push(format!("connection `{name}` is unavailable: {e}"));
        }
    }
    for wanted in declared {
        let found = match hub.tried(&wanted.server) {
            Some(Ok(live)) => live.tools.iter().find(|t| t.name == wanted.tool).cloned(),
            _ => None,
        };
        match found {
            Some(info) => {
                toolset.push(Arc::new(McpTool::new(&wanted.server, info, Arc::clone(hub))));
            }
            None => toolset.notices.push(format!(
                "tool `{}` of the skill left out: the connection does not offer it now",
                wanted.name
            )),
        }
    }
    for server in connected {
        if let Some(Ok(live)) = hub.tried(server) {
            for info in &live.tools {
                toolset.push(Arc::new(McpTool::new(server, info.clone(), Arc::clone(hub))));
            }
        }
    }
}

/// Learn the model's token correction from one answered request (stored off the async
/// worker). A failure to store it is logged, not fatal: the run goes on with the factor it had.
async fn calibrate(context: &Arc<ContextBuilder>, estimate: u32, reported: u64) {
    let context = Arc::clone(context);
    match off_worker(move || context.calibrate(estimate, reported).map_err(CoreError::from)).await {
        Ok(Ok(_)) => {}
        Ok(Err(e)) | Err(e) => {
            tracing::warn!(error = %e, "cannot store the model's token calibration");
        }
    }
}

impl Loop {
    pub(super) fn phase(&self) -> Phase {
        if self.active_skill.is_some() { Phase::Phase2 } else { Phase::Phase1 }
    }

    pub(super) fn conversation_now(&self) -> Conversation {
        let mut conversation = self.input.conversation.clone();
        conversation.skill.clone_from(&self.active_skill);
        conversation.scenario.clone_from(&self.scenario);
        conversation
    }

    /// The tools offered while the active skill is active, built once per run and skill.
    fn offer(&mut self) -> Arc<Offer> {
        let hub_version = self.input.connections.as_ref().map_or(0, |h| h.version());
        match &self.offer {
            Some(offer)
                if offer.skill == self.active_skill
                    && offer.connected == self.connected
                    && offer.hub_version == hub_version =>
            {
                Arc::clone(offer)
            }
            _ => {
                let inp = &self.input;
                let toolset = offered_tools(
                    &inp.tools,
                    &inp.skills,
                    inp.connections.as_ref(),
                    self.active_skill.as_deref(),
                    &self.connected,
                );
                let defs = toolset.definitions();
                let offer = Arc::new(Offer {
                    skill: self.active_skill.clone(),
                    connected: self.connected.clone(),
                    hub_version,
                    toolset,
                    defs,
                });
                self.offer = Some(Arc::clone(&offer));
                offer
            }
        }
    }

    /// One model call; `closing` is set for the closing call after a budget stop. The I/O
    /// around [`request::assemble`]: read the history, build the prompt, stream the answer.
    async fn model_round(&mut self, closing: Option<StopReason>) -> Result<Action, CoreError> {
        let phase = self.phase();
        let mut history = self.history(phase).await?;
        let conversation = self.conversation_now();
        let round = self.machine.round();
        self.input.emitter.emit(Event::RoundStarted { round });
        if let Some(hub) = &self.input.connections {
            // Connecting runs in the background once per chat service (each server's state is
            // kept); a round waits for it briefly, and Stop does not wait at all.
            tokio::select! {
                biased;
                _ = self.input.cancel.cancelled() => {}
                () = async {
                    hub.settle(CONNECT_WAIT).await;
                    // A server that said its tools changed is listed again before the round.
                    hub.refresh().await;
                } => {}
            }
        }
        let offer = self.offer();
        let inp = &self.input;
        let prompt = inp.context.system_prompt(&PromptRequest {
            user: &inp.user,
            active_skill: self.active_skill.as_deref(),
            scenario: self.scenario.as_deref(),
            voice_mode: conversation.voice_mode,
            persona: None,
            user_message: &inp.user_message,
            protocol_prompt: inp.protocol_prompt.as_deref(),
            summary: conversation.summary.as_deref(),
            tools: &offer.defs,
            run: Some(&self.prompt_parts),
        })?;
        // A prompt that every trim left over its budget (a small window) takes the room from
        // the oldest history, so the request still fits the window.
        history.fit_within(inp.context.history_room_beside(prompt.prompt_tokens + self.run_tokens));
        let assembled = request::assemble(RoundState {
            round,
            phase,
            prompt,
            history,
            run_messages: &self.run_messages,
            run_tokens: self.run_tokens,
            closing,
            tool_notices: &offer.toolset.notices,
            token_factor: inp.context.token_factor(),
            budget: Some(inp.context.prompt_budget(phase)),
        });
        if let Some(action) = self.machine.on_prompt(assembled.budget_tokens) {
            return Ok(action);
        }
        inp.emitter.emit(assembled.event);
        let prompt_tokens = assembled.prompt_tokens;

        let mut draft = Draft::new(&inp.conversation.id, &inp.run_id);
        let mut request = assembled.request;
        // An engine that keeps prompt states across processes files them by conversation.
        request.params.cache_key = Some(inp.conversation.id.clone());
        let end = stream_round(
            inp.model.as_ref(),
            request,
            &inp.emitter,
            &inp.store,
            &mut draft,
            &inp.cancel,
        )
        .await?;
        match end {
            RoundEnd::Answer(response) => {
                self.answered(response, closing.is_some(), prompt_tokens, &offer.toolset, draft)
                    .await
            }
            RoundEnd::Failed(error, partial) => {
                if !partial.text.is_empty() {
                    draft.write(&inp.store, &partial.text, None, 0, true).await?;
                }
                // The kind is the data a front end words its advice by (the app points at
                // Settings, the CLI at its flags and variables).
                inp.emitter.emit(Event::Error { error: error.info() });
                Ok(self.machine.on_model_error())
            }
            RoundEnd::Cancelled(partial) => {
                if !partial.text.is_empty() || draft.is_written() {
                    draft.write(&inp.store, &partial.text, None, 0, true).await?;
                }
                Ok(self.machine.on_cancel())
            }
        }
    }

    /// A whole answer: count it, let the machine decide, and store it now or leave it for
    /// the run's close as the machine says ([`StoreAnswer`]).
    async fn answered(
        &mut self,
        mut response: ChatResponse,
        closing: bool,
        prompt_tokens: u32,
        toolset: &ToolSet,
        draft: Draft,
    ) -> Result<Action, CoreError> {
        let inp = &self.input;
        if let Some(usage) = response.usage {
            calibrate(&inp.context, prompt_tokens, usage.prompt_tokens).await;
            self.usage.add(usage);
            inp.emitter.emit(Event::Usage { usage });
        }
        if closing {
            // No tools were offered; a call made anyway is not kept (history stays whole).
            response.tool_calls.clear();
        }
        let message = Message::assistant(response.text.clone(), response.tool_calls.clone());
        let tokens = inp.context.tokenizer().count_message(&message);
        let kinds: Vec<_> = response
            .tool_calls
            .iter()
            .map(|call| toolset.tools.iter().find(|t| t.name() == call.name).map(|t| t.kind()))
            .collect();
        if !response.text.is_empty() {
            self.machine.on_text();
        }
        let answered = self.machine.on_model_answer(&kinds);
        let pending = RunAnswer {
            draft_id: draft.id(),
            message: NewMessage {
                tool_calls: tool_calls_json(&response.tool_calls),
                token_count: tokens,
                run_id: Some(inp.run_id.clone()),
                ..NewMessage::text(Role::Assistant, response.text.clone())
            },
        };
        match answered.store {
            StoreAnswer::WithClose => self.answer = Some(pending),
            StoreAnswer::WithResults => self.calls_answer = Some(pending),
        }
        self.run_tokens += tokens;
        self.run_messages.push(message);
        if !response.text.is_empty() {
            self.final_text = response.text.clone();
        }
        for call in &response.tool_calls {
            inp.emitter.emit(Event::ToolCall {
                id: call.id.clone(),
                name: call.name.clone(),
                arguments: shown_arguments(&call.arguments),
            });
        }
        self.pending_calls = response.tool_calls;
        self.pending_tools = Some(toolset.clone());
        Ok(answered.next)
    }

    /// Store an answer of this run on its own, before the run goes on (off the async worker).
    pub(super) async fn store_answer_alone(&self, answer: RunAnswer) -> Result<(), CoreError> {
        let conversation_id = self.input.conversation.id.clone();
        blocking(&self.input.store, move |s| s.store_run_answer(&conversation_id, &answer))
            .await
            .map(|_| ())
    }

    /// Say the fixed closing text (streamed as one delta and stored).
    async fn say_fallback(&mut self, reason: StopReason) -> Result<(), CoreError> {
        let inp = &self.input;
        let text = closing::fallback_text(reason, &inp.user_message, &self.done_tools);
        inp.emitter.emit(Event::AssistantDelta { text: text.clone() });
        let tokens = inp.context.tokenizer().count(&text);
        // An empty last reply becomes the closing text; anything else is stored before it.
        let mut draft_id = None;
        if let Some(pending) = self.answer.take() {
            let m = &pending.message;
            if m.content.trim().is_empty() && m.tool_calls.is_none() {
                draft_id = pending.draft_id;
            } else {
                self.store_answer_alone(pending).await?;
            }
        }
        let inp = &self.input;
        self.answer = Some(RunAnswer {
            draft_id,
            message: NewMessage {
                token_count: tokens,
                run_id: Some(inp.run_id.clone()),
                ..NewMessage::text(Role::Assistant, text.clone())
            },
        });
        self.final_text = text;
        Ok(())
    }
}
