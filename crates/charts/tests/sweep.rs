//! Any valid birth in the supported range yields a chart: no panic inside the calendar
//! library, no internal `Calendar` error, pillars always two characters.

use proptest::prelude::*;
use serde_json::json;

const ZONES: [&str; 6] = [
    "Asia/Shanghai",
    "America/New_York",
    "Europe/London",
    "Pacific/Kiritimati",
    "Pacific/Pago_Pago",
    "Asia/Kolkata",
];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn every_supported_birth_computes(
        year in 1800i32..=2200,
        ordinal in 0u32..365,
        minute_of_day in 0u32..1440,
        zone in 0usize..ZONES.len(),
        longitude in proptest::option::of(-180.0f64..=180.0),
        time_known in any::<bool>(),
    ) {
        let date = chrono::NaiveDate::from_yo_opt(year, ordinal + 1).unwrap();
        let mut birth = json!({"date": date.to_string(), "timezone": ZONES[zone]});
        if time_known {
            birth["time"] = json!(format!("{:02}:{:02}", minute_of_day / 60, minute_of_day % 60));
        }
        if let Some(lon) = longitude {
            birth["longitude"] = json!(lon);
        }
        for kind in ["bazi", "zodiac"] {
            match vibe_charts::compute(kind, &birth) {
                Ok(chart) => {
                    if kind == "bazi" {
                        for slot in ["year", "month", "day"] {
                            prop_assert_eq!(chart["pillars"][slot].as_str().unwrap().chars().count(), 2);
                        }
                    } else {
                        prop_assert!(chart["sun_sign"].is_string());
                    }
                }
                // A clock time skipped by a daylight-saving jump is the only acceptable error.
                Err(e) => prop_assert!(
                    e.field() == Some("birth_info.time") && e.to_string().contains("does not exist"),
                    "{} for {}", e, birth
                ),
            }
        }
    }
}
