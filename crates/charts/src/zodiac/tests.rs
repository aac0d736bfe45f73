use serde_json::{Value, json};

use crate::compute;

fn zodiac(birth: Value) -> Value {
    compute("zodiac", &birth).unwrap()
}

/// Degrees within a sign: `sign_index * 30 + deg + min / 60`.
fn lon(sign_index: u32, deg: u32, min: u32) -> f64 {
    f64::from(sign_index * 30 + deg) + f64::from(min) / 60.0
}

fn assert_near(value: &Value, expected: f64, tolerance: f64) {
    let got = value.as_f64().unwrap();
    let diff = (got - expected + 180.0).rem_euclid(360.0) - 180.0;
    assert!(diff.abs() < tolerance, "got {got}, expected {expected}");
}

#[test]
fn albert_einstein() {
    // Astro-Databank (Rodden rating AA, birth record): 1879-03-14 11:30 LMT, Ulm.
    // Sun 23°30' Pisces, Moon 14°32' Sagittarius. The tz database keeps Berlin's LMT for
    // Germany before 1893, 13 minutes off Ulm's, which moves the Moon by ~7'.
    let chart = zodiac(json!({
        "date": "1879-03-14", "time": "11:30", "place": "Ulm", "timezone": "Europe/Berlin"
    }));
    assert_eq!(chart["sun_sign"], "pisces");
    assert_eq!(chart["moon_sign"], "sagittarius");
    assert_eq!(chart["sun_sign_display"], json!({"zh": "双鱼座", "en": "Pisces"}));
    assert_eq!(chart["moon_sign_display"]["zh"], "射手座");
    assert_near(&chart["sun_longitude"], lon(11, 23, 30), 0.3);
    assert_near(&chart["moon_longitude"], lon(8, 14, 32), 0.3);
}

#[test]
fn barack_obama() {
    // Astro-Databank (AA, birth certificate): 1961-08-04 19:24 HST, Honolulu.
    // Sun 12°33' Leo, Moon 3°21' Gemini.
    let chart = zodiac(json!({
        "date": "1961-08-04", "time": "19:24", "place": "Honolulu", "timezone": "Pacific/Honolulu"
    }));
    assert_eq!(chart["sun_sign"], "leo");
    assert_eq!(chart["moon_sign"], "gemini");
    assert_near(&chart["sun_longitude"], lon(4, 12, 33), 0.1);
    assert_near(&chart["moon_longitude"], lon(2, 3, 21), 0.1);
    assert_eq!(chart["sun_element"]["en"], "fire");
}

#[test]
fn queen_elizabeth_ii_born_on_british_summer_time() {
    // Astro-Databank (AA, official announcement): 1926-04-21 02:40 BST (01:40 UT), London.
    // Sun 0°12' Taurus, Moon 12°07' Leo. BST had begun on 1926-04-18, which the tz database
    // knows; the Sun had entered Taurus only hours before.
    let chart = zodiac(json!({
        "date": "1926-04-21", "time": "02:40", "place": "London", "timezone": "Europe/London"
    }));
    assert_eq!(chart["utc"], "1926-04-21T01:40:00+00:00");
    assert_eq!(chart["sun_sign"], "taurus");
    assert_eq!(chart["moon_sign"], "leo");
    assert_eq!(chart["sun_sign_display"], json!({"zh": "金牛座", "en": "Taurus"}));
    assert_near(&chart["sun_longitude"], lon(1, 0, 12), 0.1);
    assert_near(&chart["moon_longitude"], lon(4, 12, 7), 0.1);
}

#[test]
fn without_time_the_moon_is_given_only_when_it_keeps_one_sign_all_day() {
    // On 1926-04-21 the Moon sat around 5°-18° Leo all day in London: one sign.
    let steady = zodiac(json!({"date": "1926-04-21", "timezone": "Europe/London"}));
    assert_eq!(steady["time_known"], false);
    assert_eq!(steady["moon_sign"], "leo");
    assert_eq!(steady["uncertain"], json!([]));

    // The Moon moves ~13° a day, so it changes sign on about one day in two and a half;
    // scan a week and expect at least one such day to be reported as uncertain.
    let changing: Vec<Value> = (1..=7)
        .map(|d| zodiac(json!({"date": format!("2024-03-{d:02}"), "timezone": "UTC"})))
        .filter(|c| c["moon_sign"].is_null())
        .collect();
    assert!(!changing.is_empty());
    for c in &changing {
        assert_eq!(c["uncertain"], json!(["moon_sign"]));
        let pair = c["candidates"]["moon_sign"].as_array().unwrap();
        assert_eq!(pair.len(), 2);
        assert_ne!(pair[0], pair[1]);
        assert!(c["sun_sign"].is_string());
    }
}

#[test]
fn without_time_a_cusp_day_flags_the_sun() {
    // The Sun entered Taurus at 2024-04-19 14:00 UTC (every ephemeris): that day is a cusp.
    let cusp = zodiac(json!({"date": "2024-04-19", "timezone": "UTC"}));
    assert_eq!(cusp["candidates"]["sun_sign"], json!(["aries", "taurus"]));
    assert!(cusp["uncertain"].as_array().unwrap().contains(&json!("sun_sign")));
    // With a time it is exact.
    let before = zodiac(json!({"date": "2024-04-19", "time": "13:30", "timezone": "UTC"}));
    let after = zodiac(json!({"date": "2024-04-19", "time": "14:30", "timezone": "UTC"}));
    assert_eq!(before["sun_sign"], "aries");
    assert_eq!(after["sun_sign"], "taurus");
}
