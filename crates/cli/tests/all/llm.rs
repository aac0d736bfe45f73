//! `vibe llm probe|models` against the fake OpenAI-compatible server (and the scripted
//! model): the stable `--json` shape, errors with exit codes, retries, tools, `--detect`,
//! and that the API key never appears in any output.

#![allow(clippy::unwrap_used)] // test helpers outside #[test] fns unwrap too

use std::time::Duration;

use assert_cmd::Command;
use serde_json::{Value, json};
use vibe_test_support::*;

use crate::support::in_dir;

const KEY: &str = "sk-cli-SECRET-987654321";

fn vibe(dir: &tempfile::TempDir) -> Command {
    let mut cmd = in_dir(dir.path());
    cmd.timeout(Duration::from_secs(60));
    cmd
}

fn settings(dir: &tempfile::TempDir, llm: Value) {
    std::fs::write(dir.path().join("settings.json"), json!({"llm": llm}).to_string()).unwrap();
}

/// Run and parse the single JSON object on stdout.
fn run_json(cmd: &mut Command) -> (Value, bool, String, String) {
    let out = cmd.output().unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    let stderr = String::from_utf8(out.stderr).unwrap();
    let lines: Vec<_> = stdout.lines().collect();
    assert_eq!(lines.len(), 1, "exactly one JSON object expected on stdout, got: {stdout}");
    (serde_json::from_str(lines[0]).unwrap(), out.status.success(), stdout, stderr)
}

#[test]
fn probe_json_has_exactly_the_documented_shape() {
    let server = FakeServer::start();
    server.push(Reply::sse(sse(vec![
        ev_role(),
        ev_reasoning("thinking"),
        ev_text("Hello "),
        ev_text("there!"),
        ev_finish("stop"),
        ev_usage(12, 3),
    ])));
    let dir = tempfile::tempdir().unwrap();
    let (v, ok, _, _) = run_json(vibe(&dir).args([
        "llm",
        "probe",
        "--json",
        "--base-url",
        &server.url(),
        "--model",
        "m1",
        "--message",
        "hi",
        "--system",
        "be kind",
    ]));
    assert!(ok);
    assert_eq!(
        v,
        json!({
            "text": "Hello there!",
            "reasoning": "thinking",
            "tool_calls": [],
            "finish_reason": "stop",
            "usage": {"prompt_tokens": 12, "completion_tokens": 3, "total_tokens": 15},
            "error": null,
        })
    );
    let body = server.requests()[0].json();
    assert_eq!(body["model"], "m1");
    assert_eq!(
        body["messages"],
        json!([{"role": "system", "content": "be kind"}, {"role": "user", "content": "hi"}])
    );
}

#[test]
fn settings_and_env_choose_the_endpoint_and_text_output_is_readable() {
    let server = FakeServer::start();
    server.push(Reply::sse(sse(vec![ev_text("from settings"), ev_finish("stop")])));
    server.push(Reply::sse(sse(vec![ev_text("from env"), ev_finish("length")])));
    let dir = tempfile::tempdir().unwrap();
    settings(&dir, json!({"base_url": server.url(), "model": "settings-model"}));
    let out = vibe(&dir).args(["llm", "probe"]).output().unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.starts_with("from settings\n[finish: stop]"), "{text}");
    let (v, ok, _, _) =
        run_json(vibe(&dir).env("VIBE_LLM_MODEL", "env-model").args(["llm", "probe", "--json"]));
    assert!(ok);
    assert_eq!(v["finish_reason"], "length");
    let requests = server.requests();
    assert_eq!(requests[0].json()["model"], "settings-model");
    assert_eq!(requests[1].json()["model"], "env-model");
}

#[test]
fn tool_calls_come_back_with_object_or_raw_string_arguments() {
    let server = FakeServer::start();
    server.push(Reply::sse(sse(vec![
        ev_tool_call(0, "call_x", "get_weather", "{\"city\":"),
        ev_tool_args(0, "\"Paris\"}"),
        ev_tool_call(1, "", "broken", "{\"unterminated"),
        ev_finish("tool_calls"),
    ])));
    let dir = tempfile::tempdir().unwrap();
    let tools = dir.path().join("tools.json");
    std::fs::write(&tools, json!([{"type": "function", "function": {"name": "get_weather", "description": "w", "parameters": {"type": "object"}}}]).to_string()).unwrap();
    let (v, ok, _, _) = run_json(
        vibe(&dir)
            .args(["llm", "probe", "--json", "--base-url", &server.url(), "--model", "m"])
            .arg("--tools")
            .arg(&tools),
    );
    assert!(ok);
    assert_eq!(
        v["tool_calls"],
        json!([
            {"id": "call_x", "name": "get_weather", "arguments": {"city": "Paris"}},
            {"id": "call_1", "name": "broken", "arguments": "{\"unterminated"},
        ])
    );
    assert_eq!(server.requests()[0].json()["tools"][0]["function"]["name"], "get_weather");
}

#[test]
fn retries_zero_reports_rate_limiting_at_once_with_retry_after() {
    let server = FakeServer::start();
    server.push(
        Reply::json(429, &json!({"error": {"message": "quota"}})).header("Retry-After", "30"),
    );
    let dir = tempfile::tempdir().unwrap();
    let (v, ok, _, _) = run_json(vibe(&dir).args([
        "llm",
        "probe",
        "--json",
        "--retries",
        "0",
        "--base-url",
        &server.url(),
        "--model",
        "m",
    ]));
    assert!(!ok);
    assert_eq!(v["error"]["kind"], "rate_limited");
    assert_eq!(v["error"]["retry_after_s"], 30);
    assert!(v["error"]["message"].as_str().unwrap().contains("quota"));
    assert_eq!(server.requests().len(), 1);
}

#[test]
fn retries_recover_from_a_server_error() {
    let server = FakeServer::start();
    server.push(Reply::status(502));
    server.push(Reply::sse(sse(vec![ev_text("ok"), ev_finish("stop")])));
    let dir = tempfile::tempdir().unwrap();
    settings(&dir, json!({"retry_base_ms": 1}));
    let (v, ok, _, _) = run_json(vibe(&dir).args([
        "llm",
        "probe",
        "--json",
        "--retries",
        "1",
        "--base-url",
        &server.url(),
        "--model",
        "m",
    ]));
    assert!(ok, "{v}");
    assert_eq!(v["text"], "ok");
    assert_eq!(server.requests().len(), 2);
}

#[test]
fn a_cut_stream_keeps_the_partial_text_and_fails() {
    let server = FakeServer::start();
    server.push(Reply::sse(sse_frame(vec![ev_text("Once upon a")])));
    let dir = tempfile::tempdir().unwrap();
    let (v, ok, _, _) = run_json(vibe(&dir).args([
        "llm",
        "probe",
        "--json",
        "--base-url",
        &server.url(),
        "--model",
        "m",
    ]));
    assert!(!ok);
    assert_eq!(v["text"], "Once upon a");
    assert_eq!(v["error"]["kind"], "truncated");
    assert_eq!(v["finish_reason"], Value::Null);
}

#[test]
fn the_api_key_never_appears_in_any_output() {
    let server = FakeServer::start();
    let echo = format!("Incorrect API key provided: {KEY}");
    server.push(Reply::json(401, &json!({"error": {"message": echo}})));
    server.push(Reply::json(401, &json!({"error": {"message": echo}})));
    server.push(Reply::sse(sse(vec![ev_text("fine"), ev_finish("stop")])));
    server.push(Reply::json(403, &json!({"error": {"message": echo}})));
    let dir = tempfile::tempdir().unwrap();
    let runs = [
        vec!["llm", "probe", "--json"],
        vec!["llm", "probe", "-vv"],
        vec!["llm", "probe", "--json", "-vv"],
        vec!["llm", "models", "-vv"],
    ];
    for args in runs {
        let out = vibe(&dir)
            .env("VIBE_LLM_API_KEY", KEY)
            .args(&args)
            .args(["--base-url", &server.url(), "--model", "m"])
            .output()
            .unwrap();
        let all = format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(!all.contains(KEY), "{args:?} leaked the key:\n{all}");
        assert!(!all.contains("SECRET"), "{args:?} leaked part of the key:\n{all}");
    }
    // The key did reach the server, as a bearer token.
    assert_eq!(
        server.requests()[0].header("authorization"),
        Some(format!("Bearer {KEY}").as_str())
    );
}

#[test]
fn models_lists_ids_as_text_and_json() {
    let server = FakeServer::start();
    server.push(Reply::models(&["qwen2.5:7b", "llama3.2:3b"]));
    server.push(Reply::models(&["qwen2.5:7b"]));
    let dir = tempfile::tempdir().unwrap();
    let out = vibe(&dir).args(["llm", "models", "--base-url", &server.url()]).output().unwrap();
    assert!(out.status.success());
    assert_eq!(String::from_utf8(out.stdout).unwrap(), "qwen2.5:7b\nllama3.2:3b\n");
    let (v, ok, _, _) =
        run_json(vibe(&dir).args(["llm", "models", "--json", "--base-url", &server.url()]));
    assert!(ok);
    assert_eq!(v["models"][0]["id"], "qwen2.5:7b");
    assert_eq!(v["base_url"], server.url());
}

#[test]
fn models_against_nothing_listening_says_how_to_fix_it() {
    let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let dir = tempfile::tempdir().unwrap();
    let out = vibe(&dir)
        .args(["llm", "models", "--base-url", &format!("http://127.0.0.1:{port}/v1")])
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.contains(&format!("127.0.0.1:{port}")) && err.contains("is the server running"),
        "{err}"
    );
}

#[test]
fn detect_reports_whether_native_tools_work() {
    let server = FakeServer::start();
    server.push(Reply::sse(sse(vec![
        ev_tool_call(0, "c", "echo", "{\"text\":\"ping\"}"),
        ev_finish("tool_calls"),
    ])));
    server.push(Reply::sse(sse(vec![ev_text("ping"), ev_finish("stop")])));
    let dir = tempfile::tempdir().unwrap();
    let args = ["llm", "probe", "--json", "--detect", "--base-url", &server.url(), "--model", "m"];
    let (v, ok, _, _) = run_json(vibe(&dir).args(args));
    assert!(ok);
    assert_eq!(v["detect"], json!({"native_tools": true, "recommended_tool_mode": "native"}));
    let (v, _, _, _) = run_json(vibe(&dir).args(args));
    assert_eq!(v["detect"]["native_tools"], false);
    assert_eq!(v["detect"]["recommended_tool_mode"], "structured");
    assert_eq!(server.requests()[0].json()["tools"][0]["function"]["name"], "echo");
}

#[test]
fn a_scripted_model_needs_no_server() {
    let dir = tempfile::tempdir().unwrap();
    let script = dir.path().join("script.yaml");
    std::fs::write(&script, "responses:\n  - reasoning: hmm\n    text: 你好！\n    usage: {prompt_tokens: 2, completion_tokens: 1}\n").unwrap();
    let (v, ok, _, _) = run_json(
        vibe(&dir)
            .args(["llm", "probe", "--json", "--base-url"])
            .arg(format!("scripted:{}", script.display())),
    );
    assert!(ok);
    assert_eq!(v["text"], "你好！");
    assert_eq!(v["reasoning"], "hmm");
    assert_eq!(v["usage"]["total_tokens"], 3);
}

#[test]
fn bad_inputs_get_specific_errors() {
    let dir = tempfile::tempdir().unwrap();
    let tools = dir.path().join("tools.json");
    std::fs::write(&tools, "{\"not\": \"an array\"}").unwrap();
    let out = vibe(&dir)
        .args(["llm", "probe", "--base-url", "http://127.0.0.1:9/v1", "--model", "m"])
        .arg("--tools")
        .arg(&tools)
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("tools.json") && err.contains("array"), "{err}");

    let (v, ok, _, _) = run_json(
        vibe(&dir)
            .args(["llm", "probe", "--json", "--base-url", "http://127.0.0.1:9/v1"])
            .arg("--tools")
            .arg(&tools),
    );
    assert!(!ok);
    assert_eq!(v["error"]["kind"], "config", "set-up failures keep the probe shape: {v}");
    assert_eq!(v["text"], "");

    settings(&dir, json!({"preset": "chatgpt"}));
    let out = vibe(&dir).args(["llm", "models"]).output().unwrap();
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("llm.preset \"chatgpt\" is unknown"), "{err}");

    std::fs::write(dir.path().join("settings.json"), json!({"llm": {"retries": -1}}).to_string())
        .unwrap();
    let out = vibe(&dir).args(["llm", "models"]).output().unwrap();
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("settings.json") && err.contains("\"llm\" section is invalid"), "{err}");
}
