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
    assert!(checkin.get("safety").is_none(), "{checkin}");
    let checkin = &checkin["entry"];
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
    let edited = ok_json_in(d, &["journal", "edit", id, "--mood", "5"])["entry"].clone();
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

/// What the person writes in a check-in or the journal is screened as a chat message is: the
/// entry is saved, and the crisis contacts come with it (stderr, or `safety` with `--json`).
#[test]
fn a_check_in_or_an_entry_at_risk_is_saved_and_answered_with_the_crisis_contacts() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let mut cmd = crate::support::vibe_std();
    cmd.arg("--data-dir").arg(d).args([
        "checkin",
        "--mood",
        "1",
        "--note",
        "我不想活了，已经想好怎么做了",
    ]);
    let out = cmd.env("LANG", "zh_CN.UTF-8").output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("⚠ safety notice (suicide, zh_CN.UTF-8)"), "{err}");
    assert!(err.contains("☎ 全国心理援助热线: 12356 (24小时)"), "{err}");
    assert!(String::from_utf8(out.stdout).unwrap().contains("checked in: "));
    // Today keeps the contacts in reach for the rest of the day.
    let today = ok_json_in(d, &["today"]);
    assert_eq!(today["safety"]["category"], "suicide", "{today}");

    let added = ok_json_in(d, &["journal", "add", "I keep thinking about killing myself"]);
    assert_eq!(added["safety"]["category"], "suicide", "{added}");
    assert!(added["safety"]["resources"].as_array().is_some_and(|r| !r.is_empty()), "{added}");
    let id = added["entry"]["id"].as_str().unwrap();
    let calm = ok_json_in(d, &["journal", "edit", id, "--text", "A long walk by the river"]);
    assert!(calm.get("safety").is_none(), "{calm}");
    let lookalike = ok_json_in(d, &["checkin", "--mood", "4", "--note", "累死了，但是很开心"]);
    assert!(lookalike.get("safety").is_none(), "{lookalike}");
    let today = ok_json_in(d, &["today"]);
    assert_eq!(today["safety"]["category"], "suicide", "the earlier words still count: {today}");
    assert_eq!(
        ok_json_in(d, &["journal", "list"])["entries"].as_array().unwrap().len(),
        3,
        "all saved"
    );
}
