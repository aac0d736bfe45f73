//! Connected MCP servers in whole turns (docs/mcp.md, "What the coach sees"): a scripted
//! model (the fake OpenAI-compatible server) opens the npm "everything" server with
//! `use_connection` and calls `mcp__everything__echo` through `App::send_message`: the call
//! asks for approval with the server and the tool named; approved, the result reaches the next
//! request marked as external content; denied, the model reads the refusal; "always allow"
//! is saved and the next turn asks nothing; Stop cancels a call under way; the server's token
//! (an environment value in the keychain) never appears in events, settings or run files.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde_json::{Value, json};
use tokio::sync::mpsc;
use vibe_core::app::{App, AppPaths, EphemeralKeys, Overrides};
use vibe_runlog::emit::ChannelSink;
use vibe_test_support::{FakeServer, Reply, ev_finish, ev_text, ev_tool_call, sse};
use vibe_wire::command::{
    AddMcpServerRequest, CancelRunRequest, McpSecret, ResolveApprovalRequest, SendMessageRequest,
    SettingChange, UpdateSettingsRequest,
};
use vibe_wire::{ApprovalConnection, Envelope, Event, StopReason};

const TOKEN: &str = "tok-mcp-4242-secret";

fn everything() -> PathBuf {
    vibe_test_support::everything_server()
}

/// An app on data folder `dir` whose model is `server` (the scripted model); also used by
/// `mcp_python`.
pub(crate) fn app_on(dir: &Path, server: &FakeServer) -> App {
    let keys = Arc::new(EphemeralKeys::default());
    let app = App::open_with_keys(AppPaths::new(dir), Overrides::default(), keys).unwrap();
    let changes = vec![
        SettingChange { key: "llm.base_url".into(), value: json!(server.url()) },
        SettingChange { key: "llm.model".into(), value: json!("test-model") },
    ];
    app.update_settings(UpdateSettingsRequest { changes }).unwrap();
    app
}

/// An app talking to `server`, with the "everything" server connected (its environment
/// holding [`TOKEN`] from the keychain).
fn app_with_everything(dir: &Path, server: &FakeServer) -> Arc<App> {
    let app = app_on(dir, server);
    app.add_mcp_server(AddMcpServerRequest {
        name: "everything".into(),
        command: Some("node".into()),
        args: vec![everything().display().to_string(), "stdio".into()],
        env: vec![McpSecret { name: "EVERYTHING_TOKEN".into(), value: TOKEN.into() }],
        ..AddMcpServerRequest::default()
    })
    .unwrap();
    Arc::new(app)
}

/// The model opens the connection, calls `tool` with `args`, then answers.
fn script_call(server: &FakeServer, tool: &str, args: &str) {
    server.push(Reply::sse(sse(vec![
        ev_tool_call(0, "call_1", "use_connection", r#"{"server":"everything"}"#),
        ev_finish("tool_calls"),
    ])));
    server.push(Reply::sse(sse(vec![
        ev_tool_call(0, "call_2", tool, args),
        ev_finish("tool_calls"),
    ])));
    server.push(Reply::sse(sse(vec![ev_text("好的。"), ev_finish("stop")])));
}

struct Running {
    turn: tokio::task::JoinHandle<
        Result<vibe_wire::command::SendMessageResponse, vibe_core::app::AppError>,
    >,
    events: mpsc::UnboundedReceiver<Envelope>,
    seen: Vec<Envelope>,
}

fn start(app: &Arc<App>, message: &str) -> Running {
    let (tx, events) = mpsc::unbounded_channel();
    let sink = Arc::new(ChannelSink(tx));
    let request = SendMessageRequest::say(None, message);
    let app = Arc::clone(app);
    let turn = tokio::spawn(async move { app.send_message(request, sink).await });
    Running { turn, events, seen: Vec::new() }
}

impl Running {
    /// Waits for the approval request; its id, run id and connection.
    async fn approval(&mut self) -> (String, String, Option<ApprovalConnection>) {
        while let Some(e) = self.events.recv().await {
            self.seen.push(e.clone());
            if let Event::ApprovalRequired { request_id, connection, .. } = e.event {
                return (request_id, e.run_id, connection);
            }
        }
        panic!("no approval was asked: {:?}", self.seen);
    }

    /// The turn's end and every event it sent.
    async fn finish(mut self) -> (StopReason, Vec<Envelope>) {
        let done = self.turn.await.unwrap().unwrap();
        while let Ok(e) = self.events.try_recv() {
            self.seen.push(e);
        }
        (done.stop_reason, self.seen)
    }
}

fn tool_names(request: &Value) -> Vec<String> {
    request["tools"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|t| t["function"]["name"].as_str().map(str::to_string))
        .collect()
}

/// Every file under `dir` as text (lossy), for a search.
fn all_files_text(dir: &Path) -> String {
    let mut out = String::new();
    for entry in walk(dir) {
        if let Ok(bytes) = std::fs::read(&entry) {
            out.push_str(&String::from_utf8_lossy(&bytes));
        }
    }
    out
}

fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let path = entry.path();
        if path.is_dir() {
            files.extend(walk(&path));
        } else {
            files.push(path);
        }
    }
    files
}

#[tokio::test]
async fn an_approved_call_reaches_the_model_as_external_content_and_always_allow_asks_no_more() {
    let server = FakeServer::start();
    let dir = tempfile::tempdir().unwrap();
    let app = app_with_everything(dir.path(), &server);
    script_call(&server, "mcp__everything__echo", r#"{"message":"hi from the test"}"#);

    let mut running = start(&app, "帮我试一下连接");
    let (request_id, _, connection) = running.approval().await;
    let connection = connection.expect("the approval names the connection");
    assert_eq!((connection.server.as_str(), connection.tool.as_str()), ("everything", "echo"));
    let answer = ResolveApprovalRequest { request_id, approved: true, always: true };
    assert!(app.resolve_approval(&answer).resolved);
    let (stop, events) = running.finish().await;
    assert_eq!(stop, StopReason::Completed);

    let requests: Vec<Value> = server.requests().iter().map(|r| r.json()).collect();
    assert_eq!(requests.len(), 3);
    // Phase 1 offers use_connection, whose definition lists the connection; no server tool yet.
    let first = tool_names(&requests[0]);
    assert!(first.contains(&"use_connection".to_string()), "{first:?}");
    assert!(!first.iter().any(|n| n.starts_with("mcp__")), "{first:?}");
    let catalogue = requests[0]["tools"].to_string();
    assert!(catalogue.contains("- everything: "), "{catalogue}");
    // After use_connection, the server's tools are offered in the same turn.
    assert!(tool_names(&requests[1]).contains(&"mcp__everything__echo".to_string()));
    // The result, marked as coming from the server.
    let last = requests[2]["messages"].to_string();
    assert!(last.contains("Echo: hi from the test"), "{last}");
    assert!(last.contains("<外部内容 连接="), "{last}");
    assert!(last.contains("以下是外部服务 everything 返回的内容"), "{last}");
    let shown = events.iter().any(|e| {
        matches!(&e.event, Event::ToolResult { name, is_error: false, .. } if name == "mcp__everything__echo")
    });
    assert!(shown, "{events:?}");

    // "Always allow" is saved, and the next turn calls the tool without asking.
    let settings = std::fs::read_to_string(dir.path().join("settings.json")).unwrap();
    let doc: Value = serde_json::from_str(&settings).unwrap();
    assert_eq!(doc["mcp"]["servers"]["everything"]["always_allow"], json!(["echo"]));
    script_call(&server, "mcp__everything__echo", r#"{"message":"again"}"#);
    let (stop, events) = start(&app, "再试一次").finish().await;
    assert_eq!(stop, StopReason::Completed);
    assert!(!events.iter().any(|e| matches!(e.event, Event::ApprovalRequired { .. })));
    let last = server.requests().last().unwrap().json()["messages"].to_string();
    assert!(last.contains("Echo: again"), "{last}");

    // The server's token stays in the keychain: not in events, settings or any file.
    let all_events = serde_json::to_string(&events).unwrap();
    assert!(!all_events.contains(TOKEN));
    assert!(!settings.contains(TOKEN));
    assert!(!all_files_text(dir.path()).contains(TOKEN));
}

#[tokio::test]
async fn a_denied_call_is_a_refusal_the_model_reads() {
    let server = FakeServer::start();
    let dir = tempfile::tempdir().unwrap();
    let app = app_with_everything(dir.path(), &server);
    script_call(&server, "mcp__everything__echo", r#"{"message":"no"}"#);
    let mut running = start(&app, "试试");
    let (request_id, _, _) = running.approval().await;
    app.resolve_approval(&ResolveApprovalRequest { request_id, approved: false, always: true });
    let (stop, _) = running.finish().await;
    assert_eq!(stop, StopReason::Completed);
    let last = server.requests().last().unwrap().json()["messages"].to_string();
    assert!(last.contains("did not approve mcp__everything__echo"), "{last}");
    assert!(!last.contains("Echo: no"), "{last}");
    // "Always" with a denial saves nothing.
    let settings = std::fs::read_to_string(dir.path().join("settings.json")).unwrap();
    let doc: Value = serde_json::from_str(&settings).unwrap();
    let allowed = &doc["mcp"]["servers"]["everything"]["always_allow"];
    assert!(allowed.is_null() || *allowed == json!([]), "{settings}");
}

#[tokio::test]
async fn stop_cancels_a_call_under_way() {
    let server = FakeServer::start();
    let dir = tempfile::tempdir().unwrap();
    let app = app_with_everything(dir.path(), &server);
    script_call(
        &server,
        "mcp__everything__trigger-long-running-operation",
        r#"{"duration": 3600, "steps": 2}"#,
    );
    let mut running = start(&app, "做个长任务");
    let (request_id, run_id, _) = running.approval().await;
    app.resolve_approval(&ResolveApprovalRequest { request_id, approved: true, always: false });
    assert!(app.cancel_run(&CancelRunRequest { run_id }).cancelled);
    let (stop, _) = running.finish().await;
    assert_eq!(stop, StopReason::Cancelled);
    // The model was not asked again.
    assert_eq!(server.requests().len(), 2);
}

#[tokio::test]
async fn a_server_that_cannot_start_is_listed_unavailable_and_the_turn_goes_on() {
    let server = FakeServer::start();
    let dir = tempfile::tempdir().unwrap();
    let app = app_on(dir.path(), &server);
    app.add_mcp_server(AddMcpServerRequest {
        name: "gone".into(),
        command: Some("no-such-mcp-command-xyz".into()),
        ..AddMcpServerRequest::default()
    })
    .unwrap();
    let app = Arc::new(app);
    server.push(Reply::sse(sse(vec![
        ev_tool_call(0, "call_1", "use_connection", r#"{"server":"gone"}"#),
        ev_finish("tool_calls"),
    ])));
    server.push(Reply::sse(sse(vec![ev_text("好的。"), ev_finish("stop")])));
    let (stop, events) = start(&app, "看看日历").finish().await;
    assert_eq!(stop, StopReason::Completed);
    let requests: Vec<Value> = server.requests().iter().map(|r| r.json()).collect();
    let catalogue = requests[0]["tools"].to_string();
    assert!(
        catalogue.contains("- gone: unavailable (MCP server gone: the command `no-such-mcp"),
        "{catalogue}"
    );
    let last = requests[1]["messages"].to_string();
    assert!(last.contains("the connection `gone` is unavailable"), "{last}");
    // The person sees it too: the request's notices name the connection.
    let noticed = events.iter().any(|e| match &e.event {
        Event::ModelRequest { notices, .. } => {
            notices.iter().any(|n| n.contains("connection `gone` is unavailable"))
        }
        _ => false,
    });
    assert!(noticed, "{events:?}");
}

/// A skill's tools.yaml asking for `mcp: SERVER/TOOL`: a server that is not configured is a
/// warning of `vibe skills check` and of the skills list (never a failure at run time); one
/// that is gets its tool offered while the skill is active, without `use_connection`.
#[tokio::test]
async fn a_skill_asks_for_a_connection_tool_and_a_missing_server_is_reported_by_the_check() {
    let skills = tempfile::tempdir().unwrap();
    let dir = vibe_test_support::write_skill(
        skills.path(),
        "planner",
        "description: 帮助用户安排日程。\nuser-invocable: true",
        "# 日程助手\n帮用户安排日程。",
    );
    std::fs::write(
        dir.join("tools.yaml"),
        "tools:\n  - read_state\n  - mcp: everything/echo\n  - mcp: calendar/list_events\n",
    )
    .unwrap();
    let server = FakeServer::start();
    let data = tempfile::tempdir().unwrap();
    let keys = Arc::new(EphemeralKeys::default());
    let overrides =
        Overrides { skills_dir: Some(skills.path().to_path_buf()), ..Overrides::default() };
    let app = App::open_with_keys(AppPaths::new(data.path()), overrides, keys).unwrap();
    let changes = vec![
        SettingChange { key: "llm.base_url".into(), value: json!(server.url()) },
        SettingChange { key: "llm.model".into(), value: json!("test-model") },
    ];
    app.update_settings(UpdateSettingsRequest { changes }).unwrap();
    app.add_mcp_server(AddMcpServerRequest {
        name: "everything".into(),
        command: Some("node".into()),
        args: vec![everything().display().to_string(), "stdio".into()],
        ..AddMcpServerRequest::default()
    })
    .unwrap();

    let report = app.check_skills(&vibe_wire::command::CheckSkillsRequest {
        dirs: vec![skills.path().display().to_string()],
    });
    assert!(report.ok, "{report:?}");
    let texts: Vec<&str> = report.problems.iter().map(|p| p.text.as_str()).collect();
    assert_eq!(texts.len(), 1, "{texts:?}");
    assert!(
        texts[0].contains("tools.yaml:4:") && texts[0].contains("no connection is named calendar"),
        "{texts:?}"
    );
    let listed = app.list_skills();
    let planner = listed.skills.iter().find(|s| s.name == "planner").unwrap();
    assert!(planner.problems.iter().any(|p| p.contains("calendar")), "{:?}", planner.problems);
    assert!(!planner.problems.iter().any(|p| p.contains("everything")), "{:?}", planner.problems);

    server.push(Reply::sse(sse(vec![ev_text("好的。"), ev_finish("stop")])));
    let app = Arc::new(app);
    let (tx, _events) = mpsc::unbounded_channel();
    let mut request = SendMessageRequest::say(None, "明天有什么安排");
    request.skill = Some("planner".into());
    let done = app.send_message(request, Arc::new(ChannelSink(tx))).await.unwrap();
    assert_eq!(done.stop_reason, StopReason::Completed);
    let offered = tool_names(&server.requests()[0].json());
    assert!(offered.contains(&"mcp__everything__echo".to_string()), "{offered:?}");
    assert!(!offered.iter().any(|n| n.contains("calendar")), "{offered:?}");
}
