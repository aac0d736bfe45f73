//! MCP server configuration as data (docs/mcp.md): checking a server before it is saved,
//! reading a Claude Desktop or Cursor config (`mcpServers`) into servers and their secrets,
//! the keychain account of each secret, the permissions in plain words, and the `vibe-mcp`
//! spec a saved server and its secrets resolve to. No keychain, file or network work here:
//! that is `mcp.rs`'s.

use std::path::{Path, PathBuf};

use serde_json::Value;
use vibe_mcp::{Grant, HttpSpec, ServerSpec, StdioSpec, Transport, check_server_name};
use vibe_wire::command::{McpImportSkipped, McpSecret};
use vibe_wire::settings::{McpSandbox, McpServer};

/// The keychain account of a server's secret: `kind` is `env` or `header`.
pub(crate) fn secret_account(server: &str, kind: &str, name: &str) -> String {
    format!("mcp:{server}:{kind}:{name}")
}

/// Checks a server about to be saved; `Err` says what to change.
pub(crate) fn check(name: &str, server: &McpServer) -> Result<(), String> {
    check_server_name(name)?;
    match (&server.command, &server.url) {
        (Some(c), None) if !c.trim().is_empty() => {}
        (None, Some(u)) if u.starts_with("http://") || u.starts_with("https://") => {
            let sandbox = &server.sandbox;
            if sandbox.network
                || sandbox.unconfined
                || !sandbox.read.is_empty()
                || !sandbox.write.is_empty()
            {
                return Err(format!(
                    "server {name} is reached at a URL, so it runs elsewhere: sandbox \
                     permissions only apply to a server the app starts (give a command instead, \
                     or drop the permissions)"
                ));
            }
        }
        (None, Some(u)) => {
            return Err(format!("server {name}: {u:?} is not an http:// or https:// URL"));
        }
        _ => {
            return Err(format!(
                "server {name} needs either a command to start (e.g. `-- npx -y PACKAGE`) or a \
                 URL (`--url https://...`), not both and not neither"
            ));
        }
    }
    for var in &server.env {
        if var.is_empty() || var.contains('=') || var.contains('\0') {
            return Err(format!("server {name}: {var:?} cannot name an environment variable"));
        }
    }
    for header in &server.headers {
        let ok = !header.is_empty()
            && header.bytes().all(|b| b.is_ascii_alphanumeric() || b"-_".contains(&b));
        if !ok {
            return Err(format!("server {name}: {header:?} cannot name an HTTP header"));
        }
    }
    for dir in server.sandbox.read.iter().chain(&server.sandbox.write) {
        let path = Path::new(dir);
        if !path.is_absolute() {
            return Err(format!("server {name}: the folder {dir:?} must be an absolute path"));
        }
        if !path.exists() {
            return Err(format!(
                "server {name}: the folder {dir} does not exist; create it or grant another"
            ));
        }
    }
    Ok(())
}

/// What the server may touch, in plain words.
pub(crate) fn permissions(server: &McpServer) -> String {
    if let Some(url) = &server.url {
        return format!(
            "a remote server at {}: it runs elsewhere and sees what its tools are called with",
            vibe_llm::redact_url(url)
        );
    }
    let s = &server.sandbox;
    if s.unconfined {
        return "UNCONFINED: it runs with all your rights: it can read and change any of your \
                files and use the network"
            .to_string();
    }
    let mut parts = vec![
        "sandboxed: it may read its own program's folder and the system's programs and libraries"
            .to_string(),
    ];
    if !s.read.is_empty() {
        parts.push(format!("read {}", s.read.join(", ")));
    }
    if !s.write.is_empty() {
        parts.push(format!("read and write {}", s.write.join(", ")));
    }
    parts.push(if s.network { "use the network" } else { "no network" }.to_string());
    parts.join("; ")
}

/// The spec `vibe-mcp` connects with; `secret` gives a secret's value (`None`: missing).
pub(crate) fn spec(
    name: &str,
    server: &McpServer,
    mut secret: impl FnMut(&str, &str) -> Option<String>,
) -> Result<ServerSpec, String> {
    let mut values = |kind: &str, names: &[String]| -> Result<Vec<(String, String)>, String> {
        names
            .iter()
            .map(|n| {
                secret(kind, n).map(|v| (n.clone(), v)).ok_or_else(|| {
                    format!(
                        "the value of {n} for server {name} is not in the keychain; add the \
                         server again with it (`vibe mcp add {name} ...`)"
                    )
                })
            })
            .collect()
    };
    let transport = match (&server.command, &server.url) {
        (Some(command), _) => Transport::Stdio(StdioSpec {
            command: command.clone(),
            args: server.args.clone(),
            env: values("env", &server.env)?,
            grant: grant(&server.sandbox),
            search_path: None,
        }),
        (None, Some(url)) => Transport::Http(HttpSpec {
            url: url.clone(),
            headers: values("header", &server.headers)?,
        }),
        (None, None) => return Err(format!("server {name} has neither a command nor a URL")),
    };
    Ok(ServerSpec { name: name.to_string(), transport })
}

fn grant(s: &McpSandbox) -> Grant {
    Grant {
        network: s.network,
        read: s.read.iter().map(PathBuf::from).collect(),
        write: s.write.iter().map(PathBuf::from).collect(),
        unconfined: s.unconfined,
    }
}

/// One server read from an imported config, with its secrets.
pub(crate) struct Imported {
    pub name: String,
    pub server: McpServer,
    pub env: Vec<McpSecret>,
    pub headers: Vec<McpSecret>,
}

/// Reads `{"mcpServers": {NAME: {command, args, env, url, headers}}}` (Claude Desktop, Cursor;
/// `servers` as VS Code writes it is read too). Entries that cannot be used are skipped with
/// the reason.
pub(crate) fn parse_import(text: &str) -> Result<(Vec<Imported>, Vec<McpImportSkipped>), String> {
    let doc: Value = serde_json::from_str(text).map_err(|e| {
        format!("the config is not valid JSON (line {}, column {}): {e}", e.line(), e.column())
    })?;
    let servers =
        doc.get("mcpServers").or_else(|| doc.get("servers")).and_then(Value::as_object).ok_or(
            "the config has no \"mcpServers\" object (Claude Desktop's and Cursor's shape)",
        )?;
    let mut added = Vec::new();
    let mut skipped = Vec::new();
    for (name, entry) in servers {
        match import_one(name, entry) {
            Ok(imported) => added.push(imported),
            Err(reason) => skipped.push(McpImportSkipped { name: name.clone(), reason }),
        }
    }
    Ok((added, skipped))
}

fn import_one(name: &str, entry: &Value) -> Result<Imported, String> {
    let string = |k: &str| entry.get(k).and_then(Value::as_str).map(str::to_string);
    let strings = |k: &str| -> Vec<String> {
        entry
            .get(k)
            .and_then(Value::as_array)
            .map(|a| a.iter().filter_map(Value::as_str).map(str::to_string).collect())
            .unwrap_or_default()
    };
    let pairs = |k: &str| -> Result<Vec<McpSecret>, String> {
        let Some(map) = entry.get(k) else { return Ok(Vec::new()) };
        let map = map.as_object().ok_or_else(|| format!("its \"{k}\" is not an object"))?;
        map.iter()
            .map(|(n, v)| match v {
                Value::String(s) => Ok(McpSecret { name: n.clone(), value: s.clone() }),
                other => Ok(McpSecret { name: n.clone(), value: other.to_string() }),
            })
            .collect()
    };
    // Claude Code, Cursor and VS Code name the transport; the older HTTP+SSE one cannot be used.
    let kind = string("type").or_else(|| string("transport"));
    if kind.is_some_and(|k| k.eq_ignore_ascii_case("sse")) {
        let url = string("url").map_or_else(|| "its URL".to_string(), |u| vibe_llm::redact_url(&u));
        return Err(vibe_mcp::McpError::OldSse { server: name.to_string(), url }.to_string());
    }
    let env = pairs("env")?;
    let headers = pairs("headers")?;
    let disabled = entry.get("disabled").and_then(Value::as_bool).unwrap_or(false);
    let server = McpServer {
        command: string("command"),
        args: strings("args"),
        env: env.iter().map(|s| s.name.clone()).collect(),
        url: string("url").or_else(|| string("serverUrl")),
        headers: headers.iter().map(|s| s.name.clone()).collect(),
        enabled: !disabled,
        ..McpServer::default()
    };
    check(name, &server)?;
    Ok(Imported { name: name.to_string(), server, env, headers })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_claude_desktop_config_is_read_with_its_secrets_apart() {
        let (added, skipped) = parse_import(
            r#"{"mcpServers": {
                "notes": {"command": "npx", "args": ["-y", "notes-mcp"], "env": {"NOTES_TOKEN": "t-123"}},
                "web": {"url": "https://mcp.example/mcp", "headers": {"Authorization": "Bearer b-9"}},
                "bad name": {"command": "x"},
                "empty": {},
                "streamed": {"type": "http", "url": "https://mcp.example/mcp"},
                "old-sse": {"type": "sse", "url": "https://user:pw-77@mcp.example/sse"}
            }}"#,
        )
        .unwrap();
        let names: Vec<&str> = added.iter().map(|a| a.name.as_str()).collect();
        assert_eq!(names, ["notes", "web", "streamed"]);
        assert_eq!(added[0].server.env, ["NOTES_TOKEN"]);
        assert_eq!(added[0].env[0].value, "t-123");
        assert_eq!(added[1].server.headers, ["Authorization"]);
        let saved =
            serde_json::to_string(&added.iter().map(|a| &a.server).collect::<Vec<_>>()).unwrap();
        assert!(!saved.contains("t-123") && !saved.contains("b-9"), "{saved}");
        let old = skipped.iter().find(|s| s.name == "old-sse").unwrap();
        assert!(old.reason.contains("older HTTP+SSE") && old.reason.contains("streamable HTTP"));
        assert!(!old.reason.contains("pw-77"), "{}", old.reason);
        let skipped: Vec<&str> = skipped.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(skipped, ["bad name", "empty", "old-sse"]);
    }

    #[test]
    fn a_config_without_mcp_servers_says_what_it_expected() {
        let e = parse_import(r#"{"servers_list": []}"#).err().unwrap();
        assert!(e.contains("mcpServers"), "{e}");
        assert!(parse_import("{").err().unwrap().contains("not valid JSON"));
    }

    #[test]
    fn permissions_are_said_in_plain_words() {
        let mut s = McpServer { command: Some("npx".into()), ..McpServer::default() };
        assert!(permissions(&s).contains("no network"));
        s.sandbox.read = vec!["/home/a/Notes".into()];
        s.sandbox.network = true;
        let p = permissions(&s);
        assert!(p.contains("read /home/a/Notes") && p.contains("use the network"), "{p}");
        s.sandbox.unconfined = true;
        assert!(permissions(&s).starts_with("UNCONFINED"));
    }

    #[test]
    fn a_server_needs_a_command_or_a_url_and_sandboxing_only_applies_to_a_command() {
        let none = McpServer::default();
        assert!(check("x", &none).unwrap_err().contains("either a command"));
        let url = McpServer {
            url: Some("https://h/mcp".into()),
            sandbox: McpSandbox { network: true, ..McpSandbox::default() },
            ..McpServer::default()
        };
        assert!(check("x", &url).unwrap_err().contains("runs elsewhere"));
        let relative = McpServer {
            command: Some("npx".into()),
            sandbox: McpSandbox { read: vec!["Notes".into()], ..McpSandbox::default() },
            ..McpServer::default()
        };
        assert!(check("x", &relative).unwrap_err().contains("absolute path"));
    }
}
