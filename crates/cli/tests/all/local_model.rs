//! `vibe --json chat` on the embedded engine (only with the `local-llm` feature; scripts/test.sh
//! runs it in release, filtered by `local_model`): the tiny fixture model of crates/local-llm
//! is added and chosen with `vibe models add|use`, and one chat runs a whole agent turn with
//! it in structured-action mode. The model's weights are random, but constrained decoding
//! (the action schema as a llama.cpp grammar) makes every reply the start of a well-formed
//! action; with a skill whose tools take no free text, greedy decoding picks a real tool, the
//! agent runs it and goes on. The test checks those mechanics (the offered tool called, its
//! own answer, the next round, the run's end), not words. `vibe` runs without
//! LD_LIBRARY_PATH, as a shipped binary does: it finds llama.cpp's libraries beside itself
//! (docs/local-model.md#cpu-support).

use std::path::Path;
use std::process::Stdio;

use serde_json::Value;

use crate::support::{ok_json_in, vibe_std, write};

/// The tiny fixture model's absolute path.
pub(crate) fn fixture() -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../local-llm/tests/fixtures/tiny-q8_0.gguf")
        .canonicalize()
        .unwrap();
    path.to_str().unwrap().to_string()
}

/// A user skill whose tools take no free text: `show_chart` (no arguments) and `draw_tarot`
/// (an enum, a boolean, an integer, a bounded question). Every action the grammar allows
/// for them ends on its own; a final answer's free text does not (random weights never
/// close a string), so the greedy choice of a tool is what makes the turn go on.
fn write_oracle_skill(data: &Path) {
    write(
        data,
        "skills/oracle/SKILL.md",
        "---\nname: oracle\ndescription: Shows the person's chart or draws a tarot card.\n---\n\
         Start with a tool: show_chart when a chart is stored, else draw_tarot.\n",
    );
    write(data, "skills/oracle/tools.yaml", "tools:\n  - draw_tarot\n  - show_chart\n");
}

#[test]
fn local_model_json_chat_runs_a_full_agent_turn_with_a_tool_call() {
    let tmp = tempfile::tempdir().unwrap();
    let data = tmp.path().join("data");
    assert_eq!(ok_json_in(&data, &["models", "add", &fixture()])["id"], "tiny-q8_0");
    ok_json_in(&data, &["models", "use", "tiny-q8_0"]);
    write_oracle_skill(&data);
    // Greedy, short answers, one thread (the test machine's cores are shared).
    let file = data.join("settings.json");
    let mut settings: Value =
        serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    let llm = settings["llm"].as_object_mut().unwrap();
    assert_eq!((llm["preset"].as_str(), llm["model"].as_str()), (Some("local"), Some("tiny-q8_0")));
    llm.insert("temperature".into(), 0.0.into());
    llm.insert("max_tokens".into(), 100.into());
    llm.insert("local".into(), serde_json::json!({"threads": 1}));
    std::fs::write(&file, serde_json::to_string_pretty(&settings).unwrap()).unwrap();

    let mut cmd = vibe_std();
    cmd.env_remove("LD_LIBRARY_PATH").env_remove("DYLD_LIBRARY_PATH");
    let out = cmd
        .arg("--data-dir")
        .arg(&data)
        .args(["--json", "chat", "--skill", "oracle", "我最近总熬夜，怎么办？"])
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
    // Every round asked the engine and offered the skill's tools (structured mode puts them
    // in the prompt, the agent does not know the difference).
    let requests = of("model_request");
    assert!(requests.len() >= 2, "{} model requests", requests.len());
    let offered: Vec<&str> =
        requests[0]["tools"].as_array().unwrap().iter().filter_map(Value::as_str).collect();
    assert!(offered.contains(&"show_chart") && offered.contains(&"draw_tarot"), "{offered:?}");

    // A real tool call: an offered tool, not `unusable_reply`, answered by the tool itself
    // (success or the tool's own error; never the adapter's "your reply could not be used").
    let calls = of("tool_call");
    let results = of("tool_result");
    assert_eq!(calls.len(), results.len());
    let real = calls
        .iter()
        .position(|c| c["name"] != vibe_llm::UNUSABLE_REPLY)
        .unwrap_or_else(|| panic!("no real tool call: {calls:?}"));
    let (call, result) = (calls[real], results[real]);
    assert!(offered.contains(&call["name"].as_str().unwrap()), "{call}");
    assert!(call["arguments"].is_object(), "{call}");
    assert_eq!((&call["id"], &call["name"]), (&result["id"], &result["name"]));
    let status = result["result"]["status"].as_str().unwrap_or_default();
    assert!(!status.is_empty(), "the tool's own answer: {result}");
    let said = result["result"]["message"].as_str().unwrap_or_default();
    assert!(!said.contains("could not be used"), "{result}");

    // The agent went on: a round after the tool's answer, and the run's end.
    let position = |e: &Value| events.iter().position(|x| std::ptr::eq(x, e)).unwrap();
    let result_at = position(result);
    assert!(
        events[result_at..].iter().any(|e| e["type"] == "round_started"),
        "no round after the tool result"
    );
    let finished = events.last().unwrap();
    assert_eq!(finished["type"], "run_finished");
    assert_eq!(finished["tool_calls"].as_u64(), Some(calls.len() as u64));
    assert!(finished["rounds"].as_u64().is_some_and(|r| r >= 2), "{finished}");
    assert!(finished["stop_reason"].is_string(), "{finished}");
}
