//! A server written with the `mcp` package from PyPI (test-support's `mcp/python_server.py`,
//! run by the venv's python scripts/mcp-env.sh makes) in a whole turn (docs/mcp.md): added
//! with the default sandbox as a person adds it, opened by the scripted model with
//! `use_connection`, its `mood_average` tool called after approval (the approval shows the
//! server's read-only hint); the Python server's result reaches the model's next request as
//! external content, and the final answer quotes it.

use std::sync::Arc;

use serde_json::Value;
use tokio::sync::mpsc;
use vibe_runlog::emit::ChannelSink;
use vibe_test_support::{FakeServer, Reply, ev_finish, ev_text, ev_tool_call, sse};
use vibe_wire::command::{AddMcpServerRequest, ResolveApprovalRequest, SendMessageRequest};
use vibe_wire::{Event, StopReason};

const RESULT: &str = "mood average 7.33 over 3 scores (python-mcp)";

#[tokio::test]
async fn the_model_calls_a_python_sdk_server_tool_and_the_answer_carries_its_result() {
    let server = FakeServer::start();
    let dir = tempfile::tempdir().unwrap();
    let app = crate::mcp_turns::app_on(dir.path(), &server);
    let (python, script) = vibe_test_support::python_server();
    app.add_mcp_server(AddMcpServerRequest {
        name: "moods".into(),
        command: Some(python.display().to_string()),
        args: vec![script.display().to_string()],
        ..AddMcpServerRequest::default()
    })
    .unwrap();
    let app = Arc::new(app);

    server.push(Reply::sse(sse(vec![
        ev_tool_call(0, "call_1", "use_connection", r#"{"server":"moods"}"#),
        ev_finish("tool_calls"),
    ])));
    server.push(Reply::sse(sse(vec![
        ev_tool_call(0, "call_2", "mcp__moods__mood_average", r#"{"scores":[6,7,9]}"#),
        ev_finish("tool_calls"),
    ])));
    server.push(Reply::sse(sse(vec![
        ev_text("这三天你的平均心情是 7.33 分（3 次记录）。"),
        ev_finish("stop"),
    ])));

    let (tx, mut events) = mpsc::unbounded_channel();
    let request = SendMessageRequest::say(None, "我这几天的心情分别是 6、7、9，平均多少？");
    let turn = {
        let app = Arc::clone(&app);
        tokio::spawn(async move { app.send_message(request, Arc::new(ChannelSink(tx))).await })
    };
    let mut seen = Vec::new();
    while let Some(e) = events.recv().await {
        seen.push(e.clone());
        if let Event::ApprovalRequired { request_id, connection, .. } = e.event {
            let connection = connection.expect("the approval names the connection");
            assert_eq!(
                (connection.server.as_str(), connection.tool.as_str()),
                ("moods", "mood_average")
            );
            assert_eq!(connection.read_only, Some(true), "the server's hint is shown");
            let answer = ResolveApprovalRequest { request_id, approved: true, always: false };
            assert!(app.resolve_approval(&answer).resolved);
            break;
        }
    }
    let done = turn.await.unwrap().unwrap();
    while let Ok(e) = events.try_recv() {
        seen.push(e);
    }
    assert_eq!(done.stop_reason, StopReason::Completed);
    assert!(done.text.contains("7.33"), "{}", done.text);

    let requests: Vec<Value> = server.requests().iter().map(|r| r.json()).collect();
    assert_eq!(requests.len(), 3);
    let offered = requests[1]["tools"].to_string();
    assert!(
        offered.contains("mcp__moods__mood_average") && offered.contains("mcp__moods__count_words")
    );
    // What the Python server answered, marked as coming from it, is what the model read.
    let last = requests[2]["messages"].to_string();
    assert!(last.contains(RESULT), "{last}");
    assert!(
        last.contains("<外部内容 连接=") && last.contains("以下是外部服务 moods 返回的内容"),
        "{last}"
    );
    let result = seen.iter().find_map(|e| match &e.event {
        Event::ToolResult { name, is_error, .. } if name == "mcp__moods__mood_average" => {
            Some(*is_error)
        }
        _ => None,
    });
    assert_eq!(result, Some(false), "{seen:?}");
    server.requests().iter().for_each(|r| r.assert_tool_pairs());
}
