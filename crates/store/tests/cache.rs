use std::time::Duration;

use serde_json::json;
use vibe_store::{LOCAL_USER as U, Store};

const BAZI: &[&str] = &["birth_info", "skills.bazi"];
const LIFECOACH: &[&str] = &["extracted"];
const CAREER: &[&str] = &[];

fn warm(store: &Store) {
    store.skill_view(U, "bazi", BAZI).unwrap();
    store.skill_view(U, "lifecoach", LIFECOACH).unwrap();
    store.skill_view(U, "career", CAREER).unwrap();
}

fn cached(store: &Store) -> [bool; 3] {
    [store.is_cached(U, "bazi"), store.is_cached(U, "lifecoach"), store.is_cached(U, "career")]
}

#[test]
fn views_hold_only_declared_fields_and_are_served_from_cache() {
    let store = Store::open_in_memory().unwrap();
    store.set_path(U, "birth_info.date", json!("1990-05-17")).unwrap();
    store.set_path(U, "account.display_name", json!("Ann")).unwrap();
    store.write_state(U, "bazi", "chart", json!({"day": "丙午"})).unwrap();
    let view = store.skill_view(U, "bazi", BAZI).unwrap();
    assert_eq!(view.profile["birth_info"]["date"], "1990-05-17");
    assert!(view.profile.get("account").is_none(), "undeclared fields stay out");
    assert_eq!(view.state["chart"]["day"], "丙午");
    let again = store.skill_view(U, "bazi", BAZI).unwrap();
    assert_eq!(again, view);
    let stats = store.cache_stats();
    assert_eq!((stats.hits, stats.misses), (1, 1));
}

#[test]
fn writing_one_skills_state_invalidates_only_that_skill() {
    let store = Store::open_in_memory().unwrap();
    warm(&store);
    store.write_state(U, "lifecoach", "goals", json!({"a": 1})).unwrap();
    assert_eq!(cached(&store), [true, false, true]);
    assert_eq!(store.skill_view(U, "lifecoach", LIFECOACH).unwrap().state["goals"]["a"], 1);
}

#[test]
fn writing_birth_info_invalidates_only_skills_that_declare_it() {
    let store = Store::open_in_memory().unwrap();
    warm(&store);
    store.set_path(U, "birth_info.time", json!("08:30")).unwrap();
    assert_eq!(cached(&store), [false, true, true]);
}

#[test]
fn writing_extracted_invalidates_only_skills_that_read_it() {
    let store = Store::open_in_memory().unwrap();
    warm(&store);
    store.set_path(U, "extracted.mood", json!("calm")).unwrap();
    assert_eq!(cached(&store), [true, false, true]);
}

#[test]
fn unrelated_profile_writes_invalidate_nothing_and_import_everything() {
    let store = Store::open_in_memory().unwrap();
    warm(&store);
    store.set_path(U, "preferences.language", json!("en")).unwrap();
    assert_eq!(cached(&store), [true, true, true]);
    store.append_to_list(U, "career", "applications", json!({"co": "x"}), 10).unwrap();
    assert_eq!(cached(&store), [true, true, false]);
    store.import_profile(U, json!({"account": {}})).unwrap();
    assert_eq!(cached(&store), [false, false, false]);
}

#[test]
fn entries_expire_after_the_ttl() {
    let store = Store::open_in_memory().unwrap();
    store.set_cache_ttl(Duration::ZERO);
    warm(&store);
    assert_eq!(cached(&store), [false, false, false]);
}

#[test]
fn another_process_writing_clears_the_cache() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("vibe.db");
    let app = Store::open(&path).unwrap();
    app.skill_view(U, "bazi", BAZI).unwrap();
    let cli = Store::open(&path).unwrap();
    cli.write_state(U, "bazi", "chart", json!({"day": "甲子"})).unwrap();
    let view = app.skill_view(U, "bazi", BAZI).unwrap();
    assert_eq!(view.state["chart"]["day"], "甲子", "a stale entry must not be served");
}
