//! Our own misbehaving server (tests/server) over stdio, confined: each way of failing gives
//! its own error, with what the server wrote to stderr; a call can be cancelled and time out
//! without losing the connection.

use std::time::Duration;

use serde_json::{Map, Value, json};
use vibe_mcp::{
    CancellationToken, Connection, Grant, Limits, McpError, ServerSpec, StdioSpec, Transport,
};

const SERVER: &str = env!("CARGO_BIN_EXE_vibe-mcp-test-server");

fn spec(mode: &str, grant: Grant) -> ServerSpec {
    ServerSpec {
        name: "test".to_string(),
        transport: Transport::Stdio(StdioSpec {
            command: SERVER.to_string(),
            args: vec![mode.to_string()],
            grant,
            ..StdioSpec::default()
        }),
    }
}

fn limits() -> Limits {
    Limits {
        connect_timeout: Duration::from_secs(10),
        call_timeout: Duration::from_secs(10),
        ..Limits::default()
    }
}

async fn connect(mode: &str) -> Result<Connection, McpError> {
    Connection::connect(&spec(mode, Grant::default()), limits()).await
}

fn args(v: Value) -> Map<String, Value> {
    v.as_object().cloned().unwrap_or_default()
}

#[tokio::test]
async fn a_good_server_lists_its_tools_and_echoes() {
    let conn = connect("ok").await.unwrap();
    let tools = conn.list_tools().await.unwrap();
    let names: Vec<&str> = tools.iter().map(|t| t.model_name.as_str()).collect();
    assert_eq!(
        names,
        ["mcp__test__echo", "mcp__test__read_file", "mcp__test__sleep", "mcp__test__connect"]
    );
    assert_eq!(tools[0].read_only, Some(true));
    let out = conn
        .call_tool("echo", args(json!({"text": "你好"})), &CancellationToken::new())
        .await
        .unwrap();
    assert_eq!(out.text, "echo: 你好");
    assert!(!out.is_error);
    conn.close().await;
}

#[tokio::test]
async fn a_crash_gives_the_exit_code_and_the_last_stderr_lines() {
    let e = connect("crash").await.err().unwrap();
    assert!(matches!(e, McpError::Crashed { .. }), "{e:?}");
    let text = e.to_string();
    assert!(text.contains("exit code 3"), "{text}");
    assert!(text.contains("cannot open the database: permission denied"), "{text}");
}

#[tokio::test]
async fn a_server_that_never_answers_times_out() {
    let limits = Limits { connect_timeout: Duration::from_millis(500), ..limits() };
    let e = Connection::connect(&spec("hang", Grant::default()), limits).await.err().unwrap();
    assert!(matches!(e, McpError::TimedOut { .. }), "{e:?}");
    assert!(e.to_string().contains("did not answer initialize"), "{e}");
}

#[tokio::test]
async fn a_log_line_on_stdout_is_malformed_json_rpc() {
    let e = connect("garbage").await.err().unwrap();
    assert!(matches!(e, McpError::Malformed { .. }), "{e:?}");
    let text = e.to_string();
    assert!(text.contains("Server listening"), "{text}");
    assert!(text.contains("logs to stderr"), "{text}");
}

#[tokio::test]
async fn five_hundred_tools_are_too_many() {
    let conn = connect("tools500").await.unwrap();
    let e = conn.list_tools().await.err().unwrap();
    assert!(matches!(e, McpError::TooManyTools { limit: 200, .. }), "{e:?}");
    assert!(e.to_string().contains("more than 200 tools"), "{e}");
}

#[tokio::test]
async fn all_pages_of_tools_are_listed_under_the_cap() {
    let limits = Limits { max_tools: 500, ..limits() };
    let conn = Connection::connect(&spec("tools500", Grant::default()), limits).await.unwrap();
    let tools = conn.list_tools().await.unwrap();
    assert_eq!(tools.len(), 500);
    assert_eq!(tools[499].name, "tool_499");
}

#[tokio::test]
async fn a_huge_result_is_refused_not_cut() {
    let conn = connect("huge").await.unwrap();
    let e = conn
        .call_tool("echo", args(json!({"text": "x"})), &CancellationToken::new())
        .await
        .err()
        .unwrap();
    assert!(matches!(e, McpError::ResultTooLarge { limit, .. } if limit == 1 << 20), "{e:?}");
}

#[tokio::test]
async fn a_call_can_be_cancelled_and_the_connection_goes_on() {
    let conn = connect("ok").await.unwrap();
    let cancel = CancellationToken::new();
    let trip = cancel.clone();
    tokio::spawn(async move {
        tokio::time::sleep(Duration::from_millis(200)).await;
        trip.cancel();
    });
    let e = conn.call_tool("sleep", Map::new(), &cancel).await.err().unwrap();
    assert!(matches!(e, McpError::Cancelled { .. }), "{e:?}");
    let out = conn
        .call_tool("echo", args(json!({"text": "still here"})), &CancellationToken::new())
        .await
        .unwrap();
    assert_eq!(out.text, "echo: still here");
}

#[tokio::test]
async fn a_call_that_never_ends_times_out() {
    let limits = Limits { call_timeout: Duration::from_millis(300), ..limits() };
    let conn = Connection::connect(&spec("ok", Grant::default()), limits).await.unwrap();
    let e = conn.call_tool("sleep", Map::new(), &CancellationToken::new()).await.err().unwrap();
    assert!(matches!(e, McpError::TimedOut { .. }), "{e:?}");
    assert!(e.to_string().contains("the call of sleep"), "{e}");
}

#[tokio::test]
async fn a_missing_command_says_where_it_looked_and_asks_for_an_absolute_path() {
    let mut s = spec("ok", Grant::default());
    if let Transport::Stdio(stdio) = &mut s.transport {
        stdio.command = "no-such-mcp-server-xyz".to_string();
        stdio.search_path = Some("/opt/vibe-test/bin".into());
    }
    let e = Connection::connect(&s, limits()).await.err().unwrap();
    assert!(matches!(e, McpError::CommandNotFound { .. }), "{e:?}");
    let text = e.to_string();
    for part in ["/opt/vibe-test/bin", "/usr/local/bin", ".local/bin", "absolute path"] {
        assert!(text.contains(part), "{part} missing: {text}");
    }
}

#[tokio::test]
async fn a_confined_server_reads_only_what_it_was_granted() {
    let outside = tempfile::tempdir().unwrap();
    let file = outside.path().join("diary.txt");
    std::fs::write(&file, "private").unwrap();
    let read = args(json!({"path": file.display().to_string()}));

    let conn = connect("ok").await.unwrap();
    let out = conn.call_tool("read_file", read.clone(), &CancellationToken::new()).await.unwrap();
    assert!(out.is_error, "{out:?}");
    assert!(!out.text.contains("private"), "{out:?}");

    let grant = Grant { read: vec![outside.path().to_path_buf()], ..Grant::default() };
    let conn = Connection::connect(&spec("ok", grant), limits()).await.unwrap();
    let out = conn.call_tool("read_file", read, &CancellationToken::new()).await.unwrap();
    assert_eq!(out.text, "private");
}

#[tokio::test]
async fn a_confined_server_reaches_the_network_only_when_granted() {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let address = args(json!({"address": listener.local_addr().unwrap().to_string()}));

    let conn = connect("ok").await.unwrap();
    let out = conn.call_tool("connect", address.clone(), &CancellationToken::new()).await.unwrap();
    assert!(out.is_error && out.text.contains("cannot connect"), "{out:?}");

    let grant = Grant { network: true, ..Grant::default() };
    let conn = Connection::connect(&spec("ok", grant), limits()).await.unwrap();
    let out = conn.call_tool("connect", address, &CancellationToken::new()).await.unwrap();
    assert_eq!(out.text, "connected");
}
