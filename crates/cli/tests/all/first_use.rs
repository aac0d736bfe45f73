//! Safe first use: several `vibe` processes opening the same new (or outdated) data dir at the
//! same moment all succeed, and none of their writes is lost (the schema is created or
//! upgraded once, under a lock, with one backup).

use std::process::Stdio;

use crate::support::vibe_std;

const PROCESSES: usize = 6;
const ROUNDS: usize = 8;

#[test]
fn many_processes_opening_a_fresh_data_dir_at_once_all_succeed() {
    for round in 0..ROUNDS {
        let dir = tempfile::tempdir().unwrap();
        let children: Vec<_> = (0..PROCESSES)
            .map(|n| {
                let entry = format!(r#"{{"n": {n}}}"#);
                vibe_std()
                    .arg("--data-dir")
                    .arg(dir.path())
                    .args(["--json", "state", "append", "--skill", "career", "--path", "log"])
                    .args(["--entry", &entry])
                    .stdout(Stdio::piped())
                    .stderr(Stdio::piped())
                    .spawn()
                    .unwrap()
            })
            .collect();
        for child in children {
            let out = child.wait_with_output().unwrap();
            assert!(
                out.status.success(),
                "round {round}: a process failed: {}",
                String::from_utf8_lossy(&out.stderr)
            );
        }
        let read = crate::support::ok_json_in(dir.path(), &["state", "read", "--skill", "career"]);
        let items = read["data"]["log"].as_array().map_or(0, Vec::len);
        assert_eq!(items, PROCESSES, "round {round}: writes were lost: {read}");
    }
}

#[test]
fn many_processes_opening_an_outdated_data_dir_at_once_all_succeed() {
    for round in 0..ROUNDS / 2 {
        let dir = tempfile::tempdir().unwrap();
        crate::support::ok_json_in(dir.path(), &["db", "info"]);
        crate::support::make_outdated(dir.path(), true);
        let children: Vec<_> = (0..PROCESSES)
            .map(|n| {
                let entry = format!(r#"{{"n": {n}}}"#);
                vibe_std()
                    .arg("--data-dir")
                    .arg(dir.path())
                    .args(["--json", "state", "append", "--skill", "career", "--path", "log"])
                    .args(["--entry", &entry])
                    .stdout(Stdio::piped())
                    .stderr(Stdio::piped())
                    .spawn()
                    .unwrap()
            })
            .collect();
        let mut upgrades = 0;
        for child in children {
            let out = child.wait_with_output().unwrap();
            let stderr = String::from_utf8_lossy(&out.stderr);
            assert!(out.status.success(), "round {round}: a process failed: {stderr}");
            upgrades += stderr.matches("note: upgraded").count();
        }
        assert_eq!(upgrades, 1, "round {round}: the file was upgraded {upgrades} times");
        let backups = std::fs::read_dir(dir.path())
            .unwrap()
            .flatten()
            .filter(|e| e.file_name().to_string_lossy().starts_with("vibe.db.backup-"))
            .count();
        assert_eq!(backups, 1, "round {round}: one backup before the one upgrade");
        let read = crate::support::ok_json_in(dir.path(), &["state", "read", "--skill", "career"]);
        let items = read["data"]["log"].as_array().map_or(0, Vec::len);
        assert_eq!(items, PROCESSES, "round {round}: writes were lost: {read}");
        let conn = crate::support::db(dir.path());
        let version: i64 = conn.query_row("PRAGMA user_version", [], |r| r.get(0)).unwrap();
        assert_eq!(version, vibe_store::latest_version(), "round {round}");
        let title: String = conn
            .query_row("SELECT title FROM conversations WHERE id = 'old-conversation'", [], |r| {
                r.get(0)
            })
            .unwrap();
        assert_eq!(title, "旧的对话", "round {round}: the old data survived the upgrade");
    }
}

#[test]
fn db_check_passes_a_sound_file_and_a_damaged_one_is_refused_untouched() {
    let dir = tempfile::tempdir().unwrap();
    let out = crate::support::ok_json_in(dir.path(), &["db", "check"]);
    assert_eq!(out["status"], "ok", "{out}");
    let db = std::fs::read_dir(dir.path())
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .find(|p| p.extension().is_some_and(|e| e == "db"))
        .unwrap();
    std::fs::write(&db, b"").unwrap();
    for args in [&["db", "check"][..], &["state", "read", "--skill", "career"]] {
        let out = crate::support::run(dir.path(), args);
        assert!(!out.status.success(), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("is damaged: the file is empty"), "{args:?}: {err}");
        assert_eq!(std::fs::metadata(&db).unwrap().len(), 0, "the file was replaced");
    }
}
