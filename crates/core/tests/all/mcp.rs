//! MCP servers through the App (docs/mcp.md): added with secrets that reach the keychain and
//! never settings.json, listed, turned off, imported from a Claude Desktop config, removed
//! with their secrets; a real server from npm (tests/npm of vibe-mcp) listed and tested, and
//! tested in its older HTTP+SSE mode, which fails naming streamable HTTP.

use std::path::PathBuf;
use std::sync::Arc;

use vibe_core::app::{App, AppPaths, EphemeralKeys, KeyStore, Overrides};
use vibe_wire::command::{
    AddMcpServerRequest, ImportMcpServersRequest, McpSecret, McpServerRequest,
    SetMcpServerEnabledRequest, SetMcpToolAlwaysAllowRequest,
};
use vibe_wire::settings::McpSandbox;

fn open(dir: &std::path::Path, keys: Arc<EphemeralKeys>) -> App {
    App::open_with_keys(AppPaths::new(dir), Overrides::default(), keys).unwrap()
}

fn settings_text(dir: &std::path::Path) -> String {
    std::fs::read_to_string(dir.join("settings.json")).unwrap()
}

fn everything() -> PathBuf {
    vibe_test_support::everything_server()
}

#[test]
fn secrets_of_a_server_go_to_the_keychain_and_never_to_settings_json() {
    let dir = tempfile::tempdir().unwrap();
    let keys = Arc::new(EphemeralKeys::default());
    let app = open(dir.path(), keys.clone());
    let notes = tempfile::tempdir().unwrap();
    let view = app
        .add_mcp_server(AddMcpServerRequest {
            name: "notes".into(),
            command: Some("npx".into()),
            args: vec!["-y".into(), "notes-mcp".into()],
            env: vec![McpSecret { name: "NOTES_TOKEN".into(), value: "tok-5150-secret".into() }],
            sandbox: McpSandbox {
                read: vec![notes.path().display().to_string()],
                ..McpSandbox::default()
            },
            ..AddMcpServerRequest::default()
        })
        .unwrap();
    assert_eq!(view.env, ["NOTES_TOKEN"]);
    assert!(view.missing_secrets.is_empty());
    assert!(view.permissions.contains("no network"), "{}", view.permissions);
    let web = app
        .add_mcp_server(AddMcpServerRequest {
            name: "web".into(),
            url: Some("https://mcp.example/mcp".into()),
            headers: vec![McpSecret {
                name: "Authorization".into(),
                value: "Bearer hdr-9911".into(),
            }],
            ..AddMcpServerRequest::default()
        })
        .unwrap();
    assert_eq!(web.headers, ["Authorization"]);

    let text = settings_text(dir.path());
    assert!(text.contains("NOTES_TOKEN") && text.contains("Authorization"), "{text}");
    assert!(!text.contains("tok-5150") && !text.contains("hdr-9911"), "{text}");
    assert_eq!(
        keys.get_secret("mcp:notes:env:NOTES_TOKEN").unwrap().as_deref().map(String::as_str),
        Some("tok-5150-secret")
    );
    let shown = serde_json::to_string(&app.list_mcp_servers()).unwrap();
    assert!(!shown.contains("tok-5150") && !shown.contains("hdr-9911"), "{shown}");

    app.remove_mcp_server(&McpServerRequest { name: "notes".into() }).unwrap();
    assert_eq!(keys.get_secret("mcp:notes:env:NOTES_TOKEN").unwrap(), None);
    let names: Vec<String> = app.list_mcp_servers().servers.into_iter().map(|s| s.name).collect();
    assert_eq!(names, ["web"]);
}

#[test]
fn a_bad_server_is_refused_and_nothing_is_kept() {
    let dir = tempfile::tempdir().unwrap();
    let keys = Arc::new(EphemeralKeys::default());
    let app = open(dir.path(), keys.clone());
    let e = app
        .add_mcp_server(AddMcpServerRequest {
            name: "my notes".into(),
            command: Some("npx".into()),
            env: vec![McpSecret { name: "T".into(), value: "v".into() }],
            ..AddMcpServerRequest::default()
        })
        .unwrap_err();
    assert!(e.to_string().contains("cannot name a server"), "{e}");
    assert_eq!(keys.get_secret("mcp:my notes:env:T").unwrap(), None);
    assert!(app.list_mcp_servers().servers.is_empty());
}

#[test]
fn a_claude_desktop_config_is_imported_with_its_secrets_moved_to_the_keychain() {
    let dir = tempfile::tempdir().unwrap();
    let keys = Arc::new(EphemeralKeys::default());
    let app = open(dir.path(), keys.clone());
    let report = app
        .import_mcp_servers(&ImportMcpServersRequest {
            json: r#"{"mcpServers": {
                "github": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-github"],
                           "env": {"GITHUB_PERSONAL_ACCESS_TOKEN": "ghp_abc123secret"}},
                "has space": {"command": "x"}
            }}"#
            .into(),
        })
        .unwrap();
    assert_eq!(report.added.len(), 1);
    assert_eq!(report.skipped[0].name, "has space");
    let text = settings_text(dir.path());
    assert!(text.contains("GITHUB_PERSONAL_ACCESS_TOKEN"), "{text}");
    assert!(!text.contains("ghp_abc123secret"), "{text}");
    assert!(keys.get_secret("mcp:github:env:GITHUB_PERSONAL_ACCESS_TOKEN").unwrap().is_some());
    app.set_mcp_server_enabled(&SetMcpServerEnabledRequest {
        name: "github".into(),
        enabled: false,
    })
    .unwrap();
    assert!(!app.list_mcp_servers().servers[0].enabled);
}

#[tokio::test]
async fn a_server_from_npm_is_listed_and_tested_confined() {
    let dir = tempfile::tempdir().unwrap();
    let app = open(dir.path(), Arc::new(EphemeralKeys::default()));
    app.add_mcp_server(AddMcpServerRequest {
        name: "everything".into(),
        command: Some("node".into()),
        args: vec![everything().display().to_string(), "stdio".into()],
        ..AddMcpServerRequest::default()
    })
    .unwrap();
    let request = McpServerRequest { name: "everything".into() };
    let tools = app.mcp_server_tools(&request).await.unwrap();
    let echo = tools.tools.iter().find(|t| t.name == "echo").unwrap();
    assert_eq!(echo.model_name, "mcp__everything__echo");
    let report = app.test_mcp_server(&request).await.unwrap();
    assert!(report.ok, "{report:?}");
    assert!(report.tools > 5, "{report:?}");
}

#[tokio::test]
async fn a_server_that_cannot_start_is_a_failed_test_with_the_reason() {
    let dir = tempfile::tempdir().unwrap();
    let app = open(dir.path(), Arc::new(EphemeralKeys::default()));
    app.add_mcp_server(AddMcpServerRequest {
        name: "gone".into(),
        command: Some("no-such-mcp-command-xyz".into()),
        ..AddMcpServerRequest::default()
    })
    .unwrap();
    let report = app.test_mcp_server(&McpServerRequest { name: "gone".into() }).await.unwrap();
    assert!(!report.ok);
    let error = report.error.unwrap();
    assert!(error.message.contains("absolute path"), "{}", error.message);
}

#[test]
fn always_allow_is_set_and_taken_back_per_tool_and_concurrent_changes_all_land() {
    let dir = tempfile::tempdir().unwrap();
    let keys = Arc::new(EphemeralKeys::default());
    let app = Arc::new(open(dir.path(), keys.clone()));
    app.add_mcp_server(AddMcpServerRequest {
        name: "everything".into(),
        command: Some("node".into()),
        ..AddMcpServerRequest::default()
    })
    .unwrap();
    let set = |tool: &str, always_allow: bool| SetMcpToolAlwaysAllowRequest {
        server: "everything".into(),
        tool: tool.into(),
        always_allow,
    };
    let view = app.set_mcp_tool_always_allow(&set("echo", true)).unwrap();
    assert_eq!(view.always_allow, ["echo"]);
    // Twice is once.
    let view = app.set_mcp_tool_always_allow(&set("echo", true)).unwrap();
    assert_eq!(view.always_allow, ["echo"]);

    // Read-modify-write from many threads at once: no change is lost.
    let tools: Vec<String> = (0..8).map(|i| format!("tool_{i}")).collect();
    std::thread::scope(|scope| {
        for tool in &tools {
            let app = Arc::clone(&app);
            scope.spawn(move || {
                app.set_mcp_tool_always_allow(&SetMcpToolAlwaysAllowRequest {
                    server: "everything".into(),
                    tool: tool.clone(),
                    always_allow: true,
                })
                .unwrap();
            });
        }
    });
    let listed = &app.list_mcp_servers().servers[0].always_allow;
    assert_eq!(listed.len(), 9, "{listed:?}");

    let view = app.set_mcp_tool_always_allow(&set("echo", false)).unwrap();
    assert!(!view.always_allow.contains(&"echo".to_string()), "{:?}", view.always_allow);
    // A server or tool that is not there: refused, nothing written.
    let before = settings_text(dir.path());
    let e = app
        .set_mcp_tool_always_allow(&SetMcpToolAlwaysAllowRequest {
            server: "absent".into(),
            tool: "echo".into(),
            always_allow: true,
        })
        .unwrap_err();
    assert!(e.to_string().contains("vibe mcp list"), "{e}");
    let e = app.set_mcp_tool_always_allow(&set("  ", true)).unwrap_err();
    assert!(e.to_string().contains("vibe mcp tools everything"), "{e}");
    assert_eq!(settings_text(dir.path()), before);
    drop(app);
    let reopened = open(dir.path(), keys);
    let saved = &reopened.list_mcp_servers().servers[0].always_allow;
    assert_eq!(saved.len(), 8);
    assert!(settings_text(dir.path()).contains("tool_7"));
}

#[tokio::test]
async fn a_server_of_the_older_sse_transport_fails_its_test_naming_streamable_http() {
    let server = vibe_test_support::EverythingHttp::start("sse");
    let dir = tempfile::tempdir().unwrap();
    let app = open(dir.path(), Arc::new(EphemeralKeys::default()));
    let url = format!("http://127.0.0.1:{}/sse", server.port);
    app.add_mcp_server(AddMcpServerRequest {
        name: "old".into(),
        url: Some(url.clone()),
        ..AddMcpServerRequest::default()
    })
    .unwrap();
    let report = app.test_mcp_server(&McpServerRequest { name: "old".into() }).await.unwrap();
    assert!(!report.ok);
    let error = report.error.unwrap();
    assert_eq!(error.kind, vibe_wire::ErrorKind::Config, "{error:?}");
    assert!(error.message.contains(&url), "{}", error.message);
    assert!(error.message.contains("older HTTP+SSE transport"), "{}", error.message);
    assert!(error.message.contains("streamable HTTP address"), "{}", error.message);
}
