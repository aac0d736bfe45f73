//! `ensure_chart` against a real SQLite store: computes, stores at `skills.<skill>.chart`,
//! reuses while `birth_info` is unchanged, recomputes when it changes or when forced.

#![allow(clippy::unwrap_used)] // test helpers outside #[test] fns unwrap too

use serde_json::{Value, json};
use vibe_agent::compute::ensure_chart;
use vibe_core::CoreError;
use vibe_store::{LOCAL_USER, Store};

fn store_with_birth(birth: Value) -> Store {
    let store = Store::open_in_memory().unwrap();
    store.set_path(LOCAL_USER, "birth_info", birth).unwrap();
    store
}

fn mao() -> Value {
    json!({"date": "1893-12-26", "time": "08:00", "place": "韶山", "timezone": "Asia/Shanghai"})
}

#[test]
fn computes_and_stores_the_chart_under_the_skill() {
    let store = store_with_birth(mao());
    let out = ensure_chart(&store, LOCAL_USER, "bazi", "bazi", false).unwrap();
    assert!(out.recomputed);
    assert_eq!(out.chart["pillars"]["year"], "癸巳");
    let profile = store.profile(LOCAL_USER).unwrap();
    assert_eq!(profile["skills"]["bazi"]["chart"], out.chart);
    assert!(profile["skills"]["bazi"]["_meta"]["updated_at"].is_string());
}

#[test]
fn reuses_the_stored_chart_until_birth_info_changes() {
    let store = store_with_birth(mao());
    let first = ensure_chart(&store, LOCAL_USER, "bazi", "bazi", false).unwrap();
    let second = ensure_chart(&store, LOCAL_USER, "bazi", "bazi", false).unwrap();
    assert!(!second.recomputed);
    assert_eq!(first.chart, second.chart);

    // Same content with keys in another order is the same birth_info.
    store
        .set_path(
            LOCAL_USER,
            "birth_info",
            json!({"timezone": "Asia/Shanghai", "place": "韶山", "time": "08:00", "date": "1893-12-26"}),
        )
        .unwrap();
    assert!(!ensure_chart(&store, LOCAL_USER, "bazi", "bazi", false).unwrap().recomputed);

    store.set_path(LOCAL_USER, "birth_info.time", json!("10:00")).unwrap();
    let third = ensure_chart(&store, LOCAL_USER, "bazi", "bazi", false).unwrap();
    assert!(third.recomputed);
    assert_eq!(third.chart["pillars"]["hour"], "乙巳");
    assert_eq!(third.chart["input"]["time"], "10:00");
}

#[test]
fn force_recomputes() {
    let store = store_with_birth(mao());
    ensure_chart(&store, LOCAL_USER, "bazi", "bazi", false).unwrap();
    assert!(ensure_chart(&store, LOCAL_USER, "bazi", "bazi", true).unwrap().recomputed);
}

#[test]
fn a_stale_or_foreign_chart_is_replaced() {
    let store = store_with_birth(mao());
    // A chart from an older convention version.
    let mut old = vibe_charts::compute("bazi", &mao()).unwrap();
    old["version"] = json!(0);
    store.set_path(LOCAL_USER, "skills.bazi.chart", old).unwrap();
    assert!(ensure_chart(&store, LOCAL_USER, "bazi", "bazi", false).unwrap().recomputed);
    // A chart of another type stored under the skill (e.g. the skill's compute_type changed).
    let zodiac = ensure_chart(&store, LOCAL_USER, "bazi", "zodiac", false).unwrap();
    assert!(zodiac.recomputed);
    assert_eq!(zodiac.chart["sun_sign"], "capricorn");
}

#[test]
fn skills_keep_their_own_charts() {
    let store = store_with_birth(mao());
    ensure_chart(&store, LOCAL_USER, "bazi", "bazi", false).unwrap();
    ensure_chart(&store, LOCAL_USER, "zodiac", "zodiac", false).unwrap();
    let profile = store.profile(LOCAL_USER).unwrap();
    assert_eq!(profile["skills"]["bazi"]["chart"]["compute_type"], "bazi");
    assert_eq!(profile["skills"]["zodiac"]["chart"]["compute_type"], "zodiac");
}

#[test]
fn missing_birth_info_names_the_field() {
    let store = Store::open_in_memory().unwrap();
    let e = ensure_chart(&store, LOCAL_USER, "bazi", "bazi", false).unwrap_err();
    assert!(e.to_string().starts_with("birth_info is missing"), "{e}");
    assert_eq!(e.kind().as_str(), "invalid_input");
}

#[test]
fn malformed_birth_info_names_the_field_and_stores_nothing() {
    let store = store_with_birth(json!({"date": "1990-05-17", "timezone": "Mars/Base"}));
    let e = ensure_chart(&store, LOCAL_USER, "zodiac", "zodiac", false).unwrap_err();
    assert!(matches!(e, CoreError::Chart(_)));
    assert_eq!(
        e.to_string(),
        "birth_info.timezone: \"Mars/Base\" is not an IANA time zone name (e.g. \"Asia/Shanghai\")"
    );
    let profile = store.profile(LOCAL_USER).unwrap();
    assert!(profile["skills"].get("zodiac").is_none());
}

#[test]
fn unknown_compute_type_is_reported() {
    let store = store_with_birth(mao());
    let e = ensure_chart(&store, LOCAL_USER, "ziwei", "ziwei", false).unwrap_err();
    assert_eq!(e.kind().as_str(), "unknown_compute_type");
}
