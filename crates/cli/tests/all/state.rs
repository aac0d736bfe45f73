//! `vibe state` / `vibe profile` / `vibe db` against a real data dir: semantics, bad input
//! (exact error line, database unchanged), and two processes appending at once.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::Path;

use serde_json::{Value, json};

use crate::support::{ok_json_in, run};

/// Everything a user could lose: every part of the profile document as stored (the profile
/// row, each skill's state row, each appended list and its entries) and the row counts of
/// conversations and messages.
fn snapshot(dir: &Path) -> Vec<String> {
    let conn = crate::support::db(dir);
    let rows = |sql: &str| -> Vec<String> {
        let mut stmt = conn.prepare(sql).unwrap();
        stmt.query_map([], |r| r.get::<_, String>(0)).unwrap().map(|r| r.unwrap()).collect()
    };
    let mut out =
        rows("SELECT user_id || ':' || doc || '@' || updated_at FROM profiles ORDER BY user_id");
    out.extend(rows(
        "SELECT user_id || '/' || skill || ':' || doc || '@' || updated_at FROM skill_states ORDER BY user_id, skill",
    ));
    out.extend(rows(
        "SELECT id || ':' || user_id || '/' || skill || '/' || path || ' next ' || next_seq || ' len ' || len FROM state_lists ORDER BY id",
    ));
    out.extend(rows(
        "SELECT list_id || '#' || seq || ':' || item FROM state_list_items ORDER BY list_id, seq",
    ));
    out.extend(rows(
        "SELECT (SELECT count(*) FROM conversations) || '/' || (SELECT count(*) FROM messages)",
    ));
    out
}

fn seeded() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    ok_json_in(
        dir.path(),
        &[
            "state",
            "write",
            "--skill",
            "lifecoach",
            "--section",
            "progress",
            "--data",
            r#"{"milestones": {"kind": "map"}}"#,
        ],
    );
    ok_json_in(
        dir.path(),
        &[
            "state",
            "append",
            "--skill",
            "lifecoach",
            "--path",
            "journal",
            "--entry",
            r#"{"text": "第一天"}"#,
        ],
    );
    dir
}

#[test]
fn state_commands_follow_the_seed_semantics() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let empty = ok_json_in(d, &["state", "read", "--skill", "career"]);
    assert_eq!(empty["status"], "empty");
    ok_json_in(
        d,
        &[
            "state",
            "write",
            "--skill",
            "career",
            "--section",
            "goals",
            "--data",
            r#"{"a": {"x": 1, "y": 2}}"#,
        ],
    );
    ok_json_in(
        d,
        &[
            "state",
            "write",
            "--skill",
            "career",
            "--section",
            "goals",
            "--data",
            r#"{"a": {"y": null, "z": 3}}"#,
        ],
    );
    for n in 1..=3 {
        let out = ok_json_in(
            d,
            &[
                "state",
                "append",
                "--skill",
                "career",
                "--path",
                "log.items",
                "--entry",
                &format!(r#"{{"n": {n}}}"#),
                "--max-items",
                "2",
            ],
        );
        assert_eq!(out["length"], if n == 1 { 1 } else { 2 });
    }
    let read = ok_json_in(d, &["state", "read", "--skill", "career", "--sections", "goals,log"]);
    assert_eq!(read["status"], "success");
    assert_eq!(read["data"]["goals"], json!({"a": {"x": 1, "z": 3}}));
    let items = read["data"]["log"]["items"].as_array().unwrap();
    assert_eq!(items.iter().map(|i| i["n"].as_i64().unwrap()).collect::<Vec<_>>(), vec![3, 2]);
    assert!(read["data"].get("_meta").is_none(), "only the asked sections");
}

#[test]
fn profile_set_show_export_import_round_trip() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    ok_json_in(d, &["profile", "set", "birth_info.date", r#""1990-05-17""#]);
    ok_json_in(d, &["profile", "set", "birth_info.timezone", r#""Asia/Shanghai""#]);
    let shown = ok_json_in(d, &["profile", "show"]);
    assert_eq!(shown["birth_info"], json!({"date": "1990-05-17", "timezone": "Asia/Shanghai"}));
    let file = d.join("export.json");
    ok_json_in(d, &["profile", "export", file.to_str().unwrap()]);
    let other = tempfile::tempdir().unwrap();
    ok_json_in(other.path(), &["profile", "import", file.to_str().unwrap()]);
    assert_eq!(ok_json_in(other.path(), &["profile", "show"]), shown);
}

#[test]
fn profile_import_migrates_a_legacy_file() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let file = d.join("legacy.json");
    std::fs::write(&file, r#"{"skill_data": {"bazi": {"chart": {"day": "丙午"}}}, "life_context": {"_paths": {"lifecoach": {"content": {"goals": {"a": 1}}}}}}"#).unwrap();
    ok_json_in(d, &["profile", "import", file.to_str().unwrap()]);
    let shown = ok_json_in(d, &["profile", "show"]);
    assert_eq!(shown["skills"]["bazi"]["chart"]["day"], "丙午");
    assert_eq!(shown["skills"]["lifecoach"]["goals"]["a"], 1);
    assert!(shown.get("skill_data").is_none() && shown.get("life_context").is_none());
}

#[test]
fn db_info_reports_schema_and_counts() {
    let dir = seeded();
    let info = ok_json_in(dir.path(), &["db", "info"]);
    assert_eq!(info["schema_version"], vibe_store::latest_version());
    assert_eq!(info["counts"]["skill_states"], 1);
    assert_eq!(info["counts"]["state_list_items"], 1);
    assert!(info["size_bytes"].as_u64().unwrap() > 0);
    assert!(info["path"].as_str().unwrap().ends_with("vibe.db"));
}

#[test]
fn the_snapshot_sees_every_part_of_the_profile() {
    let dir = seeded();
    let d = dir.path();
    let before = snapshot(d);
    ok_json_in(
        d,
        &["state", "write", "--skill", "lifecoach", "--section", "goals", "--data", r#"{"a": 1}"#],
    );
    let written = snapshot(d);
    assert_ne!(written, before, "a skill state write must show in the snapshot");
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
            r#"{"text": "第二天"}"#,
        ],
    );
    let appended = snapshot(d);
    assert_ne!(appended, written, "an appended list entry must show in the snapshot");
    assert!(appended.iter().any(|row| row.contains("第二天")), "{appended:?}");
}

#[test]
fn a_schema_upgrade_is_told_in_one_line_with_its_backup() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    {
        // A file as the first release left it: schema 1 with a profile in it.
        let conn = rusqlite::Connection::open(d.join("vibe.db")).unwrap();
        conn.execute_batch(include_str!("../../../../migrations/0001_init.sql")).unwrap();
        conn.execute_batch(
            "INSERT INTO profiles (user_id, doc, updated_at) VALUES ('local', '{\"name\":\"林晓\"}', 't');
             PRAGMA user_version = 1;",
        )
        .unwrap();
    }
    let out = run(d, &["--json", "db", "info"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let stderr = String::from_utf8_lossy(&out.stderr);
    let backups = vibe_store::list_backups(&d.join("vibe.db"));
    assert_eq!(backups.len(), 1, "{backups:?}");
    let want = format!(
        "note: upgraded {} from schema v1 to v{}; the old file is kept as {}\n",
        d.join("vibe.db").display(),
        vibe_store::latest_version(),
        backups[0].display()
    );
    assert_eq!(stderr, want);
    let info: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(info["schema_version"], vibe_store::latest_version());
    assert_eq!(ok_json_in(d, &["profile", "show"])["name"], "林晓");
    let again = run(d, &["db", "info"]);
    assert_eq!(String::from_utf8_lossy(&again.stderr), "", "an up-to-date file says nothing");
}

#[test]
fn bad_input_names_the_problem_and_changes_nothing() {
    let dir = seeded();
    let d = dir.path();
    let before = snapshot(d);
    let cases: &[(&[&str], &str)] = &[
        (
            &["state", "write", "--skill", "lifecoach", "--section", "goals", "--data", "{bad"],
            "error: --data is not valid JSON (line 1, column 2",
        ),
        (
            &["state", "append", "--skill", "lifecoach", "--path", "progress..x", "--entry", "{}"],
            "error: list path \"progress..x\" has an empty segment (part 2); remove the extra dot",
        ),
        (
            &[
                "state",
                "append",
                "--skill",
                "lifecoach",
                "--path",
                "progress.milestones",
                "--entry",
                "{}",
            ],
            "error: cannot append to \"progress.milestones\" of skill lifecoach: it holds an object, not a list",
        ),
        (
            &["state", "write", "--skill", "lifecoach", "--section", "goals", "--data", "[1,2]"],
            "error: write_state data must be a JSON object (it is merged into section \"goals\"), got a list",
        ),
        (
            &["state", "write", "--skill", "Life_Coach", "--section", "goals", "--data", "{}"],
            "error: invalid skill id \"Life_Coach\": use 1-64 characters of a-z, 0-9 and '-'",
        ),
        (&["state", "read", "--skill", "lifecoach!"], "error: invalid skill id \"lifecoach!\""),
        (
            &["profile", "import", "/nonexistent/profile.json"],
            "error: cannot read profile file /nonexistent/profile.json: No such file",
        ),
        (
            &["profile", "set", "birth_info..date", "1"],
            "error: profile path \"birth_info..date\" has an empty segment",
        ),
        (&["profile", "set", "birth_info.date", "1990-05-17"], "error: VALUE is not valid JSON"),
    ];
    for (args, expected) in cases {
        let out = run(d, args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{args:?} should fail");
        assert_eq!(stderr.lines().count(), 1, "{args:?}: one line, got {stderr}");
        assert!(stderr.starts_with(expected), "{args:?}:\n got: {stderr}\nwant: {expected}");
        assert_eq!(snapshot(d), before, "{args:?} changed the database");
    }
    let bad_import = d.join("bad.json");
    std::fs::write(&bad_import, "{\n  \"a\": ,\n}").unwrap();
    let out = run(d, &["profile", "import", bad_import.to_str().unwrap()]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("bad.json:2:8: not valid JSON"), "{stderr}");
    std::fs::write(&bad_import, "[1]").unwrap();
    let out = run(d, &["profile", "import", bad_import.to_str().unwrap()]);
    assert!(
        String::from_utf8_lossy(&out.stderr)
            .contains("a profile must be a JSON object, got a list")
    );
    assert_eq!(snapshot(d), before);
}

#[test]
fn two_processes_appending_at_once_lose_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().to_path_buf();
    ok_json_in(&d, &["db", "info"]);
    let loops: Vec<_> = (0..2)
        .map(|writer| {
            let d = d.clone();
            std::thread::spawn(move || {
                for i in 0..200 {
                    let entry = format!(r#"{{"writer": {writer}, "i": {i}}}"#);
                    let out = run(
                        &d,
                        &[
                            "state",
                            "append",
                            "--skill",
                            "lifecoach",
                            "--path",
                            "journal",
                            "--entry",
                            &entry,
                            "--max-items",
                            "1000",
                        ],
                    );
                    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
                }
            })
        })
        .collect();
    for l in loops {
        l.join().unwrap();
    }
    let read = ok_json_in(&d, &["state", "read", "--skill", "lifecoach", "--sections", "journal"]);
    let journal = read["data"]["journal"].as_array().unwrap();
    assert_eq!(journal.len(), 400);
    for writer in 0..2 {
        let mine: Vec<i64> = journal
            .iter()
            .filter(|e| e["writer"] == writer)
            .map(|e| e["i"].as_i64().unwrap())
            .collect();
        assert_eq!(
            mine,
            (0..200).rev().collect::<Vec<_>>(),
            "writer {writer}: newest first, none lost"
        );
    }
}

#[test]
fn append_without_max_items_drops_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let mut last = Value::Null;
    for n in 1..=101 {
        let entry = format!(r#"{{"n": {n}}}"#);
        last = ok_json_in(
            d,
            &["state", "append", "--skill", "career", "--path", "log", "--entry", &entry],
        );
    }
    assert_eq!(last["length"], 101, "{last}");
    assert_eq!(last["dropped"], 0, "{last}");
}
