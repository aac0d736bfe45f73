//! Structured-action mode: a `ChatModel` adapter for models without native tool calling.
//! Tools go into the prompt (`prompt.rs`), the model answers with one JSON action object
//! that is parsed as it streams (`answer.rs`); a malformed object gets exactly one repair
//! retry (a `Restart` delta, then the model sees its reply and the parse error). When the
//! retry is malformed too, the answer becomes one call of [`UNUSABLE_REPLY`] whose arguments
//! say what was wrong: the agent answers it with an error observation and the run goes on
//! within its budgets. A `plan_update` becomes an `update_plan` call. The caller sees the
//! same deltas as in native mode. Every request it sends carries the JSON Schema of one
//! action (`schema.rs`) in `Params::response_schema`, for models that constrain decoding.

mod answer;
mod prompt;
mod schema;

pub use schema::action_schema;

use std::collections::VecDeque;
use std::sync::Arc;

use futures::StreamExt as _;
use futures::future::BoxFuture;
use serde_json::json;

use crate::errors::LlmError;
use crate::model::{ChatModel, DeltaStream, Warmed, error_stream};
use crate::types::{ChatRequest, Delta, Message, ModelInfo};
use answer::AnswerParser;

/// The name of the call a twice-malformed answer becomes. Its arguments are
/// `{"message": <what was wrong and how to answer>, "reply": <the reply, cut to 2000 chars>}`;
/// no tool has this name, so it never runs: the agent answers it with `message` as an error
/// observation.
pub const UNUSABLE_REPLY: &str = "unusable_reply";

/// Longest part of a malformed reply kept in the [`UNUSABLE_REPLY`] call.
const KEPT_REPLY_CHARS: usize = 2000;

/// Wraps a model so that tools work through the JSON action protocol.
pub struct StructuredModel {
    inner: Arc<dyn ChatModel>,
}

impl StructuredModel {
    pub fn new(inner: Arc<dyn ChatModel>) -> Self {
        Self { inner }
    }
}

impl ChatModel for StructuredModel {
    fn stream(&self, request: ChatRequest) -> DeltaStream {
        let uses_tools = !request.tools.is_empty()
            || request.messages.iter().any(|m| matches!(m, Message::Tool { .. }));
        if !uses_tools {
            return self.inner.stream(request);
        }
        let tools: Vec<String> = request.tools.iter().map(|t| t.name.clone()).collect();
        let id = format!("call_{}", request.prior_tool_calls());
        let answer = match AnswerParser::new(tools.clone(), id.clone()) {
            Ok(a) => a,
            Err(e) => return error_stream(e),
        };
        let mut base = prompt::rewrite(&request);
        // Models that can constrain their decoding write only well-formed actions (the
        // repair request is built from `base`, so it carries the schema too).
        base.params.response_schema = Some(schema::action_schema(&request.tools));
        let round = Round {
            current: self.inner.stream(base.clone()),
            inner: self.inner.clone(),
            base,
            tools,
            id,
            answer: Some(answer),
            repaired: false,
            last_raw: None,
            queue: VecDeque::new(),
            error: None,
            finished: false,
        };
        Box::pin(futures::stream::unfold(round, |mut r| async move {
            let item = r.next().await?;
            Some((item, r))
        }))
    }

    fn list_models(&self) -> BoxFuture<'_, Result<Vec<ModelInfo>, LlmError>> {
        self.inner.list_models()
    }

    fn model_name(&self) -> &str {
        self.inner.model_name()
    }

    /// The prefix as `stream` sends it: the tools written into the system prompt.
    fn warm_up(&self, request: ChatRequest) -> BoxFuture<'_, Result<Option<Warmed>, LlmError>> {
        let request = if request.tools.is_empty() { request } else { prompt::rewrite(&request) };
        self.inner.warm_up(request)
    }
}

struct Round {
    inner: Arc<dyn ChatModel>,
    base: ChatRequest,
    tools: Vec<String>,
    id: String,
    current: DeltaStream,
    answer: Option<AnswerParser>,
    repaired: bool,
    /// The raw text of an answer already handed to `finish` (for the repair message).
    last_raw: Option<String>,
    queue: VecDeque<Delta>,
    error: Option<LlmError>,
    finished: bool,
}

impl Round {
    async fn next(&mut self) -> Option<Result<Delta, LlmError>> {
        loop {
            if let Some(d) = self.queue.pop_front() {
                return Some(Ok(d));
            }
            if let Some(e) = self.error.take() {
                self.finished = true;
                return Some(Err(e));
            }
            if self.finished {
                return None;
            }
            let mut out = Vec::new();
            let verdict = match self.current.next().await {
                Some(Ok(Delta::Text { text })) => match &mut self.answer {
                    Some(a) => a.feed(&text, &mut out),
                    None => Ok(()),
                },
                Some(Ok(Delta::Finish { .. })) | None => {
                    self.finished = true;
                    match self.answer.take() {
                        Some(a) => {
                            self.last_raw = Some(a.raw().to_string());
                            a.finish(&mut out)
                        }
                        None => Ok(()),
                    }
                }
                Some(Ok(other)) => {
                    out.push(other); // reasoning, usage, stray native calls pass through
                    Ok(())
                }
                Some(Err(e)) => {
                    self.error = Some(e);
                    Ok(())
                }
            };
            self.queue.extend(out);
            if let Err(problem) = verdict {
                self.malformed(problem);
            }
        }
    }

    fn malformed(&mut self, problem: String) {
        let raw = self.answer.as_ref().map(|a| a.raw().to_string()).unwrap_or_default();
        let raw = if raw.is_empty() { self.last_raw.take().unwrap_or_default() } else { raw };
        if self.repaired {
            tracing::info!("structured answer malformed again after the repair: {problem}");
            self.finished = true;
            self.queue.clear();
            let message = format!(
                "your reply could not be used, again: {problem}. Reply with exactly one JSON object of the form \
                 {{\"action\": {{\"type\": ..., ...}}}} as described in the instructions, and nothing else."
            );
            let reply: String = raw.chars().take(KEPT_REPLY_CHARS).collect();
            self.queue.extend([
                Delta::Restart { reason: problem },
                Delta::ToolCallStart { index: 0, id: self.id.clone(), name: UNUSABLE_REPLY.into() },
                Delta::ToolCallArgs {
                    index: 0,
                    fragment: json!({"message": message, "reply": reply}).to_string(),
                },
                Delta::Finish { reason: Some("tool_calls".into()) },
            ]);
            return;
        }
        tracing::info!("structured answer malformed, asking the model once more: {problem}");
        self.repaired = true;
        self.finished = false;
        self.queue.push_back(Delta::Restart { reason: problem.clone() });
        let request = prompt::repair(self.base.clone(), &raw, &problem);
        self.current = self.inner.stream(request);
        match AnswerParser::new(self.tools.clone(), self.id.clone()) {
            Ok(a) => self.answer = Some(a),
            Err(e) => self.error = Some(e),
        }
    }
}

#[cfg(test)]
#[path = "warm_up_tests.rs"]
mod warm_up_tests;
