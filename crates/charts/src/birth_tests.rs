use chrono::NaiveTime;
use serde_json::json;

use super::*;

fn err(value: Value) -> ChartError {
    BirthInfo::from_json(&value).expect_err("should be rejected")
}

#[test]
fn full_birth_info_parses() {
    let info = BirthInfo::from_json(&json!({
        "date": "1990-05-17", "time": "08:30", "place": "Beijing",
        "timezone": "Asia/Shanghai", "longitude": 116.4
    }))
    .unwrap();
    assert_eq!(info.date.to_string(), "1990-05-17");
    assert_eq!(info.time, NaiveTime::from_hms_opt(8, 30, 0));
    assert_eq!(info.tz, chrono_tz::Asia::Shanghai);
    assert_eq!(info.longitude, Some(116.4));
}

#[test]
fn time_may_be_absent_null_or_empty() {
    for time in [json!(null), json!("")] {
        let info = BirthInfo::from_json(
            &json!({"date": "1990-05-17", "time": time, "timezone": "Europe/Paris"}),
        )
        .unwrap();
        assert_eq!(info.time, None);
    }
    let info =
        BirthInfo::from_json(&json!({"date": "1990-05-17", "timezone": "Europe/Paris"})).unwrap();
    assert_eq!(info.time, None);
}

#[test]
fn errors_name_the_field() {
    let e = err(json!({"time": "08:30", "timezone": "Asia/Shanghai"}));
    assert_eq!(e.field(), Some("birth_info.date"));
    assert!(e.to_string().starts_with("birth_info.date is missing"), "{e}");

    let e = err(json!({"date": "1990-05-17"}));
    assert_eq!(e.field(), Some("birth_info.timezone"));

    let e = err(json!({"date": "1990-05-17", "timezone": "Mars/Base"}));
    assert_eq!(
        e.to_string(),
        "birth_info.timezone: \"Mars/Base\" is not an IANA time zone name (e.g. \"Asia/Shanghai\")"
    );

    let e = err(json!({"date": "1990-13-01", "timezone": "Asia/Shanghai"}));
    assert_eq!(e.field(), Some("birth_info.date"));
    assert!(e.to_string().contains("\"1990-13-01\""), "{e}");

    let e = err(json!({"date": "17/05/1990", "timezone": "Asia/Shanghai"}));
    assert_eq!(e.field(), Some("birth_info.date"));

    let e = err(json!({"date": "1990-05-17", "time": "25:10", "timezone": "Asia/Shanghai"}));
    assert_eq!(e.field(), Some("birth_info.time"));

    let e = err(json!({"date": "1990-05-17", "time": 830, "timezone": "Asia/Shanghai"}));
    assert_eq!(e.field(), Some("birth_info.time"));
    assert!(e.to_string().contains("the number 830"), "{e}");

    let e = err(json!({"date": "1990-05-17", "timezone": "Asia/Shanghai", "longitude": 200}));
    assert_eq!(e.field(), Some("birth_info.longitude"));

    let e = err(json!({"date": "1990-05-17", "timezone": "Asia/Shanghai", "place": 3}));
    assert_eq!(e.field(), Some("birth_info.place"));

    let e = err(json!("1990-05-17"));
    assert_eq!(e.field(), Some("birth_info"));
}

#[test]
fn years_outside_the_supported_range_are_refused() {
    let e = err(json!({"date": "1700-01-01", "timezone": "Asia/Shanghai"}));
    assert_eq!(e.field(), Some("birth_info.date"));
    assert!(e.to_string().contains("1800-2200"), "{e}");
}

#[test]
fn dst_gap_is_an_error_and_overlap_takes_the_first() {
    let info = BirthInfo::from_json(&json!({"date": "2021-03-14", "timezone": "America/New_York"}))
        .unwrap();
    let e = info.resolve(NaiveTime::from_hms_opt(2, 30, 0).unwrap()).unwrap_err();
    assert_eq!(e.field(), Some("birth_info.time"));
    assert!(e.to_string().contains("does not exist"), "{e}");

    let info = BirthInfo::from_json(&json!({"date": "2021-11-07", "timezone": "America/New_York"}))
        .unwrap();
    let m = info.resolve(NaiveTime::from_hms_opt(1, 30, 0).unwrap()).unwrap();
    assert!(m.ambiguous);
    // The first 01:30 that night was still daylight time (UTC-4).
    assert_eq!(m.utc.to_rfc3339(), "2021-11-07T05:30:00+00:00");
    assert_eq!(m.dst_offset_secs, 3600);
    assert_eq!(m.standard_offset_secs, -5 * 3600);
}

#[test]
fn china_daylight_saving_1988_is_known() {
    // China observed daylight saving 1986-1991; 1988-07-01 10:00 on the clock was 01:00 UTC.
    let info =
        BirthInfo::from_json(&json!({"date": "1988-07-01", "timezone": "Asia/Shanghai"})).unwrap();
    let m = info.resolve(NaiveTime::from_hms_opt(10, 0, 0).unwrap()).unwrap();
    assert_eq!(m.utc.to_rfc3339(), "1988-07-01T01:00:00+00:00");
    assert_eq!(m.dst_offset_secs, 3600);
}
