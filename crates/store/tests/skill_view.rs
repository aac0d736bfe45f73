//! A skill's view of the profile: only the declared fields and the skill's own state, and every
//! read after a write — of this connection or another process's — sees the write.

use serde_json::json;
use vibe_store::{LOCAL_USER as U, Store};

const BAZI: &[&str] = &["birth_info", "skills.bazi"];
const LIFECOACH: &[&str] = &["extracted"];

#[test]
fn views_hold_only_declared_fields_and_the_skills_own_state() {
    let store = Store::open_in_memory().unwrap();
    store.set_path(U, "birth_info.date", json!("1990-05-17")).unwrap();
    store.set_path(U, "account.display_name", json!("Ann")).unwrap();
    store.write_state(U, "bazi", "chart", json!({"day": "丙午"})).unwrap();
    store.write_state(U, "career", "cv", json!({"title": "x"})).unwrap();
    let view = store.skill_view(U, "bazi", BAZI).unwrap();
    assert_eq!(view.profile["birth_info"]["date"], "1990-05-17");
    assert!(view.profile.get("account").is_none(), "undeclared fields stay out");
    assert_eq!(view.state["chart"]["day"], "丙午");
    assert!(view.state.get("cv").is_none(), "another skill's state stays out");
    assert_eq!(store.skill_view(U, "bazi", BAZI).unwrap(), view);
}

#[test]
fn a_read_after_a_write_sees_the_write() {
    let store = Store::open_in_memory().unwrap();
    store.skill_view(U, "bazi", BAZI).unwrap();
    store.skill_view(U, "lifecoach", LIFECOACH).unwrap();
    store.write_state(U, "lifecoach", "goals", json!({"a": 1})).unwrap();
    assert_eq!(store.skill_view(U, "lifecoach", LIFECOACH).unwrap().state["goals"]["a"], 1);
    store.set_path(U, "birth_info.time", json!("08:30")).unwrap();
    assert_eq!(store.skill_view(U, "bazi", BAZI).unwrap().profile["birth_info"]["time"], "08:30");
    store.set_path(U, "extracted.mood", json!("calm")).unwrap();
    let view = store.skill_view(U, "lifecoach", LIFECOACH).unwrap();
    assert_eq!(view.profile["extracted"]["mood"], "calm");
    store.import_profile(U, json!({"birth_info": {"date": "1991-01-01"}})).unwrap();
    let view = store.skill_view(U, "bazi", BAZI).unwrap();
    assert_eq!(view.profile["birth_info"]["date"], "1991-01-01", "an import is seen at once");
}

#[test]
fn another_processs_write_is_seen_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("vibe.db");
    let app = Store::open(&path).unwrap();
    app.skill_view(U, "bazi", BAZI).unwrap();
    let cli = Store::open(&path).unwrap();
    cli.write_state(U, "bazi", "chart", json!({"day": "甲子"})).unwrap();
    let view = app.skill_view(U, "bazi", BAZI).unwrap();
    assert_eq!(view.state["chart"]["day"], "甲子", "a stale view must not be served");
}
