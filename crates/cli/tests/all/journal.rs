//! `vibe checkin` and `vibe journal add|list|edit|rm` against a real data dir (issue 31): the
//! `--json` list's shape, ids that edit and remove one entry, undo, and refusals that change
//! nothing.

use crate::support::{ok_json_in, run};

#[test]
fn a_check_in_and_an_entry_are_listed_edited_and_removed_from_the_command_line() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let checkin = ok_json_in(
        d,
        &[
            "checkin",
            "--mood",
            "4",
            "--feelings",
            "平静,专注",
            "--note",
            "早起跑了步",
            "--date",
            "2026-11-28",
        ],
    );
    assert_eq!(checkin["source"], "checkin");
    ok_json_in(d, &["journal", "add", "和朋友爬山", "--tags", "户外", "--date", "2026-11-28"]);

    let list = ok_json_in(d, &["journal", "list"]);
    let entries = list["entries"].as_array().unwrap();
    assert_eq!(entries.len(), 2);
    let first = &entries[1];
    assert_eq!(first["date"], "2026-11-28");
    assert_eq!(first["mood"], 4);
    assert_eq!(first["feelings"], serde_json::json!(["平静", "专注"]));
    assert_eq!(first["text"], "早起跑了步");
    assert_eq!(entries[0]["tags"], serde_json::json!(["户外"]));

    let human = String::from_utf8(run(d, &["journal", "list"]).stdout).unwrap();
    assert!(human.contains("2026-11-28 · mood 4/5 · 平静, 专注 · 早起跑了步"), "{human}");
    assert!(human.contains(&format!("check-in · id {}", checkin["id"].as_str().unwrap())));

    let id = checkin["id"].as_str().unwrap();
    let edited = ok_json_in(d, &["journal", "edit", id, "--mood", "5"]);
    assert_eq!((edited["mood"].as_u64(), edited["text"].as_str()), (Some(5), Some("早起跑了步")));
    ok_json_in(d, &["journal", "rm", id]);
    assert_eq!(ok_json_in(d, &["journal", "list"])["entries"].as_array().unwrap().len(), 1);
    ok_json_in(d, &["state", "undo", "--skill", "lifecoach"]);
    assert_eq!(ok_json_in(d, &["journal", "list"])["entries"].as_array().unwrap().len(), 2);
}

#[test]
fn a_bad_check_in_says_what_to_fix_and_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    ok_json_in(d, &["checkin", "--mood", "3"]);
    for (args, says) in [
        (
            vec!["checkin", "--mood", "7"],
            "mood 7 is out of range: use 1 (very low) to 5 (very good)",
        ),
        (vec!["checkin", "--mood", "3", "--date", "tomorrow"], "write it as YYYY-MM-DD"),
        (vec!["journal", "rm", "nope"], "no journal entry with id nope"),
    ] {
        let out = run(d, &args);
        assert!(!out.status.success(), "{args:?}");
        let err = String::from_utf8(out.stderr).unwrap();
        assert!(err.contains(says), "{args:?}: {err}");
    }
    assert_eq!(ok_json_in(d, &["journal", "list"])["entries"].as_array().unwrap().len(), 1);
}
