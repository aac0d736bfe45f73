//! The async driver of the loop: asks the state machine what to do, does it (build the prompt,
//! stream the model, run tools — `tool_round` —, persist every message as it completes, emit
//! events), and feeds the result back. Each call's history is `window`'s. The system prompt is rebuilt before every model call from current state,
//! so a tool that changed the profile, or `use_skill`, is reflected in the next call of the
//! same turn (docs/design.md#same-turn-reload).

use std::path::PathBuf;
use std::sync::Arc;

use tokio_util::sync::CancellationToken;
use vibe_llm::{ChatModel, ChatRequest, Message, ToolCall};
use vibe_skills::Registry;
use vibe_store::{Conversation, NewMessage, Role, RunAnswer, Store};
use vibe_wire::{Event, Phase, StopReason, TokenUsage};

use crate::CoreError;
use crate::agent::approvals::Approver;
use crate::agent::budgets::Budgets;
use crate::agent::closing;
use crate::agent::execute::shown_arguments;
use crate::agent::fsm::{Action, Machine};
use crate::agent::persist::{Draft, tool_calls_json};
use crate::agent::round::{RoundEnd, stream_round};
use crate::audit::RunAudit;
use crate::context::{BuiltPrompt, ContextBuilder, History, PromptRequest, corrected};
use crate::emit::Emitter;
use crate::tools::{ToolRegistry, ToolSet};

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
    };
    let mut action = lp.machine.start();
    loop {
        action = match action {
            Action::CallModel { .. } => lp.model_round(None).await?,
            Action::Close { reason } => lp.model_round(Some(reason)).await?,
            Action::RunTools { calls } => lp.tool_round(&calls).await?,
            Action::Finish { reason } => {
                if needs_fallback(reason) && lp.final_text.is_empty() {
                    lp.say_fallback(reason)?;
                }
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

/// Learn the model's token correction from one answered request. A failure to store it is
/// logged, not fatal: the run goes on with the factor it had.
fn calibrate(context: &ContextBuilder, estimate: u32, reported: u64) {
    if let Err(e) = context.calibrate(estimate, reported) {
        tracing::warn!(error = %e, "cannot store the model's token calibration");
    }
}

fn needs_fallback(reason: StopReason) -> bool {
    matches!(
        reason,
        StopReason::MaxRounds
            | StopReason::MaxToolCalls
            | StopReason::MaxScriptRuns
            | StopReason::MaxContextTokens
            | StopReason::RepeatedToolFailure
    )
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

    /// One model call; `closing` is set for the closing call after a budget stop.
    async fn model_round(&mut self, closing: Option<StopReason>) -> Result<Action, CoreError> {
        let phase = self.phase();
        let history = self.history(phase).await?;
        let conversation = self.conversation_now();
        let inp = &self.input;
        let round = self.machine.round();
        inp.emitter.emit(Event::TurnStarted { round });

        let offer = match &self.offer {
            Some(offer) if offer.skill == self.active_skill => Arc::clone(offer),
            _ => {
                let toolset = inp.tools.tools_for(&inp.skills, self.active_skill.as_deref());
                let defs = toolset.definitions();
                let offer = Arc::new(Offer { skill: self.active_skill.clone(), toolset, defs });
                self.offer = Some(Arc::clone(&offer));
                offer
            }
        };
        let (toolset, defs) = (offer.toolset.clone(), &offer.defs);
        let prompt = inp.context.system_prompt(&PromptRequest {
            user: &inp.user,
            active_skill: self.active_skill.as_deref(),
            scenario: self.scenario.as_deref(),
            voice_mode: conversation.voice_mode.as_deref(),
            persona: None,
            user_message: &inp.user_message,
            protocol_prompt: inp.protocol_prompt.as_deref(),
            summary: conversation.summary.as_deref(),
            tools: defs,
        })?;
        let prompt_tokens = prompt.prompt_tokens;
        let BuiltPrompt { mut system, tools, mut sections, mut notices, .. } = prompt;
        if let Some(reason) = closing {
            system.push_str(&closing::closing_instruction(reason));
        }
        let offered = if closing.is_some() { Vec::new() } else { tools };
        let prompt_tokens = prompt_tokens + history.tokens + self.run_tokens;
        // Budgets are in the model's tokens: the estimate corrected by its calibration.
        let token_factor = inp.context.token_factor();
        let corrected_tokens = token_factor.map(|f| corrected(prompt_tokens, f));
        if let Some(action) = self.machine.on_prompt(corrected_tokens.unwrap_or(prompt_tokens)) {
            return Ok(action);
        }
        notices.extend(toolset.notices.iter().cloned());
        notices.extend(history.notices.iter().cloned());
        sections.push(vibe_wire::SectionTokens { name: "history".into(), tokens: history.tokens });
        if self.run_tokens > 0 {
            sections.push(vibe_wire::SectionTokens {
                name: "this_run".into(),
                tokens: self.run_tokens,
            });
        }
        inp.emitter.emit(Event::ModelRequest {
            round,
            phase,
            prompt_tokens,
            token_factor,
            corrected_tokens,
            sections,
            tools: offered.iter().map(|t| t.name.clone()).collect(),
            history_messages: history.messages.len() as u32,
            notices,
        });

        let mut messages = Vec::with_capacity(1 + history.messages.len() + self.run_messages.len());
        messages.push(Message::system(system));
        messages.extend(history.messages);
        messages.extend(self.run_messages.iter().cloned());
        let request = ChatRequest { messages, tools: offered, params: Default::default() };

        let mut draft = Draft::new(&inp.conversation.id, &inp.run_id);
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
            RoundEnd::Answer(mut response) => {
                if let Some(usage) = response.usage {
                    calibrate(&inp.context, prompt_tokens, usage.prompt_tokens);
                    let usage = TokenUsage {
                        prompt_tokens: usage.prompt_tokens,
                        completion_tokens: usage.completion_tokens,
                        total_tokens: usage.total_tokens,
                    };
                    self.usage.add(usage);
                    inp.emitter.emit(Event::Usage { usage });
                }
                if closing.is_some() {
                    // No tools were offered; a call made anyway is not kept (history stays whole).
                    response.tool_calls.clear();
                }
                let message =
                    Message::assistant(response.text.clone(), response.tool_calls.clone());
                let tokens = inp.context.tokenizer().count_message(&message);
                let kinds: Vec<_> = response
                    .tool_calls
                    .iter()
                    .map(|call| {
                        toolset.tools.iter().find(|t| t.name() == call.name).map(|t| t.kind())
                    })
                    .collect();
                let action = self.machine.on_model_answer(&kinds);
                let calls = tool_calls_json(&response.tool_calls);
                if matches!(action, Action::Finish { .. }) {
                    // The run ends with this answer: it is stored with the run's close, in
                    // the same commit, right after this returns.
                    self.answer = Some(RunAnswer {
                        draft_id: draft.id(),
                        message: NewMessage {
                            tool_calls: calls,
                            token_count: tokens,
                            run_id: Some(inp.run_id.clone()),
                            ..NewMessage::text(Role::Assistant, response.text.clone())
                        },
                    });
                } else {
                    draft.write(&inp.store, &response.text, calls.as_ref(), tokens, false)?;
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
                self.pending_tools = Some(toolset);
                Ok(action)
            }
            RoundEnd::Failed(error, partial) => {
                if !partial.text.is_empty() {
                    draft.write(&inp.store, &partial.text, None, 0, true)?;
                }
                let mut info = error.info();
                if error.kind() == "network" {
                    info.message = format!(
                        "{} — is the model server running? Check the endpoint in settings or VIBE_LLM_BASE_URL",
                        info.message
                    );
                }
                inp.emitter.emit(Event::Error { error: info });
                if let Some(reason) = closing {
                    // The closing call failed: finish with the fixed text instead.
                    self.say_fallback(reason)?;
                    return Ok(Action::Finish { reason });
                }
                Ok(self.machine.on_model_error())
            }
            RoundEnd::Cancelled(partial) => {
                if !partial.text.is_empty() || draft.is_written() {
                    draft.write(&inp.store, &partial.text, None, 0, true)?;
                }
                Ok(self.machine.on_cancel())
            }
        }
    }

    /// Say the fixed closing text (streamed as one delta and stored).
    fn say_fallback(&mut self, reason: StopReason) -> Result<(), CoreError> {
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
                match pending.draft_id {
                    Some(id) => inp.store.update_message(
                        id,
                        &m.content,
                        m.tool_calls.as_ref(),
                        m.token_count,
                        false,
                    )?,
                    None => {
                        inp.store.append_message(&inp.conversation.id, pending.message)?;
                    }
                }
            }
        }
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
