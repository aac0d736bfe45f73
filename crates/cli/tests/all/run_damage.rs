//! Run logs whose damage is seen (docs/audit.md#what-a-read-proves): sealed logs written as
//! the app writes them, one record per event, then damaged on disk the ways a file can be (a
//! record dropped, two swapped, the file cut inside a record and at a record's end, a byte
//! flipped, the closing record missing as a killed run leaves it). `vibe runs replay`,
//! `vibe export all` and `vibe backup verify` each name the run and the first bad line; replay
//! still shows the events before the damage; an intact log reads with no note.

use std::path::Path;

use serde_json::{Value, json};
use vibe_core::audit::RunFolders;

use crate::support::{USAGE, ok_json_in, run};

fn text(bytes: &[u8]) -> String {
    String::from_utf8(bytes.to_vec()).unwrap()
}

/// A finished run whose sealed log holds one record per event (line 1 is the header, event
/// `n` is line `n + 2`, the closing record last).
fn fabricate(runs: &RunFolders, dir: &Path, run_id: &str) {
    crate::support::fabricate_run(runs, dir, run_id, true, |conv, _| {
        vibe_test_support::sample_run(conv, USAGE, json!({"ok": true}), None)
    });
}

fn log_path(dir: &Path, run_id: &str) -> std::path::PathBuf {
    dir.join("runs").join(run_id).join("events.jsonl")
}

/// The file's lines, each with its newline.
fn lines(dir: &Path, run_id: &str) -> Vec<Vec<u8>> {
    let bytes = std::fs::read(log_path(dir, run_id)).unwrap();
    bytes.split_inclusive(|b| *b == b'\n').map(<[u8]>::to_vec).collect()
}

fn rewrite(dir: &Path, run_id: &str, lines: &[Vec<u8>]) {
    std::fs::write(log_path(dir, run_id), lines.concat()).unwrap();
}

/// `said` with its log's path as the data folder's reports name it (absolute).
fn in_folder(dir: &Path, said: &str) -> String {
    said.replace("runs/", &format!("{}/runs/", dir.display()))
}

/// Each damage, the run it is done to, and what every report must say of it.
const CASES: [(&str, &str); 6] = [
    ("dropped", "its log is damaged at runs/dropped/events.jsonl:4: records are missing before it"),
    ("swapped", "its log is damaged at runs/swapped/events.jsonl:4: records are out of order"),
    (
        "flipped",
        "its log is damaged at runs/flipped/events.jsonl:4: the record there fails its authentication",
    ),
    (
        "cut-mid",
        "its log ends without its closing record (the run was interrupted or the file was cut): \
         its last record, runs/cut-mid/events.jsonl:5, is cut short; the 3 events before it",
    ),
    (
        "cut-edge",
        "its log ends without its closing record (the run was interrupted or the file was cut); \
         the 3 events in it are intact and in order",
    ),
    (
        "interrupted",
        "its log ends without its closing record (the run was interrupted or the file was cut); \
         the 20 events in it are intact and in order",
    ),
];

/// A data folder holding an intact run and one run per damage of [`CASES`].
fn damaged_folder(dir: &Path) {
    // The folder made by `vibe` first: its database holds the run-folder key.
    ok_json_in(dir, &["profile", "show"]);
    let runs = crate::support::sealed_runs(dir);
    for run_id in ["intact", "dropped", "swapped", "flipped", "cut-mid", "cut-edge", "interrupted"]
    {
        fabricate(&runs, dir, run_id);
    }
    let whole = lines(dir, "intact");
    assert_eq!(whole.len(), 22, "a header, 20 events, the closing record");

    let mut dropped = lines(dir, "dropped");
    dropped.remove(3);
    rewrite(dir, "dropped", &dropped);
    let mut swapped = lines(dir, "swapped");
    swapped.swap(3, 4);
    rewrite(dir, "swapped", &swapped);
    let mut flipped = lines(dir, "flipped");
    flipped[3][30] = if flipped[3][30] == b'x' { b'y' } else { b'x' };
    rewrite(dir, "flipped", &flipped);
    let mut cut = lines(dir, "cut-mid")[..5].concat();
    cut.truncate(cut.len() - 30);
    std::fs::write(log_path(dir, "cut-mid"), cut).unwrap();
    rewrite(dir, "cut-edge", &lines(dir, "cut-edge")[..4]);
    // What a run killed after its last write leaves: every record but the closing one.
    rewrite(dir, "interrupted", &lines(dir, "interrupted")[..21]);
}

#[test]
fn replay_names_the_damage_and_shows_the_events_before_it() {
    let dir = tempfile::tempdir().unwrap();
    damaged_folder(dir.path());

    let out = run(dir.path(), &["--json", "runs", "replay", "intact"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout).lines().count(), 20);
    assert_eq!(text(&out.stderr), "", "an intact log reads with no note");

    for (run_id, said) in CASES {
        let out = run(dir.path(), &["--json", "runs", "replay", run_id]);
        assert!(out.status.success(), "{run_id}: {}", text(&out.stderr));
        let stderr = text(&out.stderr);
        let line = format!("note: run {run_id}: {}", in_folder(dir.path(), said));
        assert!(stderr.contains(&line), "{line}\n{stderr}");
        let shown: Vec<u64> = text(&out.stdout)
            .lines()
            .map(|l| serde_json::from_str::<Value>(l).unwrap()["seq"].as_u64().unwrap())
            .collect();
        let expected: Vec<u64> = match run_id {
            "dropped" | "swapped" | "flipped" => vec![0, 1],
            "cut-mid" | "cut-edge" => vec![0, 1, 2],
            _ => (0..20).collect(),
        };
        assert_eq!(shown, expected, "{run_id}: the events before the damage, in order");
    }
    let show = text(&run(dir.path(), &["runs", "show", "dropped"]).stdout);
    assert!(show.contains("records are missing before it"), "{show}");
}

#[test]
fn export_and_backup_verify_name_each_damaged_run_and_its_line() {
    let dir = tempfile::tempdir().unwrap();
    damaged_folder(dir.path());

    let out_dir = dir.path().join("export");
    let out = run(dir.path(), &["--json", "export", "all", "--out", out_dir.to_str().unwrap()]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let exported: Value = serde_json::from_slice(&out.stdout).unwrap();
    let notices = exported["notices"].as_array().unwrap();
    assert_eq!(notices.len(), CASES.len(), "{notices:?}");
    let stderr = text(&out.stderr);
    for (run_id, said) in CASES {
        let line = format!("run {run_id}: {}", in_folder(dir.path(), said));
        assert!(notices.iter().any(|n| n.as_str().unwrap().contains(&line)), "{line}\n{notices:?}");
        assert!(stderr.contains(&format!("warning: {line}")), "{stderr}");
    }
    let intact = std::fs::read_to_string(out_dir.join("runs/intact/events.jsonl")).unwrap();
    assert_eq!(intact.lines().count(), 20);
    let dropped = std::fs::read_to_string(out_dir.join("runs/dropped/events.jsonl")).unwrap();
    assert_eq!(dropped.lines().count(), 2, "the events before the damage");

    let file = dir.path().join("b.tar");
    ok_json_in(dir.path(), &["backup", "create", "--out", file.to_str().unwrap()]);
    let out = run(dir.path(), &["--json", "backup", "verify", file.to_str().unwrap()]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let verified: Value = serde_json::from_slice(&out.stdout).unwrap();
    let notices = verified["notices"].as_array().unwrap();
    assert_eq!(notices.len(), CASES.len(), "{notices:?}");
    let stderr = text(&out.stderr);
    for (run_id, said) in CASES {
        let line = format!("run {run_id}: {said}");
        assert!(notices.iter().any(|n| n.as_str().unwrap().contains(&line)), "{line}\n{notices:?}");
        assert!(stderr.contains(&format!("warning: {line}")), "{stderr}");
    }
}
