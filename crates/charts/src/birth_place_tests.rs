//! Birth places resolved, and birth_info refused before storing when it cannot be right.

use serde_json::json;

use super::*;

fn err(value: Value) -> String {
    prepare_birth_info(&value).expect_err("should be refused").to_string()
}

#[test]
fn a_known_place_fills_longitude_latitude_and_zone() {
    let out =
        prepare_birth_info(&json!({"date": "1990-05-17", "time": "08:30", "place": "Hangzhou"}))
            .unwrap();
    assert_eq!(out["place"], "Hangzhou", "the person's words are kept");
    assert_eq!(out["place_id"], "cn330100");
    assert_eq!(out["timezone"], "Asia/Shanghai");
    assert!((out["longitude"].as_f64().unwrap() - 120.16).abs() < 0.05, "{out}");
    assert!((out["latitude"].as_f64().unwrap() - 30.29).abs() < 0.05, "{out}");
}

#[test]
fn a_zone_or_longitude_given_by_hand_is_kept() {
    let out = prepare_birth_info(
        &json!({"date": "1990-05-17", "place": "喀什", "timezone": "Asia/Urumqi"}),
    )
    .unwrap();
    assert_eq!(out["timezone"], "Asia/Urumqi");
    assert!((out["longitude"].as_f64().unwrap() - 75.99).abs() < 0.05, "{out}");
    let by_hand = json!({"date": "1990-05-17", "place": "my village", "longitude": 80.1, "timezone": "Asia/Shanghai"});
    assert_eq!(prepare_birth_info(&by_hand).unwrap(), by_hand);
}

#[test]
fn a_place_id_picks_one_of_an_ambiguous_name() {
    let out = prepare_birth_info(&json!({"place": "Suzhou", "place_id": "cn341300"})).unwrap();
    assert_eq!(out["place_id"], "cn341300");
    assert!((out["longitude"].as_f64().unwrap() - 116.98).abs() < 0.05, "{out}");
    let e = err(json!({"place_id": "cn999999"}));
    assert!(e.starts_with("birth_info.place_id: \"cn999999\" is not a place id"), "{e}");
}

#[test]
fn an_ambiguous_place_lists_the_candidates_and_how_to_pick() {
    let e = err(json!({"date": "1990-05-17", "place": "Suzhou"}));
    assert!(e.starts_with("birth_info.place: \"Suzhou\" matches 3 places; say which one by adding its province or country after a comma (e.g. \"place\": \"Suzhou, Jiangsu\") or by giving its \"place_id\" (e.g. \"place_id\": \"cn320500\"):"), "{e}");
    assert!(
        e.contains(
            "\n  - 苏州市 Suzhou (江苏省 Jiangsu, China), Asia/Shanghai, \"place_id\": \"cn320500\""
        ),
        "{e}"
    );
    assert!(e.contains("宿州市 Suzhou (安徽省 Anhui, China)"), "{e}");
    let picked = prepare_birth_info(&json!({"place": "Suzhou, Jiangsu"})).unwrap();
    assert_eq!(picked["place_id"], "cn320500");
}

#[test]
fn an_unknown_place_says_how_to_give_a_longitude() {
    let e = err(json!({"date": "1990-05-17", "place": "Qwertzville"}));
    assert!(e.starts_with("birth_info.place: no place named \"Qwertzville\""), "{e}");
    assert!(e.contains("\"longitude\": degrees east"), "{e}");
    let e = err(json!({"place": "Hangzhou, Jiangsu"}));
    assert!(e.contains("杭州市 Hangzhou (浙江省 Zhejiang, China)"), "{e}");
}

#[test]
fn impossible_dates_times_and_zones_are_refused_field_by_field() {
    let e = err(json!({"date": "1990-02-30"}));
    assert!(e.starts_with("birth_info.date: \"1990-02-30\" is not a valid date"), "{e}");
    let e = err(json!({"date": "1990-05-17", "time": "25:10"}));
    assert!(e.starts_with("birth_info.time: \"25:10\" is not a valid time"), "{e}");
    let e = err(json!({"timezone": "Asia/Hangzhou"}));
    assert!(
        e.starts_with("birth_info.timezone: \"Asia/Hangzhou\" is not an IANA time zone"),
        "{e}"
    );
    let e = err(json!({"date": "2021-03-14", "time": "02:30", "timezone": "America/New_York"}));
    assert!(e.contains("does not exist in America/New_York"), "{e}");
    let e = err(json!({"latitude": 123}));
    assert!(e.starts_with("birth_info.latitude:"), "{e}");
    // A birth_info given a field at a time is fine while it is incomplete.
    assert!(prepare_birth_info(&json!({"time": "08:30"})).is_ok());
}

#[test]
fn a_chinese_name_gets_a_chinese_example() {
    let e = err(json!({"place": "西安"}));
    assert!(e.contains("(e.g. \"place\": \"西安, 陕西省\")"), "{e}");
}

#[test]
fn a_zone_given_with_the_place_settles_a_name_shared_across_zones() {
    let out = prepare_birth_info(&json!({"place": "London", "timezone": "Europe/London"})).unwrap();
    assert!((out["longitude"].as_f64().unwrap() + 0.13).abs() < 0.05, "{out}");
    let out =
        prepare_birth_info(&json!({"place": "London", "timezone": "America/Toronto"})).unwrap();
    assert!((out["longitude"].as_f64().unwrap() + 81.23).abs() < 0.05, "{out}");
    let out = prepare_birth_info(&json!({"place": "London"})).unwrap();
    assert_eq!(out["timezone"], "Europe/London", "the far larger London is meant");
}

#[test]
fn a_zone_keeping_another_clock_than_the_place_is_flagged() {
    let p = prepare_birth(
        &json!({"date": "1990-05-17", "place": "Auckland", "timezone": "Asia/Shanghai"}),
    )
    .unwrap();
    assert_eq!(p.place.as_ref().unwrap().confirmation_en(), "Auckland, New Zealand");
    let m = p.zone_mismatch.expect("a mismatch");
    assert_eq!((m.given.as_str(), m.place_zone.as_str()), ("Asia/Shanghai", "Pacific/Auckland"));
    assert!(m.message.contains("set \"timezone\": \"Pacific/Auckland\""), "{}", m.message);
    // Another name for the same clock is no mismatch (Detroit keeps New York's time).
    let p = prepare_birth(
        &json!({"date": "1990-05-17", "place": "New York", "timezone": "America/Detroit"}),
    )
    .unwrap();
    assert_eq!(p.zone_mismatch, None);
    // Xinjiang time given for Kashgar is flagged: Beijing time is the official one.
    let p =
        prepare_birth(&json!({"date": "1990-05-17", "place": "喀什", "timezone": "Asia/Urumqi"}))
            .unwrap();
    assert_eq!(p.zone_mismatch.unwrap().place_zone, "Asia/Shanghai");
}
