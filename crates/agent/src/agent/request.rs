//! The request of one model round, assembled from the loop's state (docs/design.md#the-agent-loop):
//! a pure function from the built system prompt, the history window and what this run added so
//! far to the chat request (the turn's sections riding with the latest user message), the size the budget is checked against and the `model_request`
//! event. No IO, no clock: reading history, building the prompt and streaming the answer are the
//! driver's (`driver::model_round`), so the assembly is unit-tested on its own.

use vibe_context::{BuiltPrompt, History, corrected};
use vibe_llm::{ChatRequest, Message};
use vibe_wire::{Event, Phase, PromptBudget, SectionTokens, StopReason};

use crate::agent::closing;

/// What one round's request is made of.
pub struct RoundState<'a> {
    pub round: u32,
    pub phase: Phase,
    /// The system prompt and tool definitions built for this round.
    pub prompt: BuiltPrompt,
    /// The history window up to this run's user message.
    pub history: History,
    /// Messages of this run after the history (assistant answers and tool results).
    pub run_messages: &'a [Message],
    /// Tokens of `run_messages`.
    pub run_tokens: u32,
    /// Set for the closing call after a budget stop: no tools are offered and the system
    /// prompt says why the reply ends.
    pub closing: Option<StopReason>,
    /// Lines about tools left out of the offered set.
    pub tool_notices: &'a [String],
    /// The model's token correction learnt so far.
    pub token_factor: Option<f64>,
    /// The budget the prompt was fitted to (the model's window, the phase's prompt budget, the
    /// reply reserve), named in the event.
    pub budget: Option<PromptBudget>,
}

/// The assembled round.
pub struct Assembled {
    pub request: ChatRequest,
    /// Estimated tokens of the whole request (system prompt, tools, history, this run).
    pub prompt_tokens: u32,
    /// What the context budget is checked against: the estimate corrected by the model's
    /// calibration when one is known.
    pub budget_tokens: u32,
    /// The `model_request` event describing the request.
    pub event: Event,
}

/// Assemble one round's request from `state`.
pub fn assemble(state: RoundState<'_>) -> Assembled {
    let RoundState {
        round,
        phase,
        prompt,
        history,
        run_messages,
        run_tokens,
        closing,
        tool_notices,
        token_factor,
        budget,
    } = state;
    let BuiltPrompt { mut system, tools, turn, mut sections, mut notices, prompt_tokens, .. } =
        prompt;
    if let Some(reason) = closing {
        system.push_str(&closing::closing_instruction(reason));
    }
    let mut history_messages = history.messages;
    if let Some(turn) = turn {
        // The turn's sections ride with the latest user message (the one this run answers), so
        // the system prompt, the tools and the older history stay a stable prefix
        // (docs/local-model.md, "Prompt order"). Without one, they close the system prompt.
        let latest = history_messages.iter_mut().rev().find_map(|m| match m {
            Message::User { content } => Some(content),
            _ => None,
        });
        match latest {
            Some(content) => *content = format!("{turn}\n\n{content}"),
            None => {
                system.push_str("\n\n");
                system.push_str(&turn);
            }
        }
    }
    let offered = if closing.is_some() { Vec::new() } else { tools };
    let prompt_tokens = prompt_tokens + history.tokens + run_tokens;
    // Budgets are in the model's tokens: the estimate corrected by its calibration.
    let corrected_tokens = token_factor.map(|f| corrected(prompt_tokens, f));
    notices.extend(tool_notices.iter().cloned());
    notices.extend(history.notices.iter().cloned());
    sections.push(SectionTokens { name: "history".into(), tokens: history.tokens });
    if run_tokens > 0 {
        sections.push(SectionTokens { name: "this_run".into(), tokens: run_tokens });
    }
    let event = Event::ModelRequest {
        round,
        phase,
        prompt_tokens,
        token_factor,
        corrected_tokens,
        sections,
        tools: offered.iter().map(|t| t.name.clone()).collect(),
        history_messages: history_messages.len() as u32,
        notices,
        budget,
    };
    let mut messages = Vec::with_capacity(1 + history_messages.len() + run_messages.len());
    messages.push(Message::system(system));
    messages.extend(history_messages);
    messages.extend(run_messages.iter().cloned());
    Assembled {
        request: ChatRequest { messages, tools: offered, params: Default::default() },
        prompt_tokens,
        budget_tokens: corrected_tokens.unwrap_or(prompt_tokens),
        event,
    }
}

#[cfg(test)]
#[path = "request_tests.rs"]
mod tests;
