//! Whole turns with a misbehaving MCP server beside a good one (docs/mcp.md,
//! "Troubleshooting"): our own server (test-support's misbehaving.mjs, over stdio, confined)
//! crashes, hangs or writes garbage in the middle of a call, lists 500 tools, or answers
//! 2 MiB. In each, the turn ends with the assistant's answer, the model and the person read a
//! specific reason naming the server, nothing hangs, and the other server keeps working.

use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use serde_json::{Value, json};
use tokio::sync::mpsc;
use vibe_core::app::{App, AppPaths, EphemeralKeys, Injections, Overrides};
use vibe_runlog::emit::ChannelSink;
use vibe_test_support::{FakeServer, Reply, ev_finish, ev_text, ev_tool_call, sse};
use vibe_wire::command::{
    AddMcpServerRequest, SendMessageRequest, SetMcpToolAlwaysAllowRequest, SettingChange,
    UpdateSettingsRequest,
};
use vibe_wire::{Envelope, Event, StopReason};

/// Short limits: a call that never answers gives up after two seconds.
fn limits() -> vibe_mcp::Limits {
    vibe_mcp::Limits {
        connect_timeout: Duration::from_secs(20),
        call_timeout: Duration::from_secs(2),
        ..vibe_mcp::Limits::default()
    }
}

/// An app talking to `model`, with the misbehaving server `bad` in `mode` and a good one,
/// `notes`; the tools named in `allowed` (server, tool) always allowed.
fn app_with(dir: &Path, model: &FakeServer, mode: &str, allowed: &[(&str, &str)]) -> Arc<App> {
    let keys = Arc::new(EphemeralKeys::default());
    let injections = Injections { mcp_limits: Some(limits()), ..Injections::default() };
    let app =
        App::open_injected(AppPaths::new(dir), Overrides::default(), keys, injections).unwrap();
    let changes = vec![
        SettingChange { key: "llm.base_url".into(), value: json!(model.url()) },
        SettingChange { key: "llm.model".into(), value: json!("test-model") },
    ];
    app.update_settings(UpdateSettingsRequest { changes }).unwrap();
    let script = vibe_test_support::misbehaving_server().display().to_string();
    for (name, mode) in [("bad", mode), ("notes", "ok")] {
        let args = vec![script.clone(), mode.to_string()];
        let add = AddMcpServerRequest {
            name: name.into(),
            command: Some("node".into()),
            args,
            ..AddMcpServerRequest::default()
        };
        app.add_mcp_server(add).unwrap();
    }
    for (server, tool) in allowed {
        let allow = SetMcpToolAlwaysAllowRequest {
            server: (*server).into(),
            tool: (*tool).into(),
            always_allow: true,
        };
        app.set_mcp_tool_always_allow(&allow).unwrap();
    }
    Arc::new(app)
}

/// The model opens both connections, calls `tool` of `bad` and `notes`' echo, then answers.
fn script_turn(model: &FakeServer, tool: &str) {
    model.push(Reply::sse(sse(vec![
        ev_tool_call(0, "c1", "use_connection", r#"{"server":"bad"}"#),
        ev_tool_call(1, "c2", "use_connection", r#"{"server":"notes"}"#),
        ev_finish("tool_calls"),
    ])));
    model.push(Reply::sse(sse(vec![
        ev_tool_call(0, "c3", &format!("mcp__bad__{tool}"), r#"{"text":"x"}"#),
        ev_tool_call(1, "c4", "mcp__notes__echo", r#"{"text":"still here"}"#),
        ev_finish("tool_calls"),
    ])));
    model.push(Reply::sse(sse(vec![ev_text("我换个方式帮你。"), ev_finish("stop")])));
}

/// Runs one turn (within a minute: nothing may hang); its stop reason and events.
async fn turn(app: &Arc<App>, message: &str) -> (StopReason, Vec<Envelope>) {
    let (tx, mut rx) = mpsc::unbounded_channel();
    let request = SendMessageRequest::say(None, message);
    let sent = app.send_message(request, Arc::new(ChannelSink(tx)));
    let done = tokio::time::timeout(Duration::from_secs(60), sent)
        .await
        .expect("the turn ended within a minute")
        .unwrap();
    let mut events = Vec::new();
    while let Ok(e) = rx.try_recv() {
        events.push(e);
    }
    (done.stop_reason, events)
}

/// The result the person was shown for the tool `name`.
fn shown_result(events: &[Envelope], name: &str) -> (Value, bool) {
    events
        .iter()
        .find_map(|e| match &e.event {
            Event::ToolResult { name: n, result, is_error, .. } if n == name => {
                Some((result.clone(), *is_error))
            }
            _ => None,
        })
        .unwrap_or_else(|| panic!("no result of {name}: {events:?}"))
}

/// The assistant's answer reached the person.
fn answered(events: &[Envelope]) -> bool {
    let text: String = events
        .iter()
        .filter_map(|e| match &e.event {
            Event::AssistantDelta { text } => Some(text.as_str()),
            _ => None,
        })
        .collect();
    text.contains("我换个方式")
}

/// One failing call: the turn completes with the answer, the bad tool's result names the
/// server and holds `reason` (for the model too), and the good server's echo worked.
async fn a_turn_survives(
    mode: &str,
    tool: &str,
    reason: &[&str],
) -> (Arc<App>, FakeServer, tempfile::TempDir) {
    let model = FakeServer::start();
    let dir = tempfile::tempdir().unwrap();
    let bad_tool = tool.to_string();
    let app = app_with(
        dir.path(),
        &model,
        mode,
        &[("bad", &bad_tool), ("bad", "echo"), ("notes", "echo")],
    );
    script_turn(&model, tool);
    let (stop, events) = turn(&app, "帮我看看").await;
    assert_eq!(stop, StopReason::Completed, "{events:?}");
    assert!(answered(&events), "{events:?}");
    let (result, is_error) = shown_result(&events, &format!("mcp__bad__{tool}"));
    assert!(is_error, "{result}");
    assert_eq!(result["server"], "bad", "{result}");
    let message = result["message"].as_str().unwrap_or_default();
    for words in reason {
        assert!(message.contains(words), "{words:?} not in {message}");
    }
    let (echo, echo_error) = shown_result(&events, "mcp__notes__echo");
    assert!(!echo_error && echo.to_string().contains("echo: still here"), "{echo}");
    let last = model.requests().last().unwrap().json()["messages"].to_string();
    assert!(last.contains(reason[0]), "{last}");
    (app, model, dir)
}

#[tokio::test]
async fn a_server_that_crashes_mid_call() {
    let reason = ["MCP server bad stopped (exit code 3)", "fatal: the index file is corrupt"];
    let (app, model, _dir) = a_turn_survives("crash", "boom", &reason).await;
    // The next turn starts the server again: its echo works.
    model.push(Reply::sse(sse(vec![
        ev_tool_call(0, "c1", "use_connection", r#"{"server":"bad"}"#),
        ev_finish("tool_calls"),
    ])));
    model.push(Reply::sse(sse(vec![
        ev_tool_call(0, "c2", "mcp__bad__echo", r#"{"text":"back"}"#),
        ev_finish("tool_calls"),
    ])));
    model.push(Reply::sse(sse(vec![ev_text("好了。"), ev_finish("stop")])));
    let (stop, events) = turn(&app, "再试一次").await;
    assert_eq!(stop, StopReason::Completed);
    let (echo, is_error) = shown_result(&events, "mcp__bad__echo");
    assert!(!is_error && echo.to_string().contains("echo: back"), "{echo}");
}

#[tokio::test]
async fn a_call_that_never_answers_times_out() {
    a_turn_survives("hang", "wait", &["MCP server bad did not answer the call of wait within 2 s"])
        .await;
}

#[tokio::test]
async fn a_server_that_writes_garbage_mid_call() {
    let reason = [
        "MCP server bad wrote something that is not a JSON-RPC message",
        "Server listening on port 3000",
    ];
    a_turn_survives("garbage", "log", &reason).await;
}

#[tokio::test]
async fn a_huge_result_is_refused_with_the_cap() {
    let reason = ["MCP server bad: the result of dump is larger than the 1048576 bytes"];
    a_turn_survives("huge", "dump", &reason).await;
}

#[tokio::test]
async fn a_server_with_500_tools_is_unavailable_and_the_catalogue_stays_small() {
    let model = FakeServer::start();
    let dir = tempfile::tempdir().unwrap();
    let app = app_with(dir.path(), &model, "tools500", &[("notes", "echo")]);
    script_turn(&model, "tool_0");
    let (stop, events) = turn(&app, "帮我看看").await;
    assert_eq!(stop, StopReason::Completed, "{events:?}");
    assert!(answered(&events), "{events:?}");
    let requests: Vec<Value> = model.requests().iter().map(|r| r.json()).collect();
    let catalogue = requests[0]["tools"].to_string();
    assert!(
        catalogue.contains("- bad: unavailable (MCP server bad lists more than 200 tools"),
        "{catalogue}"
    );
    assert!(!catalogue.contains("tool_1"), "{catalogue}");
    // No tool of it is ever offered; the good server's are.
    let offered = requests[1]["tools"].to_string();
    assert!(!offered.contains("mcp__bad__"), "{offered}");
    assert!(offered.contains("mcp__notes__echo"), "{offered}");
    let (echo, _) = shown_result(&events, "mcp__notes__echo");
    assert!(echo.to_string().contains("echo: still here"), "{echo}");
    // The person sees why (the use_connection result and the notices).
    let (opened, is_error) = shown_result(&events, "use_connection");
    assert!(is_error && opened.to_string().contains("lists more than 200 tools"), "{opened}");
}

/// `notifications/tools/list_changed`: the server adds a tool while a turn runs; its tools are
/// listed again before the next model round, which is offered the new tool and can call it.
#[tokio::test]
async fn a_tool_added_by_the_server_reaches_the_next_round() {
    let model = FakeServer::start();
    let dir = tempfile::tempdir().unwrap();
    let app = app_with(dir.path(), &model, "grows", &[("bad", "add_tool"), ("bad", "added")]);
    model.push(Reply::sse(sse(vec![
        ev_tool_call(0, "c1", "use_connection", r#"{"server":"bad"}"#),
        ev_finish("tool_calls"),
    ])));
    model.push(Reply::sse(sse(vec![
        ev_tool_call(0, "c2", "mcp__bad__add_tool", "{}"),
        ev_finish("tool_calls"),
    ])));
    model.push(Reply::sse(sse(vec![
        ev_tool_call(0, "c3", "mcp__bad__added", "{}"),
        ev_finish("tool_calls"),
    ])));
    model.push(Reply::sse(sse(vec![ev_text("我换个方式帮你。"), ev_finish("stop")])));
    let (stop, events) = turn(&app, "加个工具").await;
    assert_eq!(stop, StopReason::Completed, "{events:?}");
    let requests: Vec<Value> = model.requests().iter().map(|r| r.json()).collect();
    let offered = |i: usize| requests[i]["tools"].to_string();
    assert!(!offered(1).contains("mcp__bad__added"), "{}", offered(1));
    assert!(offered(2).contains("mcp__bad__added"), "{}", offered(2));
    let (result, is_error) = shown_result(&events, "mcp__bad__added");
    assert!(!is_error && result.to_string().contains("the added tool works"), "{result}");
}
