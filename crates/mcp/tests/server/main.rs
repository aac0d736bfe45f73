//! A misbehaving MCP server of our own, for the tests only (never shipped): speaks MCP over
//! stdio, one JSON-RPC message a line, and misbehaves as its first argument says:
//! `ok` (tools `echo`, `read_file`, `connect` (TCP) and `sleep` that never answers), `crash` (exits on
//! `initialize` after a few stderr lines), `hang` (never answers), `garbage` (answers
//! `initialize` with a line that is not JSON), `tools500` (lists 500 tools in pages of 100),
//! `huge` (its `echo` answers 2 MiB).

use std::io::{BufRead, Write};

use serde_json::{Value, json};

fn main() {
    let mode = std::env::args().nth(1).unwrap_or_else(|| "ok".to_string());
    let stdin = std::io::stdin();
    let mut out = std::io::stdout();
    for line in stdin.lock().lines() {
        let Ok(line) = line else { break };
        let Ok(msg) = serde_json::from_str::<Value>(&line) else { continue };
        let Some(id) = msg.get("id").cloned() else { continue };
        let method = msg.get("method").and_then(Value::as_str).unwrap_or_default();
        let params = msg.get("params").cloned().unwrap_or(Value::Null);
        if mode == "hang" {
            continue;
        }
        let result = match method {
            "initialize" => {
                if mode == "crash" {
                    eprintln!("starting the test server");
                    eprintln!("error: cannot open the database: permission denied");
                    std::process::exit(3);
                }
                if mode == "garbage" {
                    let _ = writeln!(out, "Server listening... (this is a log line on stdout)");
                    let _ = out.flush();
                    continue;
                }
                json!({
                    "protocolVersion": params.get("protocolVersion").cloned().unwrap_or(json!("2025-06-18")),
                    "capabilities": {"tools": {}},
                    "serverInfo": {"name": "vibe-mcp-test-server", "version": "1.0.0"}
                })
            }
            "tools/list" => tools(&mode, &params),
            "tools/call" => match call(&mode, &params) {
                Some(r) => r,
                None => continue,
            },
            "ping" => json!({}),
            _ => {
                let err = json!({"jsonrpc": "2.0", "id": id, "error": {"code": -32601, "message": "method not found"}});
                let _ = writeln!(out, "{err}");
                let _ = out.flush();
                continue;
            }
        };
        let _ = writeln!(out, "{}", json!({"jsonrpc": "2.0", "id": id, "result": result}));
        let _ = out.flush();
    }
}

fn tool(name: &str, description: &str) -> Value {
    json!({
        "name": name,
        "description": description,
        "inputSchema": {"type": "object", "properties": {"text": {"type": "string"}, "path": {"type": "string"}}},
        "annotations": {"readOnlyHint": true}
    })
}

fn tools(mode: &str, params: &Value) -> Value {
    if mode == "tools500" {
        let start: usize =
            params.get("cursor").and_then(Value::as_str).and_then(|c| c.parse().ok()).unwrap_or(0);
        let page: Vec<Value> =
            (start..start + 100).map(|i| tool(&format!("tool_{i}"), "one of many")).collect();
        let mut result = json!({"tools": page});
        if start + 100 < 500 {
            result["nextCursor"] = json!((start + 100).to_string());
        }
        return result;
    }
    json!({"tools": [
        tool("echo", "Says the text back"),
        tool("read_file", "Reads a file"),
        tool("sleep", "Never answers"),
        tool("connect", "Opens a TCP connection"),
    ]})
}

fn call(mode: &str, params: &Value) -> Option<Value> {
    let args = params.get("arguments").cloned().unwrap_or(Value::Null);
    let arg = |k: &str| args.get(k).and_then(Value::as_str).unwrap_or_default().to_string();
    let text =
        |t: String, err: bool| json!({"content": [{"type": "text", "text": t}], "isError": err});
    match params.get("name").and_then(Value::as_str).unwrap_or_default() {
        "echo" if mode == "huge" => Some(text("x".repeat(2 << 20), false)),
        "echo" => Some(text(format!("echo: {}", arg("text")), false)),
        "read_file" => Some(match std::fs::read_to_string(arg("path")) {
            Ok(content) => text(content, false),
            Err(e) => text(format!("cannot read: {e}"), true),
        }),
        "sleep" => None,
        "connect" => Some(match std::net::TcpStream::connect(arg("address")) {
            Ok(_) => text("connected".to_string(), false),
            Err(e) => text(format!("cannot connect: {e}"), true),
        }),
        other => Some(text(format!("no tool {other}"), true)),
    }
}
