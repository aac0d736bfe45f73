//! How a turn's model output is stored, through an app opened as every front end opens it:
//! an answer cut mid-stream keeps its text flagged interrupted, and a call with invalid JSON
//! arguments is stored (and sent back) with `{}` (the agent's `persist` module).

use std::sync::Arc;

use serde_json::Value;
use tokio_util::sync::CancellationToken;
use vibe_agent::agent::ApprovalPolicy;
use vibe_agent::chat::{ChatService, TurnRequest, TurnResult};
use vibe_core::app::{App, AppPaths, EphemeralKeys, Injections, Overrides};
use vibe_llm::LlmSettings;
use vibe_runlog::emit::{CollectSink, EventSink};
use vibe_store::Store;
use vibe_test_support::{FakeServer, Reply, ev_finish, ev_text, ev_tool_call, sse, sse_frame};

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
    let keys = Arc::new(EphemeralKeys::default());
    let paths = AppPaths::new(dir.path());
    let app = App::open_injected(paths, Overrides::default(), keys, injections).unwrap();
    (dir, app.store().clone(), app.chat().unwrap())
}

#[allow(clippy::unwrap_used)]
async fn turn(
    service: &ChatService,
    conversation_id: Option<String>,
    message: String,
) -> (TurnResult, Vec<vibe_wire::Envelope>) {
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
            vibe_wire::Event::ToolCall { .. } | vibe_wire::Event::ToolResult { .. } => Some("tool"),
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
