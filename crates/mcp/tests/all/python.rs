//! A small server written with the `mcp` package from PyPI (test-support's
//! `mcp/python_server.py`, run by the venv's python scripts/mcp-env.sh makes) over stdio,
//! confined with the default grant: its tools listed with their schemas and hints, one called,
//! a bad argument answered as the tool's error.

use serde_json::json;
use vibe_mcp::{CancellationToken, Connection, Grant, Limits, ServerSpec, StdioSpec, Transport};

fn spec() -> ServerSpec {
    let (python, script) = vibe_test_support::python_server();
    ServerSpec {
        name: "py".to_string(),
        transport: Transport::Stdio(StdioSpec {
            command: python.display().to_string(),
            args: vec![script.display().to_string()],
            grant: Grant::default(),
            ..StdioSpec::default()
        }),
    }
}

#[tokio::test]
async fn a_python_sdk_server_lists_its_tools_and_answers_a_call_under_the_default_sandbox() {
    let conn = Connection::connect(&spec(), Limits::default()).await.unwrap();
    let (name, _version) = conn.server_info().unwrap();
    assert_eq!(name, "vibe-python-test");
    assert!(conn.instructions().unwrap().contains("Mood arithmetic"));
    let tools = conn.list_tools().await.unwrap();
    let names: Vec<&str> = tools.iter().map(|t| t.model_name.as_str()).collect();
    assert_eq!(names, ["mcp__py__mood_average", "mcp__py__count_words"]);
    let average = &tools[0];
    assert_eq!(average.read_only, Some(true));
    assert_eq!(average.input_schema["properties"]["scores"]["items"]["type"], "integer");
    assert!(average.description.as_deref().unwrap().contains("mood scores"));

    let call = |args: serde_json::Value| {
        let args = args.as_object().cloned().unwrap_or_default();
        let conn = &conn;
        async move { conn.call_tool("mood_average", args, &CancellationToken::new()).await }
    };
    let out = call(json!({"scores": [6, 7, 9]})).await.unwrap();
    assert_eq!(out.text, "mood average 7.33 over 3 scores (python-mcp)");
    assert!(!out.is_error);
    let out = call(json!({"scores": [0, 11]})).await.unwrap();
    assert!(out.is_error && out.text.contains("from 1 to 10"), "{out:?}");
    conn.close().await;
}
