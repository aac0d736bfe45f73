//! Prompts and resources: our scripted server (test-support's misbehaving.mjs in its `ok`
//! mode) lists a prompt with an argument and a resource, and gives their text; the reference
//! "everything" server from npm lists its own; a server that declares none offers none.

use std::path::PathBuf;

use serde_json::{Map, Value, json};
use vibe_mcp::{Connection, Grant, Limits, PromptArgument, ServerSpec, StdioSpec, Transport};

fn node_server(name: &str, script: PathBuf, mode: &str) -> ServerSpec {
    ServerSpec {
        name: name.to_string(),
        transport: Transport::Stdio(StdioSpec {
            command: "node".to_string(),
            args: vec![script.display().to_string(), mode.to_string()],
            grant: Grant::default(),
            ..StdioSpec::default()
        }),
    }
}

fn scripted() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../test-support/mcp/misbehaving.mjs")
}

#[tokio::test]
async fn a_servers_prompt_and_resource_are_listed_and_read() {
    let conn = Connection::connect(&node_server("notes", scripted(), "ok"), Limits::default())
        .await
        .unwrap();
    let prompts = conn.list_prompts().await.unwrap();
    assert_eq!(prompts.len(), 1, "{prompts:?}");
    assert_eq!(prompts[0].name, "weekly_review");
    assert_eq!(prompts[0].title.as_deref(), Some("Weekly review"));
    let focus = PromptArgument {
        name: "focus".into(),
        description: Some("What to look at".into()),
        required: false,
    };
    assert_eq!(prompts[0].arguments, [focus]);
    let text = conn.get_prompt("weekly_review", Map::new()).await.unwrap();
    assert_eq!(text, "Let us review my week, looking at the whole week.");
    let args: Map<String, Value> = json!({"focus": "sleep"}).as_object().cloned().unwrap();
    let text = conn.get_prompt("weekly_review", args).await.unwrap();
    assert_eq!(text, "Let us review my week, looking at sleep.");

    let resources = conn.list_resources().await.unwrap();
    assert_eq!(resources.len(), 1, "{resources:?}");
    assert_eq!(resources[0].uri, "notes://today");
    assert_eq!(resources[0].mime_type.as_deref(), Some("text/markdown"));
    assert_eq!(conn.read_resource("notes://today").await.unwrap(), "# Today\n- walk");
    conn.close().await;
}

#[tokio::test]
async fn the_everything_server_lists_prompts_and_resources() {
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/npm/node_modules/@modelcontextprotocol/server-everything/dist/index.js");
    assert!(script.is_file(), "run `bash scripts/mcp-env.sh` to install {}", script.display());
    let spec = ServerSpec {
        transport: Transport::Stdio(StdioSpec {
            args: vec![script.display().to_string(), "stdio".into()],
            command: "node".into(),
            ..StdioSpec::default()
        }),
        name: "everything".into(),
    };
    let conn = Connection::connect(&spec, Limits::default()).await.unwrap();
    let prompts = conn.list_prompts().await.unwrap();
    let simple = prompts.iter().find(|p| p.arguments.iter().all(|a| !a.required));
    let simple =
        simple.unwrap_or_else(|| panic!("a prompt without required arguments: {prompts:?}"));
    let text = conn.get_prompt(&simple.name, Map::new()).await.unwrap();
    assert!(!text.trim().is_empty(), "{simple:?}");
    let resources = conn.list_resources().await.unwrap();
    assert!(!resources.is_empty());
    let read = conn.read_resource(&resources[0].uri).await.unwrap();
    assert!(!read.is_empty(), "{:?}", resources[0]);
    conn.close().await;
}

#[tokio::test]
async fn a_server_without_prompts_or_resources_offers_none() {
    let spec = node_server("plain", scripted(), "grows");
    let conn = Connection::connect(&spec, Limits::default()).await.unwrap();
    assert!(conn.list_prompts().await.unwrap().is_empty());
    assert!(conn.list_resources().await.unwrap().is_empty());
    conn.close().await;
}
