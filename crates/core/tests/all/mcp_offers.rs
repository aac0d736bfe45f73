//! A server's prompts and resources through the App (docs/mcp.md, "Prompts and resources"):
//! the enabled servers' prompts for the conversation starters (a server that cannot start is
//! named, the others listed), a prompt's text with an argument, a server's resources and one
//! resource's content; our scripted server (test-support's misbehaving.mjs, `ok` mode).

use std::sync::Arc;

use vibe_core::app::{App, AppPaths, EphemeralKeys, Overrides};
use vibe_wire::command::{
    AddMcpServerRequest, GetMcpPromptRequest, McpServerRequest, ReadMcpResourceRequest,
};

#[tokio::test]
async fn prompts_of_the_enabled_servers_and_a_servers_resources() {
    let dir = tempfile::tempdir().unwrap();
    let keys = Arc::new(EphemeralKeys::default());
    let app = App::open_with_keys(AppPaths::new(dir.path()), Overrides::default(), keys).unwrap();
    let script = vibe_test_support::misbehaving_server().display().to_string();
    app.add_mcp_server(AddMcpServerRequest {
        name: "notes".into(),
        command: Some("node".into()),
        args: vec![script, "ok".into()],
        ..AddMcpServerRequest::default()
    })
    .unwrap();
    app.add_mcp_server(AddMcpServerRequest {
        name: "gone".into(),
        command: Some("no-such-mcp-command-xyz".into()),
        ..AddMcpServerRequest::default()
    })
    .unwrap();

    let list = app.mcp_prompts().await;
    assert_eq!(list.prompts.len(), 1, "{list:?}");
    let prompt = &list.prompts[0];
    assert_eq!((prompt.server.as_str(), prompt.name.as_str()), ("notes", "weekly_review"));
    assert_eq!(prompt.title.as_deref(), Some("Weekly review"));
    assert_eq!(prompt.arguments[0].name, "focus");
    assert_eq!(list.unavailable.len(), 1, "{list:?}");
    assert!(list.unavailable[0].starts_with("gone: MCP server gone: the command"), "{list:?}");

    let mut request = GetMcpPromptRequest {
        server: "notes".into(),
        name: "weekly_review".into(),
        ..GetMcpPromptRequest::default()
    };
    request.arguments.insert("focus".into(), "sleep".into());
    let got = app.get_mcp_prompt(&request).await.unwrap();
    assert_eq!(got.text, "Let us review my week, looking at sleep.");
    request.server = "nobody".into();
    let e = app.get_mcp_prompt(&request).await.err().unwrap().to_string();
    assert!(e.contains("no enabled MCP server is named \"nobody\""), "{e}");

    let listed = app.mcp_server_resources(&McpServerRequest { name: "notes".into() }).await;
    let resources = listed.unwrap().resources;
    assert_eq!(resources.len(), 1, "{resources:?}");
    assert_eq!(resources[0].title.as_deref(), Some("Today's notes"));
    let read = ReadMcpResourceRequest { server: "notes".into(), uri: resources[0].uri.clone() };
    assert_eq!(app.read_mcp_resource(&read).await.unwrap().text, "# Today\n- walk");
}
