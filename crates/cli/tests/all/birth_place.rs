//! `vibe profile set birth_info` with a birth place, as a person uses it: the place is looked
//! up offline and its longitude and time zone stored, ambiguous or unknown places are refused
//! with what to do, and the 子时 preference changes the day pillar.

#![allow(clippy::unwrap_used)] // test helpers outside #[test] fns unwrap too

use std::path::Path;

use serde_json::{Value, json};

use crate::support::{ok_json_in, run};

fn refused(dir: &Path, args: &[&str]) -> String {
    let out = run(dir, args);
    assert!(!out.status.success(), "{args:?} should fail");
    String::from_utf8_lossy(&out.stderr).trim().to_string()
}

fn set_birth(dir: &Path, birth: Value) -> Value {
    ok_json_in(dir, &["profile", "set", "birth_info", &birth.to_string()])
}

fn hour_branch(dir: &Path) -> String {
    let chart = ok_json_in(dir, &["skills", "compute", "bazi"]);
    chart["chart"]["branches"]["hour"].as_str().unwrap().to_string()
}

#[test]
fn a_birth_place_stores_its_longitude_and_zone() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let out = set_birth(d, json!({"date": "2000-05-17", "time": "12:00", "place": "Hangzhou"}));
    let stored = ok_json_in(d, &["profile", "show"])["birth_info"].clone();
    assert_eq!(out["birth_info"], stored);
    assert_eq!(stored["timezone"], "Asia/Shanghai");
    assert_eq!(stored["place_id"], "cn330100");
    assert!((stored["longitude"].as_f64().unwrap() - 120.16).abs() < 0.05, "{stored}");
    let chart = ok_json_in(d, &["skills", "compute", "bazi"]);
    assert_eq!(chart["chart"]["reckoning"]["basis"], "true_solar_time");

    let text = run(d, &["profile", "set", "birth_info.place", "\"杭州\""]);
    let text = String::from_utf8_lossy(&text.stdout);
    assert!(text.contains("birth place 杭州 (place_id cn330100): longitude 120.161"), "{text}");
}

#[test]
fn kashgar_and_urumqi_on_beijing_time_shift_the_hour_pillar() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // 12:00 Beijing time: 午 at Beijing (116.4°E); true solar time is about 09:08 at Kashgar
    // (76.0°E) and about 09:54 at Ürümqi (87.6°E), both 巳.
    set_birth(d, json!({"date": "2000-05-17", "time": "12:00", "place": "北京"}));
    assert_eq!(hour_branch(d), "午");
    ok_json_in(d, &["profile", "set", "birth_info.place", "\"Kashgar\""]);
    assert_eq!(hour_branch(d), "巳");
    ok_json_in(d, &["profile", "set", "birth_info.place", "\"乌鲁木齐\""]);
    assert_eq!(hour_branch(d), "巳");
    let chart = ok_json_in(d, &["skills", "compute", "bazi"]);
    let shift = chart["chart"]["reckoning"]["offset_from_clock_minutes"].as_i64().unwrap();
    assert!((-130..=-120).contains(&shift), "Ürümqi is about two hours behind its clock: {shift}");
}

#[test]
fn an_ambiguous_place_lists_candidates_and_changes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    set_birth(d, json!({"date": "2000-05-17", "time": "12:00", "place": "Hangzhou"}));
    let before = ok_json_in(d, &["profile", "show"]);
    let err = refused(d, &["profile", "set", "birth_info.place", "\"Suzhou\""]);
    assert!(err.starts_with("error: birth_info.place: \"Suzhou\" matches 3 places"), "{err}");
    assert!(err.contains("\"place\": \"Suzhou, Jiangsu\""), "{err}");
    assert!(
        err.contains(
            "苏州市 Suzhou (江苏省 Jiangsu, China), Asia/Shanghai, \"place_id\": \"cn320500\""
        ),
        "{err}"
    );
    assert!(err.contains("宿州市 Suzhou (安徽省 Anhui, China)"), "{err}");
    assert_eq!(ok_json_in(d, &["profile", "show"]), before);

    let picked = ok_json_in(d, &["profile", "set", "birth_info.place_id", "\"cn341300\""]);
    assert_eq!(picked["birth_info"]["place_id"], "cn341300");
    let qualified = ok_json_in(d, &["profile", "set", "birth_info.place", "\"Suzhou, Jiangsu\""]);
    assert_eq!(qualified["birth_info"]["place_id"], "cn320500");
}

#[test]
fn an_unknown_place_says_how_to_give_the_longitude() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let birth = json!({"date": "2000-05-17", "place": "Qwertzville"});
    let err = refused(d, &["profile", "set", "birth_info", &birth.to_string()]);
    assert!(err.starts_with("error: birth_info.place: no place named \"Qwertzville\""), "{err}");
    assert!(err.contains("\"longitude\": degrees east"), "{err}");
    assert!(
        ok_json_in(d, &["profile", "show"])["birth_info"].as_object().is_none_or(|b| b.is_empty())
    );
    let by_hand = json!({"date": "2000-05-17", "place": "Qwertzville", "longitude": 80.0, "timezone": "Asia/Shanghai"});
    assert_eq!(set_birth(d, by_hand.clone())["birth_info"], by_hand);
}

#[test]
fn the_zi_hour_preference_moves_the_late_zi_hour_to_its_own_day() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    set_birth(d, json!({"date": "1988-02-15", "time": "23:30", "timezone": "Asia/Shanghai"}));
    let day =
        |d: &Path| ok_json_in(d, &["skills", "compute", "bazi"])["chart"]["pillars"]["day"].clone();
    assert_eq!(day(d), "辛丑");
    ok_json_in(d, &["profile", "set", "preferences.zi_hour_day_change", "\"24:00\""]);
    assert_eq!(day(d), "庚子");
    let err = refused(d, &["profile", "set", "preferences.zi_hour_day_change", "\"0:00am\""]);
    assert!(err.starts_with("error: preferences.zi_hour_day_change:"), "{err}");
    ok_json_in(d, &["profile", "set", "preferences.zi_hour_day_change", "\"23:00\""]);
    assert_eq!(day(d), "辛丑");
}

#[test]
fn a_chinese_name_shared_by_two_cities_lists_both_with_their_countries() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let err = refused(
        d,
        &["profile", "set", "birth_info", r#"{"date": "2000-05-17", "place": "奥克兰"}"#],
    );
    assert!(err.starts_with("error: birth_info.place: \"奥克兰\" matches 2 places"), "{err}");
    assert!(err.contains("(e.g. \"place\": \"奥克兰, 新西兰\")"), "{err}");
    assert!(err.contains("\"place_id\": \"g2193733\""), "{err}");
    assert!(
        err.contains(
            "奥克兰 Auckland (Auckland, New Zealand), Pacific/Auckland, \"place_id\": \"g2193733\""
        ),
        "{err}"
    );
    assert!(
        err.contains("奥克兰 Oakland (California, United States), America/Los_Angeles, \"place_id\": \"g5378538\""),
        "{err}"
    );
    // Either way of picking stores the place chosen.
    let by_country = set_birth(d, json!({"date": "2000-05-17", "place": "奥克兰, 新西兰"}));
    assert_eq!(by_country["birth_info"]["place_id"], "g2193733");
    let by_id = ok_json_in(d, &["profile", "set", "birth_info.place_id", "\"g5378538\""]);
    assert_eq!(by_id["birth_info"]["timezone"], "America/Los_Angeles");
}

#[test]
fn a_unique_place_is_confirmed_back_with_its_country() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let text =
        run(d, &["profile", "set", "birth_info", r#"{"date": "2000-05-17", "place": "Auckland"}"#]);
    let text = String::from_utf8_lossy(&text.stdout).to_string();
    assert!(text.contains("place: Auckland, New Zealand (奥克兰，新西兰)"), "{text}");
    let out = set_birth(d, json!({"date": "2000-05-17", "place": "纽约"}));
    assert_eq!(out["place"]["label_en"], "New York City, United States");
    assert_eq!(out["place"]["label_zh"], "纽约，美国");
    assert_eq!(out["birth_info"]["timezone"], "America/New_York");
    assert!(out.get("zone_warning").is_none(), "{out}");
}

#[test]
fn a_zone_that_is_not_the_places_is_warned_about_with_the_command_to_switch() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let birth = r#"{"date": "2000-05-17", "place": "Auckland", "timezone": "Asia/Shanghai"}"#;
    let out = run(d, &["profile", "set", "birth_info", birth]);
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    assert!(
        text.contains("warning: birth_info.timezone: Asia/Shanghai is not the zone of Auckland, New Zealand (Pacific/Auckland)"),
        "{text}"
    );
    assert!(text.contains("vibe profile set birth_info.timezone '\"Pacific/Auckland\"'"), "{text}");
    // Stored as given: a record may be in another clock.
    assert_eq!(ok_json_in(d, &["profile", "show"])["birth_info"]["timezone"], "Asia/Shanghai");
    let json = ok_json_in(d, &["profile", "set", "birth_info.timezone", "\"Pacific/Auckland\""]);
    assert!(json.get("zone_warning").is_none(), "{json}");
}
