//! A data folder made by v0.1.0's `vibe` (tests/fixtures/v0.1.0,
//! docs/packaging.md#the-v010-fixture) read by today's `vibe --json` with the fixture's
//! passphrase: the first command says it upgraded the database and where the old file is kept;
//! every conversation and message, the journal, goals, the protocol run's answers, memory, the
//! profile and the recorded runs are what v0.1.0 showed (its manifest, `expected.json`).

use std::path::Path;

use serde_json::{Value, json};
use vibe_test_support::v010_recorded_message;

use crate::support::{in_dir, ok_json};

/// `vibe --data-dir DIR` unlocked with the fixture's passphrase.
fn vibe_in(dir: &Path, manifest: &Value) -> assert_cmd::Command {
    let mut cmd = in_dir(dir);
    cmd.env("VIBE_DB_PASSPHRASE", manifest["passphrase"].as_str().unwrap());
    cmd
}

fn json_in(dir: &Path, manifest: &Value, args: &[&str]) -> Value {
    ok_json(&mut vibe_in(dir, manifest), args)
}

#[test]
fn vibe_reads_everything_of_a_v010_data_folder_after_upgrading_it() {
    let manifest = vibe_test_support::v010_manifest();
    let dir = tempfile::tempdir().unwrap();
    vibe_test_support::copy_v010_data(dir.path());

    // The first command upgrades the database and says so, naming the backup it took first.
    let out =
        vibe_in(dir.path(), &manifest).args(["--json", "conversations", "list"]).output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    let from = manifest["schema_version"].as_i64().unwrap();
    let told = format!("from schema v{from} to v{}", vibe_store::latest_version());
    assert!(stderr.contains("note: upgraded") && stderr.contains(&told), "{stderr}");
    let backups = vibe_store::list_backups(&dir.path().join("vibe.db"));
    assert_eq!(backups.len(), 1, "{backups:?}");
    assert!(stderr.contains(&format!("the old file is kept as {}", backups[0].display())));
    let listed: Value = serde_json::from_slice(&out.stdout).unwrap();

    // Every conversation and every message.
    let conversations = manifest["conversations"].as_array().unwrap();
    assert_eq!(listed["conversations"].as_array().unwrap().len(), conversations.len());
    for conversation in conversations {
        let id = conversation["id"].as_str().unwrap();
        let shown = json_in(dir.path(), &manifest, &["conversations", "show", id]);
        assert_eq!(shown["conversation"]["title"], conversation["title"]);
        let now: Vec<Value> =
            shown["messages"].as_array().unwrap().iter().map(v010_recorded_message).collect();
        assert_eq!(&Value::Array(now), &conversation["messages"], "conversation {id}");
    }

    // The journal: each v0.1.0 entry listed by `vibe journal`, and stored as it was.
    let journal = json_in(dir.path(), &manifest, &["journal", "list"]);
    for entry in manifest["journal"].as_array().unwrap() {
        let listed = journal["entries"].as_array().unwrap();
        let shown = listed.iter().find(|e| e["id"] == entry["_created_at"]);
        let shown = shown.unwrap_or_else(|| panic!("{entry} is not in {journal}"));
        assert_eq!(shown["date"], entry["date"]);
        let text = shown["text"].as_str().unwrap();
        assert!(text.contains(entry["highlights"][0].as_str().unwrap()), "{text:?}");
    }
    let state = json_in(dir.path(), &manifest, &["state", "read", "--skill", "lifecoach"]);
    for section in ["journal", "goals", "current"] {
        assert_eq!(state["data"][section], manifest[section], "lifecoach.{section}");
    }

    // The protocol run and its answers.
    let status = json_in(dir.path(), &manifest, &["protocol", "status"]);
    for run in manifest["protocol_runs"].as_array().unwrap() {
        let now = status["runs"].as_array().unwrap().iter().find(|r| r["id"] == run["id"]);
        let now = now.unwrap_or_else(|| panic!("run {} is gone: {status}", run["id"]));
        for field in ["protocol_id", "status", "step", "data"] {
            assert_eq!(now[field], run[field], "run {}: {field}", run["id"]);
        }
    }

    // Memory and the profile.
    let memory = json_in(dir.path(), &manifest, &["memory", "list"]);
    let ids = |items: &Value| {
        let mut v: Vec<String> = items
            .as_array()
            .unwrap()
            .iter()
            .map(|i| format!("{} {} {}", i["id"], i["kind"], i["text"]))
            .collect();
        v.sort();
        v
    };
    assert_eq!(ids(&memory["items"]), ids(&manifest["memory"]));
    let profile = json_in(dir.path(), &manifest, &["profile", "show"]);
    let profile = profile.get("profile").unwrap_or(&profile);
    assert_eq!(profile["account"]["display_name"], manifest["profile"]["display_name"]);
    assert_eq!(profile["birth_info"], manifest["profile"]["birth_info"]);

    // The recorded runs of the conversations' turns: each still opens.
    let mut runs: Vec<&str> = conversations
        .iter()
        .flat_map(|c| c["messages"].as_array().unwrap())
        .filter_map(|m| m["run_id"].as_str())
        .collect();
    runs.dedup();
    assert!(!runs.is_empty());
    for run in runs {
        let shown = json_in(dir.path(), &manifest, &["runs", "show", run]);
        assert!(shown.to_string().contains(run), "{shown}");
    }

    // Nothing more to migrate the second time.
    let out = vibe_in(dir.path(), &manifest).args(["--json", "db", "info"]).output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success() && !stderr.contains("upgraded"), "{stderr}");
    let info: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(info["schema_version"], json!(vibe_store::latest_version()), "{info}");
    assert_eq!(vibe_store::list_backups(&dir.path().join("vibe.db")).len(), 1);
}
