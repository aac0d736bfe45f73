//! `set_profile_path` against a real (in-memory) store.

use serde_json::json;
use vibe_store::LOCAL_USER as USER;

use super::*;

fn birth_info(store: &Store) -> Value {
    store.profile(USER).unwrap()["birth_info"].clone()
}

#[test]
fn a_birth_place_is_resolved_and_stored_with_its_longitude_and_zone() {
    let store = Store::open_in_memory().unwrap();
    let set = json!({"date": "1990-05-17", "time": "08:30", "place": "Hangzhou"});
    let ready = set_profile_path(&store, USER, "birth_info", set).unwrap().unwrap();
    let stored = ready.birth_info;
    assert_eq!(stored, birth_info(&store));
    assert_eq!(ready.place.unwrap().confirmation_en(), "Hangzhou, Zhejiang, China");
    assert_eq!(ready.zone_mismatch, None);
    assert_eq!(stored["timezone"], "Asia/Shanghai");
    assert_eq!(stored["place_id"], "cn330100");
    assert!((stored["longitude"].as_f64().unwrap() - 120.16).abs() < 0.05);
}

#[test]
fn a_new_place_replaces_what_the_old_one_decided() {
    let store = Store::open_in_memory().unwrap();
    let set = json!({"date": "1990-05-17", "place": "New York City"});
    set_profile_path(&store, USER, "birth_info", set).unwrap();
    assert_eq!(birth_info(&store)["timezone"], "America/New_York");
    set_profile_path(&store, USER, "birth_info.place", json!("喀什")).unwrap();
    let now = birth_info(&store);
    assert_eq!(now["timezone"], "Asia/Shanghai");
    assert_eq!(now["date"], "1990-05-17");
    assert!((now["longitude"].as_f64().unwrap() - 75.99).abs() < 0.05, "{now}");
    // A longitude typed by hand wins over the place, and stays.
    set_profile_path(&store, USER, "birth_info.longitude", json!(76.5)).unwrap();
    assert_eq!(birth_info(&store)["longitude"], 76.5);
}

#[test]
fn bad_birth_info_changes_nothing() {
    let store = Store::open_in_memory().unwrap();
    let good = json!({"date": "1990-05-17", "time": "08:30", "place": "Hangzhou"});
    set_profile_path(&store, USER, "birth_info", good).unwrap();
    let before = store.profile(USER).unwrap();
    for (path, value, field) in [
        (
            "birth_info",
            json!({"date": "1990-02-30", "timezone": "Asia/Shanghai"}),
            "birth_info.date",
        ),
        ("birth_info.time", json!("24:61"), "birth_info.time"),
        ("birth_info.timezone", json!("Asia/Hangzhou"), "birth_info.timezone"),
        ("birth_info.place", json!("Suzhou"), "birth_info.place"),
        ("birth_info.place", json!("Qwertzville"), "birth_info.place"),
        ("birth_info.date.year", json!(1990), "birth_info.date.year"),
        ("preferences.zi_hour_day_change", json!("25:00"), "preferences.zi_hour_day_change"),
        ("preferences", json!({"zi_hour_day_change": 23}), "preferences.zi_hour_day_change"),
    ] {
        let e = set_profile_path(&store, USER, path, value).unwrap_err();
        match &e {
            CoreError::Chart(c) => assert_eq!(c.field(), Some(field), "{e}"),
            other => panic!("{path}: {other}"),
        }
        assert_eq!(store.profile(USER).unwrap(), before, "{path} changed the profile");
    }
}

#[test]
fn other_paths_are_stored_as_given() {
    let store = Store::open_in_memory().unwrap();
    assert_eq!(set_profile_path(&store, USER, "preferences.language", json!("zh")).unwrap(), None);
    set_profile_path(&store, USER, "preferences.zi_hour_day_change", json!("24:00")).unwrap();
    let prefs = &store.profile(USER).unwrap()["preferences"];
    assert_eq!(
        (prefs["language"].as_str(), prefs["zi_hour_day_change"].as_str()),
        (Some("zh"), Some("24:00"))
    );
}

#[test]
fn a_zone_that_is_not_the_places_is_stored_with_a_warning() {
    let store = Store::open_in_memory().unwrap();
    let set = json!({"date": "1990-05-17", "place": "Auckland", "timezone": "Asia/Shanghai"});
    let ready = set_profile_path(&store, USER, "birth_info", set).unwrap().unwrap();
    assert_eq!(birth_info(&store)["timezone"], "Asia/Shanghai", "a record may keep another clock");
    let warning = ready.zone_mismatch.expect("Auckland is not on Beijing time");
    assert_eq!(warning.place_zone, "Pacific/Auckland");
    // Switching to the place's zone clears the warning; the place is not looked up again.
    let ready =
        set_profile_path(&store, USER, "birth_info.timezone", json!("Pacific/Auckland")).unwrap();
    let ready = ready.unwrap();
    assert_eq!(ready.zone_mismatch, None);
    assert_eq!(birth_info(&store)["place_id"], "g2193733");
}
