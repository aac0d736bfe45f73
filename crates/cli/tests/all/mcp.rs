//! `vibe mcp add|edit|list|tools|test|disable|rm|import`: the reference "everything" server from
//! npm (installed by scripts/mcp-env.sh into crates/mcp/tests/npm) added over stdio, listed,
//! its tools listed and tested, turned off and removed, and imported from a Claude Desktop
//! config; a server that cannot start fails its test with the reason; mistakes refused with
//! what to do. (Secrets need a keychain: vibe-core's tests cover them with an in-memory one.)

use std::path::Path;

use crate::support::{ok_json_in, run};

fn everything() -> String {
    vibe_test_support::everything_server().display().to_string()
}

fn settings(dir: &Path) -> String {
    std::fs::read_to_string(dir.join("settings.json")).unwrap()
}

#[test]
fn a_server_is_added_listed_its_tools_shown_tested_and_removed() {
    let tmp = tempfile::tempdir().unwrap();
    let data = tmp.path().join("data");
    let server = everything();
    let added = ok_json_in(&data, &["mcp", "add", "everything", "--", "node", &server, "stdio"]);
    assert_eq!(added["name"], "everything");
    assert!(added["permissions"].as_str().unwrap().contains("no network"), "{added}");

    let list = ok_json_in(&data, &["mcp", "list"]);
    assert_eq!(list["servers"][0]["command"], "node");
    assert_eq!(list["servers"][0]["enabled"], true);
    let text = String::from_utf8(run(&data, &["mcp", "list"]).stdout).unwrap();
    assert!(text.contains("everything  [on]  node") && text.contains("sandboxed"), "{text}");

    let tools = ok_json_in(&data, &["mcp", "tools", "everything"]);
    let names: Vec<&str> = tools["tools"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|t| t["model_name"].as_str())
        .collect();
    assert!(names.contains(&"mcp__everything__echo"), "{names:?}");

    let out = run(&data, &["mcp", "test", "everything"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text} {}", String::from_utf8_lossy(&out.stderr));
    assert!(text.contains("everything") && text.contains("works"), "{text}");

    let off = ok_json_in(&data, &["mcp", "disable", "everything"]);
    assert_eq!(off["enabled"], false);
    ok_json_in(&data, &["mcp", "rm", "everything"]);
    assert_eq!(ok_json_in(&data, &["mcp", "list"])["servers"], serde_json::json!([]));
    assert!(!settings(&data).contains("everything"));
}

#[test]
fn a_server_that_does_not_work_fails_its_test_with_the_reason() {
    let tmp = tempfile::tempdir().unwrap();
    let data = tmp.path().join("data");
    ok_json_in(&data, &["mcp", "add", "ghost", "--", "no-such-mcp-command-xyz"]);
    let out = run(&data, &["mcp", "test", "ghost"]);
    assert!(!out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("was not found") && text.contains("absolute path"), "{text}");
}

#[test]
fn mistakes_are_refused_with_what_to_do() {
    let tmp = tempfile::tempdir().unwrap();
    let data = tmp.path().join("data");
    let out = run(&data, &["mcp", "add", "nothing"]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("--url URL"));
    let out = run(&data, &["mcp", "add", "bad name", "--", "node"]);
    assert!(String::from_utf8_lossy(&out.stderr).contains("cannot name a server"));
    let out = run(&data, &["mcp", "tools", "absent"]);
    assert!(String::from_utf8_lossy(&out.stderr).contains("vibe mcp list"));
}

#[test]
fn a_claude_desktop_config_is_imported() {
    let tmp = tempfile::tempdir().unwrap();
    let data = tmp.path().join("data");
    let config = tmp.path().join("claude_desktop_config.json");
    let server = everything();
    let text = serde_json::json!({"mcpServers": {
        "everything": {"command": "node", "args": [server, "stdio"]},
        "has space": {"command": "x"}
    }});
    std::fs::write(&config, text.to_string()).unwrap();
    let report = ok_json_in(&data, &["mcp", "import", config.to_str().unwrap()]);
    assert_eq!(report["added"][0]["name"], "everything");
    assert_eq!(report["skipped"][0]["name"], "has space");
    let out = run(&data, &["mcp", "test", "everything"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stdout));
}

/// `vibe mcp edit`: a server's grant changed without removing it (network, folders, then
/// unconfined, then back to nothing); a folder that does not exist, or a grant a URL server
/// cannot have, is refused with nothing changed.
#[test]
fn a_servers_grant_is_edited_in_place() {
    let tmp = tempfile::tempdir().unwrap();
    let data = tmp.path().join("data");
    let notes = tmp.path().join("Notes");
    let notes = notes.to_str().unwrap();
    ok_json_in(&data, &["mcp", "add", "everything", "--", "node", &everything(), "stdio"]);
    // A folder that does not exist is refused, nothing changed.
    let before = settings(&data);
    let out = run(&data, &["mcp", "edit", "everything", "--read", notes]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("does not exist"));
    assert_eq!(settings(&data), before);
    std::fs::create_dir(notes).unwrap();
    let edited =
        ok_json_in(&data, &["mcp", "edit", "everything", "--allow-network", "--read", notes]);
    assert_eq!(
        edited["sandbox"],
        serde_json::json!({"network": true, "read": [notes], "write": [], "unconfined": false})
    );
    let words = edited["permissions"].as_str().unwrap();
    assert!(words.contains("use the network") && words.contains(notes), "{words}");
    let text = String::from_utf8(run(&data, &["mcp", "edit", "everything", "--unconfined"]).stdout)
        .unwrap();
    assert!(text.starts_with("changed what everything may touch"), "{text}");
    assert!(text.contains("UNCONFINED"), "{text}");
    let cleared = ok_json_in(&data, &["mcp", "edit", "everything"]);
    assert_eq!(cleared["sandbox"]["unconfined"], false);
    assert_eq!(cleared["sandbox"]["network"], false);
    // The server is the same one: still on, same command, tools still listed.
    let list = ok_json_in(&data, &["mcp", "list"]);
    assert_eq!(list["servers"][0]["enabled"], true);
    assert_eq!(list["servers"][0]["args"][1], "stdio");
    let tools = ok_json_in(&data, &["mcp", "tools", "everything"]);
    assert!(tools["tools"].as_array().is_some_and(|t| !t.is_empty()), "{tools}");

    ok_json_in(&data, &["mcp", "add", "remote", "--url", "https://mcp.example/mcp"]);
    let before = settings(&data);
    let out = run(&data, &["mcp", "edit", "remote", "--allow-network"]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("server remote is reached at a URL"), "{err}");
    assert_eq!(settings(&data), before);
    let out = run(&data, &["mcp", "edit", "nobody"]);
    assert!(String::from_utf8_lossy(&out.stderr).contains("no MCP server is named \"nobody\""));
}
