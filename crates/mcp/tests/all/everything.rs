//! The reference "everything" server from npm (`@modelcontextprotocol/server-everything`,
//! installed by scripts/mcp-env.sh into tests/npm) over stdio, confined with the default
//! grant, and over streamable HTTP: its tools listed, `echo` called. In its older HTTP+SSE
//! mode, which the SDK no longer speaks, connecting says so and names streamable HTTP.

use serde_json::json;
use vibe_mcp::{CancellationToken, Connection, Grant, Limits, ServerSpec, StdioSpec, Transport};
use vibe_test_support::{EverythingHttp, everything_server};

#[tokio::test]
async fn the_everything_server_from_npm_lists_its_tools_and_echoes() {
    let spec = ServerSpec {
        name: "everything".to_string(),
        transport: Transport::Stdio(StdioSpec {
            command: "node".to_string(),
            args: vec![everything_server().display().to_string(), "stdio".to_string()],
            grant: Grant::default(),
            ..StdioSpec::default()
        }),
    };
    let conn = Connection::connect(&spec, Limits::default()).await.unwrap();
    let tools = conn.list_tools().await.unwrap();
    let echo = tools.iter().find(|t| t.name == "echo").expect("an echo tool");
    assert_eq!(echo.model_name, "mcp__everything__echo");
    assert!(tools.len() > 5, "{tools:?}");
    let args = json!({"message": "来自 VibeLife"}).as_object().cloned().unwrap_or_default();
    let out = conn.call_tool("echo", args, &CancellationToken::new()).await.unwrap();
    assert!(out.text.contains("来自 VibeLife"), "{out:?}");
    assert!(!out.is_error);
    conn.close().await;
}

fn http_spec(name: &str, url: String) -> ServerSpec {
    let headers = vec![("X-Test".to_string(), "1".to_string())];
    ServerSpec {
        name: name.to_string(),
        transport: Transport::Http(vibe_mcp::HttpSpec { url, headers }),
    }
}

#[tokio::test]
async fn the_everything_server_over_streamable_http_lists_its_tools_and_echoes() {
    let server = EverythingHttp::start("streamableHttp");
    let spec = http_spec("everything-http", format!("http://127.0.0.1:{}/mcp", server.port));
    let conn = Connection::connect(&spec, Limits::default()).await.unwrap();
    let tools = conn.list_tools().await.unwrap();
    assert!(tools.iter().any(|t| t.model_name == "mcp__everything-http__echo"), "{tools:?}");
    let args = json!({"message": "over http"}).as_object().cloned().unwrap_or_default();
    let out = conn.call_tool("echo", args, &CancellationToken::new()).await.unwrap();
    assert!(out.text.contains("over http"), "{out:?}");
    conn.close().await;
}

#[tokio::test]
async fn a_server_of_the_older_sse_transport_is_named_as_such_and_streamable_http_is_asked_for() {
    let server = EverythingHttp::start("sse");
    let url = format!("http://127.0.0.1:{}/sse", server.port);
    let e =
        Connection::connect(&http_spec("old", url.clone()), Limits::default()).await.err().unwrap();
    assert!(matches!(&e, vibe_mcp::McpError::OldSse { url: shown, .. } if *shown == url), "{e:?}");
    let text = e.to_string();
    assert!(text.contains("older HTTP+SSE transport") && text.contains("rmcp"), "{text}");
    assert!(text.contains("streamable HTTP address") && text.contains("(stdio)"), "{text}");
    // A server that answers neither way is not taken for one (the streamable endpoint's
    // address on the same server, mistyped).
    let wrong = format!("http://127.0.0.1:{}/nothing-here", server.port);
    let e = Connection::connect(&http_spec("old", wrong), Limits::default()).await.err().unwrap();
    assert!(matches!(e, vibe_mcp::McpError::Http { .. }), "{e:?}");
}

#[tokio::test]
async fn an_http_server_that_is_not_there_says_where_it_looked_without_its_secrets() {
    let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let spec = ServerSpec {
        name: "absent".to_string(),
        transport: Transport::Http(vibe_mcp::HttpSpec {
            url: format!("http://user:pw-9911@127.0.0.1:{port}/mcp?key=k-5150"),
            headers: Vec::new(),
        }),
    };
    let e = Connection::connect(&spec, Limits::default()).await.err().unwrap();
    assert!(matches!(e, vibe_mcp::McpError::Http { .. }), "{e:?}");
    let text = e.to_string();
    assert!(text.contains(&format!("127.0.0.1:{port}")), "{text}");
    assert!(!text.contains("pw-9911") && !text.contains("k-5150"), "{text}");
}
