//! `vibe state history|undo` against a real data dir (docs/design.md#undo): who changed what,
//! undo and redo, `--to`, the profile's own history, and JSON input with duplicate keys refused.

use serde_json::json;

use crate::support::{ok_json_in, run};

fn write(dir: &std::path::Path, section: &str, data: &str) {
    ok_json_in(
        dir,
        &["state", "write", "--skill", "lifecoach", "--section", section, "--data", data],
    );
}

fn read(dir: &std::path::Path) -> serde_json::Value {
    ok_json_in(dir, &["state", "read", "--skill", "lifecoach"])["data"].clone()
}

#[test]
fn changes_are_listed_undone_and_redone() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    for i in 0..3 {
        let entry = format!(r#"{{"text": "day {i}"}}"#);
        ok_json_in(
            d,
            &["state", "append", "--skill", "lifecoach", "--path", "journal", "--entry", &entry],
        );
    }
    write(d, "goals", r#"{"q1": "run"}"#);
    let before = read(d);
    write(d, "journal", r#"{"gone": true}"#);

    let history = ok_json_in(d, &["state", "history", "--skill", "lifecoach"]);
    let changes = history["changes"].as_array().unwrap();
    assert_eq!(changes.len(), 5);
    assert_eq!(changes[0]["by"], "cli");
    assert_eq!(changes[0]["path"], "journal");
    assert_eq!(changes[0]["summary"], "journal: a list of 3 entries → an object with 1 field");
    assert_eq!(changes[4]["summary"], "journal: 0 → 1 entries");

    let human = run(d, &["state", "history", "--skill", "lifecoach", "--limit", "1"]);
    let text = String::from_utf8(human.stdout).unwrap();
    let first_id = changes[0]["id"].as_i64().unwrap();
    assert!(text.starts_with(&format!("#{first_id}  ")), "{text}");
    assert!(
        text.contains("  cli  journal: a list of 3 entries → an object with 1 field"),
        "{text}"
    );
    assert_eq!(text.lines().count(), 1);

    let undone = ok_json_in(d, &["state", "undo", "--skill", "lifecoach"]);
    assert_eq!(undone["changes_reverted"], 1);
    assert_eq!(read(d), before);
    assert_eq!(undone["value"], before);
    // Undo the undo: the journal is replaced again.
    ok_json_in(d, &["state", "undo", "--skill", "lifecoach"]);
    assert_eq!(read(d)["journal"], json!({"gone": true}));

    // Back to before the first append: nothing stored.
    let oldest = changes[4]["id"].as_i64().unwrap().to_string();
    let undone = ok_json_in(d, &["state", "undo", "--skill", "lifecoach", "--to", &oldest]);
    assert_eq!(undone["value"], json!({}));
    assert_eq!(ok_json_in(d, &["state", "read", "--skill", "lifecoach"])["status"], "empty");
}

#[test]
fn the_profile_has_its_own_history() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    ok_json_in(d, &["profile", "set", "account.name", r#""小明""#]);
    ok_json_in(d, &["profile", "set", "account.name", r#""小红""#]);
    let history = ok_json_in(d, &["state", "history", "--profile"]);
    assert_eq!(history["target"], json!({"kind": "profile"}));
    assert_eq!(history["changes"][0]["summary"], "account.name: \"小明\" → \"小红\"");
    ok_json_in(d, &["state", "undo", "--profile"]);
    let profile = ok_json_in(d, &["profile", "show"]);
    assert_eq!(profile["account"]["name"], "小明", "{profile}");
}

#[test]
fn nothing_to_undo_and_a_missing_target_are_clear_errors() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let out = run(d, &["state", "undo", "--skill", "lifecoach"]);
    assert!(!out.status.success());
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("skill lifecoach has no recorded changes to undo"), "{err}");
    let out = run(d, &["state", "history"]);
    assert!(!out.status.success());
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("--skill") && err.contains("--profile"), "{err}");
}

#[test]
fn duplicate_keys_are_refused_and_nothing_is_written() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let out = run(
        d,
        &[
            "state",
            "write",
            "--skill",
            "lifecoach",
            "--section",
            "goals",
            "--data",
            r#"{"q1": {"a": 1, "a": 2}}"#,
        ],
    );
    assert!(!out.status.success());
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("duplicate key \"a\" in the object at q1"), "{err}");
    assert_eq!(ok_json_in(d, &["state", "read", "--skill", "lifecoach"])["status"], "empty");
    let file = d.join("profile.json");
    std::fs::write(&file, r#"{"account": {"name": "a"}, "account": {}}"#).unwrap();
    let out = run(d, &["profile", "import", file.to_str().unwrap()]);
    assert!(!out.status.success());
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("duplicate key \"account\""), "{err}");
}

/// The person clears the history: ordinary changes go; a change that wiped their journal stays
/// undoable (with what followed) until it is 90 days old, and the answer says until when.
#[test]
fn clearing_the_history_keeps_a_recent_loss_undoable_and_says_until_when() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write(d, "goals", r#"{"q1": "run"}"#);
    ok_json_in(
        d,
        &[
            "state",
            "append",
            "--skill",
            "lifecoach",
            "--path",
            "journal",
            "--entry",
            r#"{"text": "a"}"#,
        ],
    );
    let before = read(d);
    write(d, "journal", r#"{"gone": true}"#);

    let cleared = ok_json_in(d, &["state", "clear-history", "--skill", "lifecoach"]);
    assert_eq!(
        (cleared["removed"].as_u64(), cleared["kept"].as_u64()),
        (Some(2), Some(1)),
        "{cleared}"
    );
    let until = cleared["kept_until"].as_str().unwrap();
    let human = run(d, &["state", "clear-history", "--skill", "lifecoach"]);
    let text = String::from_utf8(human.stdout).unwrap();
    assert!(text.contains(&format!("kept 1 until {until}")), "{text}");
    let history = ok_json_in(d, &["state", "history", "--skill", "lifecoach"]);
    assert_eq!(history["changes"].as_array().unwrap().len(), 1, "{history}");
    ok_json_in(d, &["state", "undo", "--skill", "lifecoach"]);
    assert_eq!(read(d), before, "the wiped journal comes back after clearing");

    // Without a recent loss, everything goes (the undo above is one: it stays).
    let profile = ok_json_in(d, &["state", "clear-history", "--profile"]);
    assert_eq!(profile["kept"], 0, "{profile}");
}
