//! The scripted model selected by `scripted:PATH`: YAML scripts and replay of a recorded
//! run's events.jsonl, through the same `build_model` every entry point uses.

use std::time::Duration;

use futures::StreamExt as _;
use serde_json::json;
use vibe_llm::{ChatRequest, Delta, LlmSettings, LlmSettingsExt, Message, build_model, collect};

fn model_for(path: &std::path::Path) -> std::sync::Arc<dyn vibe_llm::ChatModel> {
    let settings = LlmSettings::from_section(
        &json!({"base_url": format!("scripted:{}", path.display())}),
        "t",
    )
    .unwrap();
    build_model(&settings, None).unwrap().model
}

#[tokio::test]
async fn a_yaml_script_plays_text_reasoning_tool_calls_and_errors() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("s.yaml");
    std::fs::write(
        &path,
        "model: coach-demo\nresponses:\n  - reasoning: let me check\n    tool_calls: [{name: use_skill, arguments: {name: bazi}}]\n    usage: {prompt_tokens: 9, completion_tokens: 3}\n  - text: 你好，我是教练。\n    chunk_chars: 3\n    delay_ms: 1\n  - text: 'cut '\n    error: {kind: rate_limited, retry_after_s: 4}\n",
    )
    .unwrap();
    let model = model_for(&path);
    assert_eq!(model.model_name(), "coach-demo");
    let (r, err) = collect(model.stream(ChatRequest::new(vec![Message::user("hi")]))).await;
    assert_eq!(err, None);
    assert_eq!(r.reasoning.as_deref(), Some("let me check"));
    assert_eq!(r.tool_calls[0].arguments, "{\"name\":\"bazi\"}");
    assert_eq!(r.usage.map(|u| u.total_tokens), Some(12));

    let mut s = model.stream(ChatRequest::new(vec![Message::user("hi")]));
    let mut texts = Vec::new();
    while let Some(Ok(d)) = tokio::time::timeout(Duration::from_secs(10), s.next()).await.unwrap() {
        if let Delta::Text { text } = d {
            texts.push(text);
        }
    }
    assert_eq!(texts, ["你好，", "我是教", "练。"]);

    let (r, err) = collect(model.stream(ChatRequest::default())).await;
    assert_eq!(r.text, "cut ");
    let err = err.unwrap();
    assert_eq!((err.kind().as_str(), err.retry_after_s()), ("rate_limited", Some(4)));
}

#[tokio::test]
async fn a_recorded_run_is_replayed_from_its_events() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("events.jsonl");
    let lines = [
        json!({"type": "run_started", "run_id": "r1", "seq": 0, "ts": "2026-01-01T00:00:00Z"}),
        json!({"type": "model_request", "run_id": "r1", "seq": 1, "ts": "2026-01-01T00:00:00Z"}),
        json!({"type": "tool_call", "run_id": "r1", "seq": 2, "ts": "2026-01-01T00:00:00Z", "id": "call_0", "name": "read_profile", "arguments": {}}),
        json!({"type": "model_request", "run_id": "r1", "seq": 3, "ts": "2026-01-01T00:00:01Z"}),
        json!({"type": "assistant_delta", "run_id": "r1", "seq": 4, "ts": "2026-01-01T00:00:01Z", "text": "Good "}),
        json!({"type": "assistant_delta", "run_id": "r1", "seq": 5, "ts": "2026-01-01T00:00:01Z", "text": "morning."}),
        json!({"type": "run_finished", "run_id": "r1", "seq": 6, "ts": "2026-01-01T00:00:02Z"}),
    ];
    std::fs::write(&path, lines.iter().map(|l| format!("{l}\n")).collect::<String>()).unwrap();
    let model = model_for(&path);
    let (r1, _) = collect(model.stream(ChatRequest::default())).await;
    assert_eq!(r1.tool_calls[0].name, "read_profile");
    assert_eq!(r1.finish_reason.as_deref(), Some("tool_calls"));
    let (r2, _) = collect(model.stream(ChatRequest::default())).await;
    assert_eq!(r2.text, "Good morning.");
}

#[test]
fn a_missing_script_is_a_config_error_naming_the_path() {
    let settings =
        LlmSettings::from_section(&json!({"base_url": "scripted:/nonexistent/x.yaml"}), "t")
            .unwrap();
    let err = build_model(&settings, None).err().unwrap();
    assert_eq!(err.kind().as_str(), "config");
    assert!(err.to_string().contains("/nonexistent/x.yaml"));
}
