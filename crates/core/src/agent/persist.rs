//! Writing the run's messages as they complete (docs/design.md#history): the assistant answer is
//! stored as a draft flagged `interrupted` while it streams (at most every [`DRAFT_EVERY`]) and
//! completed in place, so a killed process leaves the partial text (an answer with tool calls is
//! completed in the commit of its first result, `agent/tool_round.rs`); the "cancelled" results
//! of a cancel are stored one by one. Every write waits for the database on a blocking thread
//! (`store_io`), never on an async worker.

use std::sync::Arc;
use std::time::{Duration, Instant};

use serde_json::Value;
use vibe_llm::ToolCall;
use vibe_store::{NewMessage, Role, Store};

use crate::CoreError;
use crate::store_io::blocking;

/// How often a streaming answer's draft is written.
pub const DRAFT_EVERY: Duration = Duration::from_millis(300);

/// Stored form of tool calls: `[{"id", "name", "arguments"}]`, arguments as JSON text. A call
/// whose arguments are not a JSON object (never executed: the model got an error observation
/// for it) is stored with `{}` (`vibe_llm::EMPTY_ARGUMENTS`), so history never carries the raw
/// invalid text back to a server.
pub fn tool_calls_json(calls: &[ToolCall]) -> Option<Value> {
    if calls.is_empty() {
        return None;
    }
    let stored: Vec<ToolCall> = calls
        .iter()
        .map(|c| ToolCall { arguments: c.history_arguments().to_string(), ..c.clone() })
        .collect();
    serde_json::to_value(stored).ok()
}

/// The assistant message of one model round.
pub struct Draft {
    conversation_id: String,
    run_id: String,
    id: Option<i64>,
    last_write: Instant,
    written_len: usize,
}

impl Draft {
    pub fn new(conversation_id: &str, run_id: &str) -> Self {
        Self {
            conversation_id: conversation_id.into(),
            run_id: run_id.into(),
            id: None,
            last_write: Instant::now(),
            written_len: 0,
        }
    }

    /// Write the partial text when it grew and the last write is old enough.
    pub async fn maybe_write(&mut self, store: &Arc<Store>, text: &str) -> Result<(), CoreError> {
        if text.len() == self.written_len || self.last_write.elapsed() < DRAFT_EVERY {
            return Ok(());
        }
        self.write(store, text, None, 0, true).await
    }

    /// Store the final (or, with `interrupted`, the partial) message. The write waits for
    /// the database off the async worker (`store_io`).
    pub async fn write(
        &mut self,
        store: &Arc<Store>,
        text: &str,
        tool_calls: Option<&Value>,
        token_count: u32,
        interrupted: bool,
    ) -> Result<(), CoreError> {
        let (content, tool_calls) = (text.to_string(), tool_calls.cloned());
        match self.id {
            Some(id) => {
                blocking(store, move |s| {
                    s.update_message(id, &content, tool_calls.as_ref(), token_count, interrupted)
                })
                .await?;
            }
            None => {
                let conversation_id = self.conversation_id.clone();
                let message = NewMessage {
                    role: Role::Assistant,
                    content,
                    tool_calls,
                    tool_call_id: None,
                    token_count,
                    run_id: Some(self.run_id.clone()),
                    interrupted,
                };
                let msg =
                    blocking(store, move |s| s.append_message(&conversation_id, message)).await?;
                self.id = Some(msg.id);
            }
        }
        self.last_write = Instant::now();
        self.written_len = text.len();
        Ok(())
    }

    /// The row written so far, if any.
    pub fn id(&self) -> Option<i64> {
        self.id
    }

    pub fn is_written(&self) -> bool {
        self.id.is_some()
    }
}

/// Store one tool result (off the async worker, `store_io`).
pub async fn tool_message(
    store: &Arc<Store>,
    conversation_id: &str,
    run_id: &str,
    call_id: &str,
    content: &str,
    token_count: u32,
    interrupted: bool,
) -> Result<(), CoreError> {
    let conversation_id = conversation_id.to_string();
    let message = NewMessage {
        role: Role::Tool,
        content: content.to_string(),
        tool_calls: None,
        tool_call_id: Some(call_id.to_string()),
        token_count,
        run_id: Some(run_id.to_string()),
        interrupted,
    };
    blocking(store, move |s| s.append_message(&conversation_id, message)).await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use tokio_util::sync::CancellationToken;
    use vibe_llm::LlmSettings;
    use vibe_test_support::{FakeServer, Reply, ev_finish, ev_text, ev_tool_call, sse, sse_frame};

    use super::*;
    use crate::agent::ApprovalPolicy;
    use crate::app::{App, AppPaths, Injections, Overrides};
    use crate::chat::{ChatService, TurnRequest};
    use vibe_runlog::emit::{CollectSink, EventSink};

    /// The app over a temp data dir, opened as every front end opens it, whose model is the
    /// fake server.
    #[allow(clippy::unwrap_used)]
    fn service_for(server: &FakeServer) -> (tempfile::TempDir, Arc<Store>, Arc<ChatService>) {
        let dir = tempfile::tempdir().unwrap();
        let settings = LlmSettings {
            base_url: Some(server.url()),
            model: Some("m".into()),
            ..LlmSettings::default()
        };
        let model = vibe_llm::build_model(&settings, None).unwrap().model;
        let injections = Injections { model: Some(model), ..Injections::default() };
        let keys = Arc::new(crate::app::EphemeralKeys::default());
        let paths = AppPaths::new(dir.path());
        let app = App::open_injected(paths, Overrides::default(), keys, injections).unwrap();
        (dir, app.store().clone(), app.chat().unwrap())
    }

    #[allow(clippy::unwrap_used)]
    async fn turn(
        service: &ChatService,
        conversation_id: Option<String>,
        message: String,
    ) -> (crate::chat::TurnResult, Vec<vibe_wire::Envelope>) {
        let sink = Arc::new(CollectSink::default());
        let sinks: Vec<Arc<dyn EventSink>> = vec![sink.clone()];
        let request = TurnRequest { conversation_id, message, ..TurnRequest::default() };
        let run = service.run_turn(
            request,
            sinks,
            Arc::new(ApprovalPolicy::DenyAll),
            CancellationToken::new(),
        );
        (run.await.unwrap(), sink.events())
    }

    /// A stream cut mid-answer (truncated): the text so far is stored flagged interrupted, the
    /// half-built tool call is neither run nor stored, and the error says `truncated`.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    #[allow(clippy::unwrap_used)]
    async fn a_truncated_answer_keeps_its_text_interrupted_and_runs_no_call() {
        let server = FakeServer::start();
        server.push(Reply::sse(sse_frame(vec![
            ev_text("我先记下"),
            ev_tool_call(0, "call_half", "use_skill", "{\"skill\": \"life"),
        ])));
        let (_dir, store, service) = service_for(&server);
        let (result, events) = turn(&service, None, "帮我规划".into()).await;
        let kinds: Vec<_> = events
            .iter()
            .filter_map(|e| match &e.event {
                vibe_wire::Event::Error { error } => Some(error.kind.as_str()),
                vibe_wire::Event::ToolCall { .. } | vibe_wire::Event::ToolResult { .. } => {
                    Some("tool")
                }
                _ => None,
            })
            .collect();
        assert_eq!(kinds, ["truncated"]);
        let stored = store.messages(&result.conversation_id).unwrap();
        let reply = stored.iter().find(|m| m.role == vibe_store::Role::Assistant).unwrap();
        assert_eq!(reply.content, "我先记下");
        assert!(reply.interrupted);
        assert_eq!(reply.tool_calls, None);
        assert_eq!(server.requests().len(), 1, "no retry after the first delta");
    }

    #[test]
    fn calls_with_arguments_that_are_not_an_object_are_stored_with_an_empty_object() {
        let call = |arguments: &str| ToolCall {
            id: "c".into(),
            name: "f".into(),
            arguments: arguments.into(),
        };
        let stored = tool_calls_json(&[call("{\"a\":1}{\"b\":2}"), call("{\"a\":1}")]);
        let args: Vec<_> = stored
            .iter()
            .flat_map(|v| v.as_array().into_iter().flatten())
            .map(|c| c["arguments"].clone())
            .collect();
        assert_eq!(args, [Value::from("{}"), Value::from("{\"a\":1}")]);
    }

    /// A model call with invalid JSON arguments is never executed, is stored with `{}`, and
    /// neither the same run's next request nor the next turn's sends the raw text back.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    #[allow(clippy::unwrap_used)]
    async fn invalid_arguments_never_go_back_to_the_server() {
        const RAW: &str = r#"{"skill": "lifecoach"{"#;
        let server = FakeServer::start();
        server.push(Reply::sse(sse(vec![
            ev_tool_call(0, "call_bad", "use_skill", RAW),
            ev_finish("tool_calls"),
        ])));
        server.push(Reply::sse(sse(vec![ev_text("好的。"), ev_finish("stop")])));
        server.push(Reply::sse(sse(vec![ev_text("继续。"), ev_finish("stop")])));
        let (_dir, store, service) = service_for(&server);
        let turn = |conversation_id: Option<String>, message: &str| {
            turn(&service, conversation_id, message.to_string())
        };
        let (first, events) = turn(None, "帮我规划").await;
        let results: Vec<_> = events
            .iter()
            .filter_map(|e| match &e.event {
                vibe_wire::Event::ToolResult { result, is_error, .. } => Some((result, *is_error)),
                _ => None,
            })
            .collect();
        assert_eq!(results.len(), 1);
        assert!(results[0].1, "the call was not executed: {}", results[0].0);
        assert!(results[0].0.to_string().contains("not valid JSON"), "{}", results[0].0);
        turn(Some(first.conversation_id.clone()), "继续").await;

        let stored = store.messages(&first.conversation_id).unwrap();
        let calls: Vec<_> = stored.iter().filter_map(|m| m.tool_calls.clone()).collect();
        assert_eq!(calls.len(), 1);
        assert_eq!(calls[0][0]["arguments"], "{}");
        let requests = server.requests();
        assert_eq!(requests.len(), 3);
        for request in &requests[1..] {
            request.assert_tool_pairs();
            let body = request.json();
            assert!(!body.to_string().contains("lifecoach\\\"{"), "raw arguments re-sent: {body}");
            let sent: Vec<_> = body["messages"]
                .as_array()
                .unwrap()
                .iter()
                .filter_map(|m| m["tool_calls"].as_array())
                .flatten()
                .map(|c| c["function"]["arguments"].clone())
                .collect();
            assert_eq!(sent, [Value::from("{}")]);
        }
    }
}
