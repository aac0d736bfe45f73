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
