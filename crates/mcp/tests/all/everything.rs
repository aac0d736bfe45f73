//! The reference "everything" server from npm (`@modelcontextprotocol/server-everything`,
//! installed by scripts/mcp-env.sh into tests/npm) over stdio, confined with the default
//! grant: its tools listed, `echo` called.

use std::path::PathBuf;

use serde_json::json;
use vibe_mcp::{CancellationToken, Connection, Grant, Limits, ServerSpec, StdioSpec, Transport};

fn everything() -> PathBuf {
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/npm/node_modules/@modelcontextprotocol/server-everything/dist/index.js");
    assert!(
        script.is_file(),
        "{} is missing: run `bash scripts/mcp-env.sh` (scripts/test.sh does) to install the npm \
         servers the MCP tests use",
        script.display()
    );
    script
}

#[tokio::test]
async fn the_everything_server_from_npm_lists_its_tools_and_echoes() {
    let spec = ServerSpec {
        name: "everything".to_string(),
        transport: Transport::Stdio(StdioSpec {
            command: "node".to_string(),
            args: vec![everything().display().to_string(), "stdio".to_string()],
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

/// The same server over streamable HTTP on a free port of 127.0.0.1 (started by the test,
/// killed when dropped).
struct HttpServer(std::process::Child, u16);

impl Drop for HttpServer {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn start_http() -> HttpServer {
    use std::io::BufRead;
    let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let mut child = std::process::Command::new("node")
        .arg(everything())
        .arg("streamableHttp")
        .env("PORT", port.to_string())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let stderr = child.stderr.take().unwrap();
    let mut lines = std::io::BufReader::new(stderr).lines();
    let server = HttpServer(child, port);
    for line in lines.by_ref() {
        let line = line.unwrap();
        assert!(!line.contains("Failed to start"), "{line}");
        if line.contains("listening on port") {
            break;
        }
    }
    // Keep draining its stderr so it never blocks on a full pipe.
    std::thread::spawn(move || lines.for_each(drop));
    server
}

#[tokio::test]
async fn the_everything_server_over_streamable_http_lists_its_tools_and_echoes() {
    let server = start_http();
    let spec = ServerSpec {
        name: "everything-http".to_string(),
        transport: Transport::Http(vibe_mcp::HttpSpec {
            url: format!("http://127.0.0.1:{}/mcp", server.1),
            headers: vec![("X-Test".to_string(), "1".to_string())],
        }),
    };
    let conn = Connection::connect(&spec, Limits::default()).await.unwrap();
    let tools = conn.list_tools().await.unwrap();
    assert!(tools.iter().any(|t| t.model_name == "mcp__everything-http__echo"), "{tools:?}");
    let args = json!({"message": "over http"}).as_object().cloned().unwrap_or_default();
    let out = conn.call_tool("echo", args, &CancellationToken::new()).await.unwrap();
    assert!(out.text.contains("over http"), "{out:?}");
    conn.close().await;
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
