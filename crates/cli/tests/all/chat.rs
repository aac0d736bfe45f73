//! `vibe chat`, `vibe conversations`, `vibe eval` end to end with the scripted model, including
//! crash consistency after killing `vibe chat` mid-stream.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::io::{BufRead as _, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Output, Stdio};

use serde_json::Value;

use crate::support::{vibe_std, write_helper_skill};

fn vibe(dir: &Path, script: &Path, args: &[&str]) -> Output {
    let mut cmd = vibe_std();
    cmd.arg("--data-dir").arg(dir).args(args);
    cmd.env("VIBE_LLM_BASE_URL", format!("scripted:{}", script.display()));
    cmd.stdin(Stdio::null()).output().unwrap()
}

fn lines(out: &Output) -> Vec<Value> {
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("not JSON ({e}): {l}")))
        .collect()
}

fn write_script(dir: &Path, name: &str, text: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

const REPLY: &str =
    "mode: ordered\nresponses:\n  - text: \"你好！今天想聊点什么？\"\n    chunk_chars: 3\n";

#[test]
fn chat_streams_the_reply_to_stdout_and_json_prints_only_events() {
    let dir = tempfile::tempdir().unwrap();
    let script = write_script(dir.path(), "s.yaml", REPLY);
    let out = vibe(dir.path(), &script, &["chat", "你好"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), "你好！今天想聊点什么？");

    let out = vibe(dir.path(), &script, &["--json", "chat", "你好"]);
    assert!(out.status.success());
    let events = lines(&out);
    assert_eq!(events.first().unwrap()["type"], "run_started");
    assert_eq!(events.last().unwrap()["type"], "run_finished");
    assert!(
        events.iter().all(|e| e["run_id"] == events[0]["run_id"]
            && e["seq"].is_u64()
            && e["ts"].is_string())
    );
    let text: String = events
        .iter()
        .filter(|e| e["type"] == "assistant_delta")
        .map(|e| e["text"].as_str().unwrap())
        .collect();
    assert_eq!(text, "你好！今天想聊点什么？");
}

#[test]
fn conversations_list_show_delete() {
    let dir = tempfile::tempdir().unwrap();
    let script = write_script(dir.path(), "s.yaml", REPLY);
    assert!(vibe(dir.path(), &script, &["chat", "第一次对话"]).status.success());
    let list = lines(&vibe(dir.path(), &script, &["--json", "conversations", "list"]));
    let id = list[0]["conversations"][0]["id"].as_str().unwrap().to_string();
    assert_eq!(list[0]["conversations"][0]["title"], "第一次对话");
    let shown = lines(&vibe(dir.path(), &script, &["--json", "conversations", "show", &id]));
    let roles: Vec<&str> = shown[0]["messages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["role"].as_str().unwrap())
        .collect();
    assert_eq!(roles, vec!["user", "assistant"]);
    assert!(vibe(dir.path(), &script, &["conversations", "delete", &id]).status.success());
    let out = vibe(dir.path(), &script, &["conversations", "show", &id]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("no conversation with id"));
}

#[test]
fn an_unreachable_model_names_the_cause_and_keeps_the_message() {
    let dir = tempfile::tempdir().unwrap();
    let mut cmd = vibe_std();
    // A port nothing listens on.
    let out = cmd
        .arg("--data-dir")
        .arg(dir.path())
        .args(["chat", "你好", "--base-url", "http://127.0.0.1:9/v1", "--model", "m"])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("127.0.0.1:9"), "{stderr}");
    assert!(stderr.contains("--retry"), "{stderr}");
}

#[test]
fn killing_chat_mid_stream_leaves_a_valid_history_and_retry_answers() {
    let dir = tempfile::tempdir().unwrap();
    let slow = write_script(
        dir.path(),
        "slow.yaml",
        "mode: ordered\nresponses:\n  - text: \"这是一段很长的回答，会一个字一个字慢慢地流出来，直到进程被杀掉为止。\"\n    chunk_chars: 1\n    delay_ms: 120\n",
    );
    let mut child = vibe_std()
        .arg("--data-dir")
        .arg(dir.path())
        .args(["--json", "chat", "讲个长故事"])
        .env("VIBE_LLM_BASE_URL", format!("scripted:{}", slow.display()))
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let stdout = child.stdout.take().unwrap();
    let mut deltas = 0;
    for line in BufReader::new(stdout).lines() {
        let line = line.unwrap();
        if line.contains("\"assistant_delta\"") {
            deltas += 1;
            if deltas == 8 {
                break;
            }
        }
    }
    child.kill().unwrap(); // SIGKILL: no cleanup runs.
    child.wait().unwrap();

    let fast = write_script(dir.path(), "fast.yaml", REPLY);
    let list = lines(&vibe(dir.path(), &fast, &["--json", "conversations", "list"]));
    let id = list[0]["conversations"][0]["id"].as_str().unwrap().to_string();
    let shown = lines(&vibe(dir.path(), &fast, &["--json", "conversations", "show", &id]));
    let messages = shown[0]["messages"].as_array().unwrap().clone();
    assert_eq!(
        messages[0]["content"], "讲个长故事",
        "the user message was stored before the model answered"
    );
    let partial = &messages[1];
    assert_eq!(partial["interrupted"], true);
    let text = partial["content"].as_str().unwrap();
    assert!(
        !text.is_empty()
            && "这是一段很长的回答，会一个字一个字慢慢地流出来，直到进程被杀掉为止。"
                .starts_with(text),
        "{text}"
    );

    let retry = vibe(dir.path(), &fast, &["chat", "--retry", "--conversation", &id]);
    assert!(retry.status.success(), "{}", String::from_utf8_lossy(&retry.stderr));
    // The interrupted run was closed by the first command that opened the app after the kill
    // (recovery at open), here `conversations list`; the statuses below show it.
    assert_eq!(String::from_utf8_lossy(&retry.stdout).trim(), "你好！今天想聊点什么？");
    let conn = crate::support::db(dir.path());
    let statuses: Vec<(String, Option<String>)> = conn
        .prepare("SELECT status, stop_reason FROM runs ORDER BY started_at")
        .unwrap()
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    assert_eq!(
        statuses,
        vec![
            ("failed".into(), Some("interrupted".into())),
            ("completed".into(), Some("completed".into()))
        ]
    );
}

fn repo_file(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..").join(rel)
}

#[test]
fn eval_passes_the_shipped_scenarios_and_fails_a_wrong_one() {
    let dir = tempfile::tempdir().unwrap();
    let dummy = write_script(dir.path(), "s.yaml", REPLY);
    let scenarios = ["tests/evals/lifecoach_journal.yaml", "tests/evals/budget_stop.yaml"];
    let files: Vec<String> = scenarios.iter().map(|s| repo_file(s).display().to_string()).collect();
    let mut args = vec!["eval"];
    args.extend(files.iter().map(String::as_str));
    let out = vibe(dir.path(), &dummy, &args);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}\n{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(stdout.matches("PASS").count(), 2, "{stdout}");

    let wrong = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/eval_fail.yaml");
    let out = vibe(dir.path(), &dummy, &["--json", "eval", wrong.to_str().unwrap()]);
    assert!(!out.status.success());
    let report = &lines(&out)[0];
    assert_eq!(report["failed"], 1);
    let checks = report["scenarios"][0]["turns"][0]["checks"].as_array().unwrap();
    let failed: Vec<&str> = checks
        .iter()
        .filter(|c| c["passed"] == false)
        .map(|c| c["name"].as_str().unwrap())
        .collect();
    assert_eq!(failed, vec!["tool_calls"]);
}

#[test]
fn a_chat_run_replays_exactly_as_it_was_shown() {
    let dir = tempfile::tempdir().unwrap();
    let script = write_script(
        dir.path(),
        "s.yaml",
        "mode: matched\nresponses:\n  - when: {tool_result: success}\n    text: \"记下了。\"\n  - tool_calls: [{name: write_state, arguments: {section: goals, data: {a: 1}}}]\n",
    );
    let live = vibe(dir.path(), &script, &["--json", "chat", "--skill", "lifecoach", "记一个目标"]);
    assert!(live.status.success(), "{}", String::from_utf8_lossy(&live.stderr));
    let events = lines(&live);
    let run_id = events[0]["run_id"].as_str().unwrap().to_string();
    let replay = vibe(dir.path(), &script, &["--json", "runs", "replay", &run_id]);
    assert!(replay.status.success());
    assert_eq!(String::from_utf8_lossy(&replay.stdout), String::from_utf8_lossy(&live.stdout));

    let live_text = vibe(dir.path(), &script, &["chat", "--skill", "lifecoach", "再记一个"]);
    let list = lines(&vibe(dir.path(), &script, &["--json", "runs", "list"]));
    let newest = list[0]["runs"][0]["id"].as_str().unwrap().to_string();
    let replay_text = vibe(dir.path(), &script, &["runs", "replay", &newest]);
    assert_eq!(
        String::from_utf8_lossy(&replay_text.stdout),
        String::from_utf8_lossy(&live_text.stdout)
    );
    assert_eq!(String::from_utf8_lossy(&live_text.stdout).trim(), "记下了。");
}

#[test]
fn the_tools_settings_section_limits_skill_scripts_and_a_typo_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    write_helper_skill(
        dir.path(),
        "A test skill with a slow script.",
        "slow.sh",
        "sleep 20\necho done\n",
    );
    let script = write_script(
        dir.path(),
        "s.yaml",
        r#"
mode: matched
responses:
  - when: {tool_result: "timed_out"}
    text: "脚本超时了。"
  - tool_calls: [{name: run_script, arguments: {script: slow.sh}}]
"#,
    );
    std::fs::write(dir.path().join("settings.json"), r#"{"tools": {"script_timeout_secs": 1}}"#)
        .unwrap();
    let args = ["--json", "chat", "--skill", "helper", "--approve", "all", "run it"];
    let events = lines(&vibe(dir.path(), &script, &args));
    let result = events.iter().find(|e| e["type"] == "tool_result").expect("a tool result");
    // The script sleeps 20 s: under the default 30 s limit it would finish.
    assert_eq!(result["result"]["timed_out"], true, "{result}");

    std::fs::write(dir.path().join("settings.json"), r#"{"tools": {"script_timeout": 1}}"#)
        .unwrap();
    let out = vibe(dir.path(), &script, &args);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("unknown key \"tools.script_timeout\"") && err.contains("settings.json"),
        "{err}"
    );
}

#[test]
fn bench_agent_refuses_zero_turns_with_a_message() {
    let dir = tempfile::tempdir().unwrap();
    let out = vibe_std()
        .arg("--data-dir")
        .arg(dir.path())
        .args(["bench", "agent", "--history", "0", "--turns", "0"])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert!(
        stderr.contains(
            "invalid value '0' for '--turns <TURNS>': the benchmark needs at least 1 measured turn"
        ),
        "{stderr}"
    );
}

#[test]
fn bench_agent_reports_each_history_size() {
    let dir = tempfile::tempdir().unwrap();
    let mut cmd = vibe_std();
    cmd.arg("--data-dir").arg(dir.path()).args([
        "--json",
        "bench",
        "agent",
        "--history",
        "0,30",
        "--turns",
        "4",
        "--dir",
    ]);
    let out = cmd.arg(dir.path()).stdin(Stdio::null()).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    let rows = report["agent"].as_array().unwrap();
    assert_eq!(rows.iter().map(|r| r["history"].as_u64().unwrap()).collect::<Vec<_>>(), [0, 30]);
    for row in rows {
        assert_eq!(row["turns"], 4);
        let (median, p95) = (row["median_ms"].as_f64().unwrap(), row["p95_ms"].as_f64().unwrap());
        assert!(median > 0.0 && p95 >= median, "{row}");
        assert!(row["db_growth_bytes_per_turn"].as_f64().is_some(), "{row}");
    }
    // The benchmark's data dirs are temporary: nothing is left in --dir.
    let left: Vec<_> =
        std::fs::read_dir(dir.path()).unwrap().flatten().map(|e| e.file_name()).collect();
    assert!(left.iter().all(|n| n != "runs"), "{left:?}");
}
