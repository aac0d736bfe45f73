//! `vibe bench local` on the tiny fixture model (only with the `local-llm` feature;
//! scripts/test.sh runs it in release, filtered by `local_model`): three turns of the scripted
//! conversation, the second in a fresh process, as `--json` and as the table. Checks the
//! report's shape and that the fresh process started from the saved state (tokens reused on
//! its first turn, a state loaded) — never a timing. With `--warm-up`: each process's warm-up
//! is reported and its first turn reuses it.

use std::path::Path;
use std::process::Stdio;

use serde_json::Value;

use crate::local_model::fixture;
use crate::support::vibe_std;

fn bench(dir: &Path, json: bool) -> String {
    bench_with(dir, json, &["--turns", "3"])
}

fn bench_with(dir: &Path, json: bool, extra: &[&str]) -> String {
    let mut cmd = vibe_std();
    cmd.env_remove("LD_LIBRARY_PATH");
    if json {
        cmd.arg("--json");
    }
    let out = cmd
        .args(["bench", "local", "--model", &fixture(), "--restart-every", "2"])
        .args(extra)
        // The tiny model's 512-token vocabulary makes ~17k tokens of the skill's prompt: its
        // whole trained window (32k) instead of the default 16k.
        .args(["--threads", "1", "--answer-tokens", "16", "--context-tokens", "32768", "--dir"])
        .arg(dir)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "vibe bench local failed: {stderr}");
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn local_model_bench_reports_each_turn_and_a_restart_starts_from_the_saved_state() {
    let tmp = tempfile::tempdir().unwrap();
    let report: Value = serde_json::from_str(bench(tmp.path(), true).trim()).unwrap();
    let turns = report["turns"].as_array().unwrap();
    assert_eq!(turns.len(), 3, "{report}");
    let column = |key: &str| turns.iter().map(|t| t[key].clone()).collect::<Vec<_>>();
    assert_eq!(column("turn"), [1, 2, 3].map(Value::from));
    assert_eq!(column("process"), [1, 2, 2].map(Value::from), "a fresh process from turn 2");
    assert_eq!(column("restarted"), [false, true, false].map(Value::from));
    assert_eq!(turns[0]["step"], "skill lifecoach");
    for t in turns {
        let e = &t["engine"];
        assert!(t["requests"].as_u64().unwrap() >= 1, "{t}");
        assert!(t["stop_reason"].is_string(), "{t}");
        assert!(e["error"].is_null(), "{t}");
        let prompt = e["prompt_tokens"].as_u64().unwrap();
        let (evaluated, reused) =
            (e["evaluated_tokens"].as_u64().unwrap(), e["reused_tokens"].as_u64().unwrap());
        assert!(prompt > 0 && evaluated > 0, "{t}");
        assert_eq!(evaluated + reused, prompt, "every prompt token evaluated or reused: {t}");
        assert!(e["first_token_ms"].as_f64().unwrap() > 0.0, "{t}");
        assert!(e["generated_tokens"].as_u64().unwrap() > 0, "{t}");
        assert!(t.get("sent").is_none(), "the recorded requests stay out of the report");
    }
    // Turn 1 reads its whole prompt; turn 2, in a new process, starts from turn 1's saved
    // state; turn 3 from what that process kept in memory.
    assert_eq!(turns[0]["engine"]["reused_tokens"], 0);
    assert_eq!(turns[1]["engine"]["state_loaded"], true, "{}", turns[1]);
    assert!(turns[1]["engine"]["reused_tokens"].as_u64().unwrap() > 0, "{}", turns[1]);
    assert!(turns[2]["engine"]["reused_tokens"].as_u64().unwrap() > 0, "{}", turns[2]);
    assert_eq!(turns[2]["engine"]["state_loaded"], false);
    assert!(turns[1]["load_ms"].as_f64().is_some() && turns[2]["load_ms"].is_null());
    assert!(report["prefill_tokens_per_s"].as_f64().unwrap() > 0.0);
    assert!(turns[1]["ratio"].as_f64().unwrap() > 0.0 && turns[0]["ratio"].is_null());

    let text = bench(tmp.path(), false);
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines[0].starts_with("model ") && lines[1].starts_with("turn proc step"), "{text}");
    let rows: Vec<&str> = lines.iter().copied().filter(|l| l.starts_with("   ")).collect();
    assert_eq!(rows.len(), 3, "{text}");
    assert!(rows[1].trim_start().starts_with("2   2*"), "{text}");
    assert!(rows[1].contains(" load "), "the restart's state loaded: {text}");
}

#[test]
fn local_model_bench_warm_up_is_reported_and_each_process_first_turn_reuses_it() {
    let tmp = tempfile::tempdir().unwrap();
    let args = ["--turns", "2", "--warm-up"];
    let report: Value = serde_json::from_str(bench_with(tmp.path(), true, &args).trim()).unwrap();
    assert_eq!(report["warm_up"], true, "{report}");
    let turns = report["turns"].as_array().unwrap();
    assert_eq!(turns.len(), 2, "{report}");
    let number = |v: &Value| v.as_u64().unwrap();
    // Process 1 read the skill's prefix in its warm-up; its first turn reused it.
    let warm = &turns[0]["warm_up"];
    let prefix = number(&warm["prefix_tokens"]);
    assert!(prefix > 100 && number(&warm["evaluated_tokens"]) == prefix, "{warm}");
    assert_eq!(warm["state_loaded"], false);
    assert!(warm["ms"].as_f64().unwrap() > 0.0);
    assert!(number(&turns[0]["engine"]["reused_tokens"]) + 2 >= prefix, "{}", turns[0]);
    // Process 2's warm-up loaded the saved state of turn 1 and kept it whole (it read nothing,
    // even where the rebuilt prefix differs from turn 1's: turn 1 trimmed its system prompt
    // beside its own sections); turn 2 started from that state.
    let warm = &turns[1]["warm_up"];
    assert_eq!(warm["state_loaded"], true, "{warm}");
    let (evaluated, reused) = (number(&warm["evaluated_tokens"]), number(&warm["reused_tokens"]));
    assert!(reused > 100 && evaluated == 0, "{warm}");
    assert!(number(&turns[1]["engine"]["reused_tokens"]) >= reused, "{}", turns[1]);
    assert!(turns[0]["ratio"].as_f64().unwrap() > 0.0, "turn 1 has a limit after a warm-up");

    let text = bench_with(tmp.path(), false, &args);
    let warm_lines: Vec<&str> =
        text.lines().filter(|l| l.starts_with("warm-up before turn")).collect();
    assert_eq!(warm_lines.len(), 2, "{text}");
    assert!(warm_lines[0].contains("turn 1 then reused"), "{text}");
    assert!(warm_lines[1].contains("saved state loaded"), "{text}");
}
