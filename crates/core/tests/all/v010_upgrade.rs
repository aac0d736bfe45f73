//! A data folder made by v0.1.0 (tests/fixtures/v0.1.0, docs/packaging.md#the-v010-fixture)
//! opened by today's app with its passphrase: the database is backed up, then migrated, and
//! everything v0.1.0 showed of it — every conversation and message, the journal, goals, the
//! protocol run's answers, what is remembered, the profile — is what the app's commands show
//! now (the manifest `expected.json` is v0.1.0's own `vibe --json` output).

use std::path::Path;
use std::sync::Arc;

use serde_json::{Value, json};
use vibe_core::app::{App, AppPaths, EphemeralKeys, Overrides};
use vibe_store::{latest_version, list_backups};
use vibe_test_support::v010_recorded_message;
use vibe_wire::command::{
    GetConversationRequest, JournalListRequest, ListMemoryRequest, ListProtocolRunsRequest,
    SkillStateRequest,
};

fn passphrase(manifest: &Value) -> String {
    manifest["passphrase"].as_str().unwrap().to_string()
}

fn open(dir: &Path, manifest: &Value) -> App {
    let overrides = Overrides {
        db_passphrase: Some(zeroize::Zeroizing::new(passphrase(manifest))),
        ..Overrides::default()
    };
    App::open_with_keys(AppPaths::new(dir), overrides, Arc::new(EphemeralKeys::default())).unwrap()
}

fn to_json(value: impl serde::Serialize) -> Value {
    serde_json::to_value(value).unwrap()
}

#[test]
fn a_v010_data_folder_is_backed_up_then_migrated_with_nothing_lost() {
    let manifest = vibe_test_support::v010_manifest();
    let dir = tempfile::tempdir().unwrap();
    vibe_test_support::copy_v010_data(dir.path());
    let db = dir.path().join("vibe.db");
    assert!(list_backups(&db).is_empty(), "the fixture holds no backup of its own");

    let app = open(dir.path(), &manifest);

    // The upgrade, told with the backup it took first.
    let from = manifest["schema_version"].as_i64().unwrap();
    let upgrade = app.upgraded().expect("v0.1.0's schema is upgraded");
    assert_eq!((upgrade.from, upgrade.to), (from, latest_version()));
    let backup = upgrade.backup.clone().expect("a backup before the migration");
    assert_eq!(list_backups(&db), std::slice::from_ref(&backup));
    assert!(backup.to_string_lossy().ends_with(&format!("-v{from}")), "{}", backup.display());
    // The backup is v0.1.0's file as it was: its schema, its messages, the same passphrase.
    vibe_store::sqlite_ready();
    let old = rusqlite::Connection::open(&backup).unwrap();
    old.pragma_update(None, "key", passphrase(&manifest)).unwrap();
    let version: i64 = old.query_row("PRAGMA user_version", [], |r| r.get(0)).unwrap();
    assert_eq!(version, from);
    let messages: i64 = old.query_row("SELECT count(*) FROM messages", [], |r| r.get(0)).unwrap();
    let recorded: usize = manifest["conversations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["messages"].as_array().unwrap().len())
        .sum();
    assert_eq!(messages as usize, recorded);

    // Every conversation, and every message of each, as v0.1.0 showed them.
    let listed = to_json(app.list_conversations().unwrap());
    for conversation in manifest["conversations"].as_array().unwrap() {
        let id = conversation["id"].as_str().unwrap();
        let summary = listed["conversations"].as_array().unwrap().iter().find(|c| c["id"] == id);
        assert_eq!(summary.map(|s| &s["title"]), Some(&conversation["title"]), "{listed}");
        let detail =
            to_json(app.get_conversation(&GetConversationRequest { id: id.into() }).unwrap());
        let now: Vec<Value> =
            detail["messages"].as_array().unwrap().iter().map(v010_recorded_message).collect();
        assert_eq!(&Value::Array(now), &conversation["messages"], "conversation {id}");
    }
    assert_eq!(
        listed["conversations"].as_array().unwrap().len(),
        manifest["conversations"].as_array().unwrap().len()
    );

    // The life coach's state as stored: the journal (v0.1.0's fields), goals, current focus.
    let state = to_json(
        app.skill_state(&SkillStateRequest { skill: "lifecoach".into(), section: None }).unwrap(),
    );
    for section in ["journal", "goals", "current"] {
        assert_eq!(state["state"][section], manifest[section], "lifecoach.{section}");
    }
    // The journal shows each v0.1.0 entry: the coach's, its ten-point mood on today's five.
    let journal = to_json(app.journal_list(&JournalListRequest::default()).unwrap());
    for entry in manifest["journal"].as_array().unwrap() {
        let id = entry["_created_at"].as_str().unwrap();
        let shown = journal["entries"].as_array().unwrap().iter().find(|e| e["id"] == id);
        let shown = shown.unwrap_or_else(|| panic!("journal entry {id} is not shown: {journal}"));
        assert_eq!(shown["date"], entry["date"]);
        assert_eq!(shown["source"], "coach");
        let mood = entry["mood"].as_u64().unwrap();
        assert_eq!(shown["mood"], json!(mood.div_ceil(2)), "{shown}");
        let text = shown["text"].as_str().unwrap();
        for key in ["highlights", "lessons", "gratitude"] {
            for line in entry[key].as_array().unwrap() {
                assert!(text.contains(line.as_str().unwrap()), "{line} not in {text:?}");
            }
        }
        assert!(text.contains(entry["tomorrow"].as_str().unwrap()), "{text:?}");
    }

    // The protocol run, on the step it waited at, with the answers of the steps before.
    let runs = to_json(app.list_protocol_runs(&ListProtocolRunsRequest::default()).unwrap());
    for run in manifest["protocol_runs"].as_array().unwrap() {
        let now = runs["runs"].as_array().unwrap().iter().find(|r| r["id"] == run["id"]);
        let now = now.unwrap_or_else(|| panic!("protocol run {} is gone: {runs}", run["id"]));
        for field in ["protocol_id", "status", "step", "data"] {
            assert_eq!(now[field], run[field], "run {}: {field}", run["id"]);
        }
    }

    // What the coach remembered.
    let memory = to_json(app.list_memory(&ListMemoryRequest::default()).unwrap());
    let mut now: Vec<Value> = memory["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| json!({"id": i["id"], "kind": i["kind"], "text": i["text"]}))
        .collect();
    let mut recorded = manifest["memory"].as_array().unwrap().clone();
    let by_id = |v: &Value| v["id"].as_str().unwrap().to_string();
    now.sort_by_key(by_id);
    recorded.sort_by_key(by_id);
    assert_eq!(now, recorded);

    // The profile.
    let profile = to_json(app.get_profile().unwrap())["profile"].clone();
    assert_eq!(profile["account"]["display_name"], manifest["profile"]["display_name"]);
    assert_eq!(profile["preferences"]["language"], manifest["profile"]["language"]);
    assert_eq!(profile["birth_info"], manifest["profile"]["birth_info"]);

    // Opened again: nothing to migrate, no second backup.
    drop(app);
    let again = open(dir.path(), &manifest);
    assert!(again.upgraded().is_none());
    assert_eq!(list_backups(&db), [backup]);
}
