//! `vibe chat` against configuration errors, on a real data dir: a turn that could never reach
//! a model (no model, an unknown preset, a malformed base URL, a typo in settings.json)
//! stores nothing, says once what to fix, and offers no `--retry`; a real model failure still
//! keeps the message and offers the retry.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::Path;
use std::process::{Output, Stdio};

use crate::support::vibe_std;

const REPLY: &str = "mode: ordered\nresponses:\n  - text: \"你好！\"\n";

/// `vibe chat` with no endpoint from the environment (the helper clears it).
fn chat(dir: &Path, args: &[&str]) -> Output {
    vibe_std()
        .arg("--data-dir")
        .arg(dir)
        .arg("chat")
        .args(args)
        .stdin(Stdio::null())
        .output()
        .unwrap()
}

/// Conversations, messages and runs stored.
fn counts(dir: &Path) -> [i64; 3] {
    let conn = crate::support::db(dir);
    ["conversations", "messages", "runs"]
        .map(|t| conn.query_row(&format!("SELECT count(*) FROM {t}"), [], |r| r.get(0)).unwrap())
}

/// A data dir holding one answered turn.
fn data_dir() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let script = dir.path().join("s.yaml");
    std::fs::write(&script, REPLY).unwrap();
    let url = format!("scripted:{}", script.display());
    let out = chat(dir.path(), &["你好", "--base-url", &url]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(counts(dir.path()), [1, 2, 1]);
    dir
}

/// The command failed, stored nothing, and said `expected` once, without a retry hint.
fn refused(dir: &Path, out: &Output, expected: &[&str]) {
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{stderr}");
    for part in expected {
        assert!(stderr.contains(part), "{part:?} not in: {stderr}");
    }
    assert_eq!(stderr.matches("error").count(), 1, "printed once: {stderr}");
    assert!(!stderr.contains("--retry"), "{stderr}");
    assert_eq!(counts(dir), [1, 2, 1], "nothing stored: {stderr}");
}

fn settings(dir: &Path, json: &str) {
    std::fs::write(dir.join("settings.json"), json).unwrap();
}

#[test]
fn a_configuration_error_stores_nothing_and_says_once_how_to_fix_it() {
    let dir = data_dir();
    let d = dir.path();
    // No model: Ollama (the default endpoint) has no default model.
    let out = chat(d, &["你好", "--base-url", "http://127.0.0.1:11434/v1"]);
    refused(d, &out, &["no model is set", "--model"]);
    // An unknown preset.
    settings(d, r#"{"llm": {"preset": "olama"}}"#);
    refused(d, &chat(d, &["你好"]), &["\"olama\" is unknown", "ollama"]);
    // A base URL that is no URL.
    settings(d, "{}");
    let out = chat(d, &["你好", "--base-url", "http://exa mple.com/v1", "--model", "m"]);
    refused(d, &out, &["is not a valid URL", "llm.base_url"]);
    let out = chat(d, &["你好", "--base-url", "http://:8080/v1", "--model", "m"]);
    refused(d, &out, &["http://:8080/v1", "llm.base_url"]);
}

#[test]
fn every_settings_section_refuses_an_unknown_key_naming_it_and_the_file() {
    let dir = data_dir();
    let d = dir.path();
    let file = d.join("settings.json").display().to_string();
    let cases: [(&str, &str); 6] = [
        (r#"{"chat": {"sumarize_with_model": true}}"#, "sumarize_with_model"),
        (r#"{"chat": {"budgets": {"max_round": 3}}}"#, "max_round"),
        (r#"{"chat": {"context": {"max_context_token": 9000}}}"#, "max_context_token"),
        (r#"{"llm": {"modle": "qwen3"}}"#, "llm.modle"),
        (r#"{"skills": {"extra_dirs": "x"}}"#, "skills.extra_dirs"),
        (r#"{"tools": {"script_timeout": 3}}"#, "script_timeout"),
    ];
    let url = format!("scripted:{}", d.join("s.yaml").display());
    let args = ["你好", "--base-url", &url];
    for (json, key) in cases {
        settings(d, json);
        refused(d, &chat(d, &args), &[key, &file]);
    }
    // The context window is one setting, in chat.context.
    settings(d, r#"{"chat": {"budgets": {"max_context_tokens": 9000}}}"#);
    refused(d, &chat(d, &args), &["chat.context.max_context_tokens", &file]);
}

#[test]
fn known_settings_are_accepted() {
    let dir = data_dir();
    let d = dir.path();
    let script = d.join("s.yaml");
    settings(
        d,
        &format!(
            r#"{{"llm": {{"base_url": "scripted:{}", "retries": 0}}, "chat": {{"budgets": {{"max_rounds": 3}}, "context": {{"max_context_tokens": 20000}}, "summarize_with_model": false}}, "skills": {{}}, "tools": {{"script_timeout_secs": 5}}}}"#,
            script.display()
        ),
    );
    let out = chat(d, &["再聊聊"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), "你好！");
}

#[test]
fn an_unknown_voice_mode_is_refused_before_anything_is_stored() {
    let dir = data_dir();
    let d = dir.path();
    let url = format!("scripted:{}", d.join("s.yaml").display());
    let out = chat(d, &["你好", "--base-url", &url, "--voice-mode", "shouty"]);
    refused(d, &out, &["unknown voice mode `shouty`", "warm, direct, playful"]);
    let out = chat(d, &["你好", "--base-url", &url, "--voice-mode", "direct"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
}
