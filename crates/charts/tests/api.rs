//! The public surface other crates rely on: `compute`, `chart_version`, `tarot::draw*`.

use serde_json::json;
use vibe_charts::tarot::{self, Spread};
use vibe_charts::{COMPUTE_TYPES, ChartError, chart_version, compute};

#[test]
fn bazi_chart_shape() {
    let birth = json!({"date": "2005-12-23", "time": "08:37", "place": "北京", "timezone": "Asia/Shanghai"});
    let chart = compute("bazi", &birth).unwrap();
    for slot in ["year", "month", "day", "hour"] {
        assert_eq!(chart["pillars"][slot].as_str().unwrap().chars().count(), 2, "{slot}");
    }
    assert_eq!(chart["input"], birth);
    assert_eq!(chart["version"], chart_version("bazi").unwrap());
    let total: u64 =
        chart["elements"].as_object().unwrap().values().filter_map(|v| v.as_u64()).sum();
    assert_eq!(total, 8);
}

#[test]
fn zodiac_chart_shape() {
    let birth = json!({"date": "1990-05-17", "time": "08:30", "timezone": "Asia/Shanghai"});
    let chart = compute("zodiac", &birth).unwrap();
    assert_eq!(chart["sun_sign"], "taurus");
    assert_eq!(chart["sun_sign_display"]["zh"], "金牛座");
    assert!(chart["moon_sign"].as_str().unwrap().chars().all(|c| c.is_ascii_lowercase()));
    assert!(chart["moon_sign_display"]["en"].is_string());
}

#[test]
fn errors_are_specific() {
    let e = compute(
        "bazi",
        &json!({"date": "1990-05-17", "time": "8.30", "timezone": "Asia/Shanghai"}),
    )
    .unwrap_err();
    assert!(matches!(e, ChartError::InvalidField { .. }));
    assert_eq!(e.field(), Some("birth_info.time"));
    let e = compute("zodiac", &json!(null)).unwrap_err();
    assert_eq!(e.field(), Some("birth_info"));
    assert!(matches!(compute("tarot", &json!({})), Err(ChartError::UnknownComputeType(_))));
    assert_eq!(COMPUTE_TYPES, ["bazi", "zodiac"]);
}

#[test]
fn tarot_is_reproducible_by_seed() {
    let a = tarot::draw_from_json(&json!({"spread": "three_card", "seed": 2024}), 0).unwrap();
    let b = tarot::draw(Spread::ThreeCard, 2024, true);
    assert_eq!(a, b);
    assert_ne!(tarot::draw(Spread::ThreeCard, 2025, true), b);
    assert_eq!(tarot::deck().len(), 78);
}
