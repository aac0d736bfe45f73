//! `vibe runs list|show|replay` against a fabricated run: the row made with the store API,
//! the events written by `RunAudit` through an `Emitter`, as the agent loop does. Replay must
//! print what the live printer prints (the texts asserted in `src/render/tests.rs`), and
//! `--json` must print the stored lines byte for byte.

#![allow(clippy::unwrap_used)] // test helpers outside #[test] fns unwrap too

use std::path::Path;

use serde_json::{Value, json};
use vibe_core::audit::{EXTERNALIZE_THRESHOLD, RunFolders};

use crate::support::{USAGE, run};

fn text(bytes: &[u8]) -> String {
    String::from_utf8(bytes.to_vec()).unwrap()
}

/// A finished run in conversation `conv` with one large tool output, its log sealed as `vibe`
/// seals it; returns the conversation id.
fn fabricate(dir: &Path, run_id: &str) -> String {
    fabricate_in(&crate::support::sealed_runs(dir), dir, run_id)
}

/// [`fabricate`], its log written clear (as before run folders were sealed).
fn fabricate_clear(dir: &Path, run_id: &str) -> String {
    fabricate_in(&RunFolders::unkeyed(dir).unwrap(), dir, run_id)
}

fn fabricate_in(runs: &RunFolders, dir: &Path, run_id: &str) -> String {
    crate::support::fabricate_run(runs, dir, run_id, false, |conv, audit| {
        let (preview, file) =
            audit.externalize("run_script", &json!({"stdout": "x".repeat(EXTERNALIZE_THRESHOLD)}));
        vibe_test_support::sample_run(conv, USAGE, preview, file)
    })
}

const REPLY: &str = "Let me look.\n你的日主是甲木。\n";
const STATUS: &str = "→ use_skill {\"skill\":\"bazi\"}\n\
    ← use_skill ok\n\
    ✨ skill activated: bazi\n\
    plan: Read the chart\n  [x] compute\n  [>] explain\n  [ ] advise\n\
    → read_state\n\
    ✗ read_state failed: no such section \"x\"\n\
    ← run_script ok (large output saved as tool-1-run_script.json)\n\
    ? approval needed: run_script {\"script\":\"x.py\"} — runs a script\n\
    ✗ denied by policy\n\
    … folded 12 older messages into a summary (300 tokens; digest: model summaries are off)\n\
    error [budget]: max_rounds reached\n\
    stopped: max_rounds after 10 rounds, 1 tool call\n";

#[test]
fn replay_prints_the_run_as_the_live_printer_did() {
    let dir = tempfile::tempdir().unwrap();
    fabricate(dir.path(), "run-1");
    let out = run(dir.path(), &["runs", "replay", "run-1"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout), REPLY);
    assert_eq!(text(&out.stderr), STATUS);

    let out = run(dir.path(), &["runs", "replay", "run-1", "--show-reasoning"]);
    assert_eq!(text(&out.stderr), format!("thinking\n{STATUS}"));
    assert_eq!(text(&out.stdout), REPLY);
}

#[test]
fn replay_json_prints_the_stored_lines_and_nothing_else() {
    let dir = tempfile::tempdir().unwrap();
    fabricate_clear(dir.path(), "run-1");
    // Written clear (as before run folders were sealed); `vibe` seals it when it opens the
    // folder (unchained: its order was never protected), and replays the same lines.
    let path = dir.path().join("runs/run-1/events.jsonl");
    let stored = std::fs::read(&path).unwrap();
    let out = run(dir.path(), &["--json", "runs", "replay", "run-1"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let sealed = std::fs::read(&path).unwrap();
    assert!(sealed.starts_with(b"#vibelife-sealed v1 key="), "sealed at open");
    assert!(!sealed.windows("甲木".len()).any(|w| w == "甲木".as_bytes()));
    assert_eq!(text(&out.stdout), text(&stored));
    assert_eq!(
        text(&out.stderr),
        "note: run run-1: its log was written before chaining (unverified order): a record \
         lost, moved or cut off at its end cannot be detected in it\n"
    );
    let first: Value = serde_json::from_str(text(&out.stdout).lines().next().unwrap()).unwrap();
    assert_eq!((first["type"].as_str(), first["seq"].as_u64()), (Some("run_started"), Some(0)));
}

#[test]
fn replay_of_a_killed_run_shows_what_was_written_and_a_note() {
    let dir = tempfile::tempdir().unwrap();
    fabricate_clear(dir.path(), "run-1");
    let path = dir.path().join("runs/run-1/events.jsonl");
    let mut stored = std::fs::read(&path).unwrap();
    stored.extend_from_slice(
        br#"{"run_id":"run-1","seq":20,"ts":"2026-01-01T00:00:00Z","type":"assistant_delta","te"#,
    );
    std::fs::write(&path, stored).unwrap();
    let out = run(dir.path(), &["runs", "replay", "run-1"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout), REPLY);
    let stderr = text(&out.stderr);
    let note = stderr.strip_prefix(STATUS).unwrap();
    assert!(
        note.starts_with("note: ") && note.contains("events.jsonl:21: the last line is cut short"),
        "{note}"
    );
}

#[test]
fn list_and_show_report_the_row_the_counts_and_the_files() {
    let dir = tempfile::tempdir().unwrap();
    let conv = fabricate(dir.path(), "run-1");
    let other = fabricate(dir.path(), "run-2");

    let out = run(dir.path(), &["--json", "runs", "list", "--conversation", &conv]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let listed: Value = serde_json::from_slice(&out.stdout).unwrap();
    let runs = listed["runs"].as_array().unwrap();
    assert_eq!(runs.len(), 1);
    assert_eq!(runs[0]["id"], "run-1");
    assert_eq!(
        (runs[0]["status"].as_str(), runs[0]["stop_reason"].as_str()),
        (Some("completed"), Some("max_rounds"))
    );
    assert_eq!(runs[0]["usage"]["total_tokens"], 120);
    let all: Value = serde_json::from_slice(
        &run(dir.path(), &["--json", "runs", "list", "--limit", "1"]).stdout,
    )
    .unwrap();
    assert_eq!(all["runs"].as_array().unwrap().len(), 1);

    let human = text(&run(dir.path(), &["runs", "list"]).stdout);
    assert!(
        human.starts_with("ID  ") && human.contains("run-1") && human.contains(&other),
        "{human}"
    );

    let shown: Value =
        serde_json::from_slice(&run(dir.path(), &["--json", "runs", "show", "run-1"]).stdout)
            .unwrap();
    assert_eq!(shown["run"]["conversation_id"], conv.as_str());
    assert_eq!(shown["events"]["events"], 20);
    assert_eq!(shown["events"]["rounds"], 2);
    assert_eq!(shown["events"]["tool_calls"], 2);
    assert_eq!(shown["events"]["by_type"]["assistant_delta"], 3);
    assert_eq!(shown["events"]["stop_reason"], "max_rounds");
    let files: Vec<&str> =
        shown["files"].as_array().unwrap().iter().map(|f| f["name"].as_str().unwrap()).collect();
    assert_eq!(files, vec!["events.jsonl", "tool-1-run_script.json"]);
    assert_eq!(shown["notices"], json!([]));

    let human = text(&run(dir.path(), &["runs", "show", "run-1"]).stdout);
    assert!(human.contains("status        completed (stop reason: max_rounds)"), "{human}");
    // The size on disk: sealed (base64 of the ciphertext, and the closing record).
    assert!(human.contains("tool-1-run_script.json  21.6 KiB"), "{human}");
}

#[test]
fn unknown_runs_name_the_fix() {
    let dir = tempfile::tempdir().unwrap();
    for cmd in ["show", "replay"] {
        let out = run(dir.path(), &["runs", cmd, "nope"]);
        assert_eq!(out.status.code(), Some(1));
        let err = text(&out.stderr);
        assert!(
            err.starts_with("error: no run with id \"nope\"") && err.contains("`vibe runs list`"),
            "{cmd}: {err}"
        );
    }
    let out = run(dir.path(), &["runs", "replay", "../x"]);
    assert!(
        text(&out.stderr).starts_with("error: invalid run id \"../x\""),
        "{}",
        text(&out.stderr)
    );
    assert!(text(&run(dir.path(), &["runs", "list"]).stdout).starts_with("no runs yet"));

    // A row without events (the run died before its first event) is shown with a note.
    crate::support::store(dir.path()).create_run("early", None).unwrap();
    let shown: Value =
        serde_json::from_slice(&run(dir.path(), &["--json", "runs", "show", "early"]).stdout)
            .unwrap();
    // Opening the app closed it: its process is gone (no run folder holds its lock).
    assert_eq!(shown["run"]["status"], "failed");
    assert!(shown["events"].is_null());
    assert!(shown["notices"][0].as_str().unwrap().contains("no events were recorded"));
    let err = text(&run(dir.path(), &["runs", "replay", "early"]).stderr);
    assert!(err.contains("run early recorded no events"), "{err}");
}

#[test]
fn deleting_a_conversation_removes_its_run_folder_and_replay_then_fails_clearly() {
    let dir = tempfile::tempdir().unwrap();
    let conv = fabricate(dir.path(), "r-deleted");
    let folder = dir.path().join("runs/r-deleted");
    assert!(run(dir.path(), &["runs", "replay", "r-deleted"]).status.success());

    let out = run(dir.path(), &["conversations", "delete", &conv]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("and its 1 run folder"), "{}", text(&out.stdout));
    assert!(!folder.exists(), "the run folder is gone");
    let out = run(dir.path(), &["runs", "replay", "r-deleted"]);
    assert!(!out.status.success());
    let err = text(&out.stderr);
    assert!(err.contains("no run with id \"r-deleted\""), "{err}");
    // Nothing under runs/ holds the reply's text any more.
    let mut stack = vec![dir.path().join("runs")];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).into_iter().flatten().flatten() {
            if entry.path().is_dir() {
                stack.push(entry.path());
            } else {
                let bytes = std::fs::read(entry.path()).unwrap();
                assert!(!text(&bytes).contains("甲木"), "{}", entry.path().display());
            }
        }
    }
}
