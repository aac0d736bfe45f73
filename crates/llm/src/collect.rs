//! Gathering a delta stream into one whole answer (text, reasoning, tool calls, finish,
//! usage). Used by callers that do not stream to a person (probe, tests, evals); the
//! streaming itself does not belong here.

use futures::StreamExt as _;
use serde::Serialize;

use crate::errors::LlmError;
use crate::model::DeltaStream;
use crate::types::{Delta, TokenUsage, ToolCall};

/// What a finished (or failed) answer amounted to.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct ChatResponse {
    pub text: String,
    /// `None` when the model sent no reasoning.
    pub reasoning: Option<String>,
    pub tool_calls: Vec<ToolCall>,
    pub finish_reason: Option<String>,
    pub usage: Option<TokenUsage>,
}

/// Folds deltas into a [`ChatResponse`].
#[derive(Debug, Default)]
pub struct Accumulator {
    response: ChatResponse,
    /// Stream index → position in `tool_calls`.
    slots: Vec<(usize, usize)>,
}

impl Accumulator {
    pub fn push(&mut self, delta: &Delta) {
        let r = &mut self.response;
        match delta {
            Delta::Text { text } => r.text.push_str(text),
            Delta::Reasoning { text } => r.reasoning.get_or_insert_with(String::new).push_str(text),
            Delta::ToolCallStart { index, id, name } => {
                self.slots.push((*index, r.tool_calls.len()));
                r.tool_calls.push(ToolCall {
                    id: id.clone(),
                    name: name.clone(),
                    arguments: String::new(),
                });
            }
            Delta::ToolCallArgs { index, fragment } => {
                if let Some(&(_, pos)) = self.slots.iter().rev().find(|(i, _)| i == index)
                    && let Some(call) = r.tool_calls.get_mut(pos)
                {
                    call.arguments.push_str(fragment);
                }
            }
            Delta::Usage { usage } => r.usage = Some(*usage),
            Delta::Finish { reason } => {
                if reason.is_some() {
                    r.finish_reason.clone_from(reason);
                }
            }
            Delta::Restart { .. } => *self = Self::default(),
        }
    }

    pub fn response(&self) -> &ChatResponse {
        &self.response
    }

    pub fn into_response(self) -> ChatResponse {
        self.response
    }
}

/// Drain a stream. After an error the response keeps the text, reasoning and usage that
/// arrived before it, but no tool calls: an answer that did not finish may hold half-built
/// calls, and those must never run.
pub async fn collect(mut stream: DeltaStream) -> (ChatResponse, Option<LlmError>) {
    let mut acc = Accumulator::default();
    while let Some(item) = stream.next().await {
        match item {
            Ok(delta) => acc.push(&delta),
            Err(e) => {
                let mut partial = acc.into_response();
                partial.tool_calls.clear();
                return (partial, Some(e));
            }
        }
    }
    (acc.into_response(), None)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn interleaved_tool_calls_are_gathered_by_index() {
        let mut acc = Accumulator::default();
        for d in [
            Delta::ToolCallStart { index: 0, id: "a".into(), name: "x".into() },
            Delta::ToolCallStart { index: 1, id: "b".into(), name: "y".into() },
            Delta::ToolCallArgs { index: 1, fragment: "{\"q\"".into() },
            Delta::ToolCallArgs { index: 0, fragment: "{}".into() },
            Delta::ToolCallArgs { index: 1, fragment: ":1}".into() },
            Delta::Finish { reason: Some("tool_calls".into()) },
        ] {
            acc.push(&d);
        }
        let r = acc.into_response();
        assert_eq!(r.tool_calls[0].arguments, "{}");
        assert_eq!(r.tool_calls[1].arguments, "{\"q\":1}");
        assert_eq!(r.finish_reason.as_deref(), Some("tool_calls"));
    }

    #[tokio::test]
    async fn an_answer_cut_by_an_error_keeps_its_text_but_no_tool_calls() {
        let items: Vec<Result<Delta, LlmError>> = vec![
            Ok(Delta::Text { text: "Let me".into() }),
            Ok(Delta::ToolCallStart { index: 0, id: "c".into(), name: "write_state".into() }),
            Ok(Delta::ToolCallArgs { index: 0, fragment: "{\"sec".into() }),
            Err(LlmError::Truncated { message: "cut".into() }),
        ];
        let (r, err) = collect(Box::pin(futures::stream::iter(items))).await;
        assert_eq!(err.map(|e| e.kind().as_str()), Some("truncated"));
        assert_eq!(r.text, "Let me");
        assert_eq!(r.tool_calls, []);
    }

    #[test]
    fn restart_discards_the_partial_answer() {
        let mut acc = Accumulator::default();
        acc.push(&Delta::Text { text: "half".into() });
        acc.push(&Delta::Restart { reason: "malformed".into() });
        acc.push(&Delta::Text { text: "whole".into() });
        assert_eq!(acc.response().text, "whole");
    }
}
