use serde_json::json;
use vibe_store::LOCAL_USER as U;

use crate::temp_store;

#[test]
fn set_path_creates_parents_and_null_removes() {
    let (_d, store) = temp_store();
    store.set_path(U, "birth_info.date", json!("1990-05-17")).unwrap();
    store.set_path(U, "preferences.push_settings.daily", json!(true)).unwrap();
    let doc = store.profile(U).unwrap();
    assert_eq!(doc["birth_info"]["date"], "1990-05-17");
    assert_eq!(doc["preferences"]["push_settings"]["daily"], true);
    store.set_path(U, "birth_info.date", json!(null)).unwrap();
    assert!(store.profile(U).unwrap()["birth_info"].get("date").is_none());
}

#[test]
fn set_path_under_skills_stamps_meta() {
    let (_d, store) = temp_store();
    store.set_path(U, "skills.bazi.chart", json!({"day": "甲子"})).unwrap();
    let doc = store.profile(U).unwrap();
    assert_eq!(doc["skills"]["bazi"]["chart"]["day"], "甲子");
    assert!(doc["skills"]["bazi"]["_meta"]["updated_at"].is_string());
}

#[test]
fn set_path_refuses_bad_paths_and_changes_nothing() {
    let (_d, store) = temp_store();
    store.set_path(U, "birth_info.place", json!("Shanghai")).unwrap();
    let before = store.profile(U).unwrap();
    for (path, value, expect) in [
        ("birth_info..date", json!(1), "empty segment"),
        ("birth_info.place.city", json!("x"), "a string, not an object"),
        ("skills.Bad_Id.x", json!(1), "invalid skill id"),
        ("birth_info", json!("1990"), "must be a JSON object"),
    ] {
        let err = store.set_path(U, path, value).unwrap_err().to_string();
        assert!(err.contains(expect), "{path}: {err}");
    }
    assert_eq!(store.profile(U).unwrap(), before);
}

#[test]
fn import_migrates_legacy_shapes() {
    let (_d, store) = temp_store();
    let legacy: serde_json::Value =
        serde_json::from_str(include_str!("fixtures/legacy_profile.json")).unwrap();
    let stored = store.import_profile(U, legacy).unwrap();
    assert_eq!(stored, store.profile(U).unwrap());
    assert!(stored.get("skill_data").is_none());
    assert_eq!(stored["skills"]["bazi"]["chart"]["pillars"]["day"], "丙午");
    assert_eq!(stored["skills"]["lifecoach"]["north_star"]["vision"], "做自己真正热爱的事");
    assert_eq!(stored["skills"]["lifecoach"]["journal"].as_array().unwrap().len(), 2);
    assert_eq!(stored["skills"]["lifecoach"]["_meta"]["legacy"]["version"], 4);
    assert_eq!(stored["account"]["display_name"], "小林");
    assert_eq!(stored["custom_field"]["kept"], true);
    assert_eq!(stored["extracted"], json!({}));
}

#[test]
fn legacy_rows_are_migrated_when_the_file_is_opened() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("vibe.db");
    drop(vibe_store::Store::open(&path).unwrap());
    {
        let conn = rusqlite_conn(&path);
        conn.execute(
            "INSERT INTO profiles (user_id, doc, updated_at) VALUES ('local', ?1, 'x')",
            [include_str!("fixtures/legacy_profile.json")],
        )
        .unwrap();
    }
    let store = vibe_store::Store::open(&path).unwrap();
    let doc = store.profile(U).unwrap();
    assert!(doc.get("skill_data").is_none());
    assert_eq!(doc["skills"]["zodiac"]["chart"]["sun_sign"], "taurus");
    drop(store);
    let again = vibe_store::Store::open(&path).unwrap().profile(U).unwrap();
    assert_eq!(again, doc, "opening again changes nothing");
}

fn rusqlite_conn(path: &std::path::Path) -> rusqlite::Connection {
    rusqlite::Connection::open(path).unwrap()
}
