//! `vibe --json chat` on the embedded engine (only with the `local-llm` feature; scripts/test.sh
//! runs it in release, filtered by `local_model`): the tiny fixture model of crates/local-llm
//! is added and chosen with `vibe models add|use`, and one chat runs a whole agent turn with
//! it in structured-action mode. The model writes gibberish, so the test checks the mechanics
//! (the rounds, the tool call its unusable replies became, the error observation, the closing
//! answer, the run's end), not words. `vibe` runs without LD_LIBRARY_PATH, as a shipped binary
//! does: it finds llama.cpp's libraries beside itself (docs/local-model.md#cpu-support).

use std::path::Path;
use std::process::Stdio;

use serde_json::Value;

use crate::support::{ok_json_in, vibe_std};

fn fixture() -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../local-llm/tests/fixtures/tiny-q8_0.gguf")
        .canonicalize()
        .unwrap();
    path.to_str().unwrap().to_string()
}

#[test]
fn local_model_json_chat_runs_a_full_agent_turn_with_a_tool_call() {
    let tmp = tempfile::tempdir().unwrap();
    let data = tmp.path().join("data");
    assert_eq!(ok_json_in(&data, &["models", "add", &fixture()])["id"], "tiny-q8_0");
    ok_json_in(&data, &["models", "use", "tiny-q8_0"]);
    // Greedy, short answers, one thread (the test machine's cores are shared).
    let file = data.join("settings.json");
    let mut settings: Value =
        serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    let llm = settings["llm"].as_object_mut().unwrap();
    assert_eq!((llm["preset"].as_str(), llm["model"].as_str()), (Some("local"), Some("tiny-q8_0")));
    llm.insert("temperature".into(), 0.0.into());
    llm.insert("max_tokens".into(), 40.into());
    llm.insert("local".into(), serde_json::json!({"threads": 1}));
    std::fs::write(&file, serde_json::to_string_pretty(&settings).unwrap()).unwrap();

    let mut cmd = vibe_std();
    cmd.env_remove("LD_LIBRARY_PATH").env_remove("DYLD_LIBRARY_PATH");
    let out = cmd
        .arg("--data-dir")
        .arg(&data)
        .args(["--json", "chat", "我最近总熬夜，怎么办？"])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "vibe chat failed: {stderr}");
    let events: Vec<Value> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("not JSON ({e}): {l}")))
        .collect();
    let of = |kind: &str| events.iter().filter(|e| e["type"] == kind).collect::<Vec<_>>();

    assert_eq!(events.first().unwrap()["type"], "run_started", "{events:?}");
    assert_eq!(events.first().unwrap()["model"], "tiny-q8_0");
    // Every round asked the engine; the first offered the tools (structured mode puts them
    // in the prompt, the agent does not know the difference).
    let requests = of("model_request");
    assert!(requests.len() >= 2, "{} model requests", requests.len());
    assert!(requests[0]["tools"].as_array().is_some_and(|t| !t.is_empty()), "{:?}", requests[0]);
    // Gibberish is never a JSON action: each reply (after its repair retry) became a tool call
    // of `unusable_reply`, which the agent answered with an error observation.
    let calls = of("tool_call");
    let results = of("tool_result");
    assert!(!calls.is_empty(), "no tool call: {events:?}");
    assert_eq!(calls.len(), results.len());
    for (call, result) in calls.iter().zip(&results) {
        assert_eq!(call["id"], result["id"]);
        assert_eq!(
            (call["name"].as_str(), result["is_error"].as_bool()),
            (Some("unusable_reply"), Some(true))
        );
    }
    assert!(!of("assistant_restart").is_empty(), "the repair retry ran");
    // The run ended at its guard with a closing answer the person sees.
    let finished = events.last().unwrap();
    assert_eq!(finished["type"], "run_finished");
    assert_eq!(finished["stop_reason"], "repeated_tool_failure");
    assert_eq!(finished["tool_calls"].as_u64(), Some(calls.len() as u64));
    assert!(finished["rounds"].as_u64().is_some_and(|r| r >= 2), "{finished}");
    let text: String = of("assistant_delta").iter().filter_map(|e| e["text"].as_str()).collect();
    assert!(!text.trim().is_empty(), "the person still hears something");
}
