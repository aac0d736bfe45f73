//! Chart computations for the built-in skills: bazi (八字) four pillars, zodiac sun and moon
//! signs, and seeded tarot draws. Pure functions over JSON in, JSON out; no IO, no store,
//! no clock. Storing and caching charts belongs to `vibe-core`; prompt text to the skills.
//! Conventions are documented in docs/charts.md.

mod astro;
mod bazi;
mod birth;
mod error;
pub mod tarot;
mod zodiac;

use serde_json::Value;

pub use error::ChartError;

/// The chart types `compute` understands (`compute_type` in SKILL.md).
pub const COMPUTE_TYPES: &[&str] = &["bazi", "zodiac"];

/// Computes a chart from a person's `birth_info`
/// (`{date: "YYYY-MM-DD", time?: "HH:MM", place?, timezone: IANA name, longitude?}`).
///
/// The result is a JSON object holding `compute_type`, `version` (bumped when conventions
/// change) and `input` (the `birth_info` it was computed from, so callers can tell when a
/// recompute is due), plus the chart: for `bazi` `pillars: {year, month, day, hour}` as 干支
/// pairs; for `zodiac` `sun_sign` / `moon_sign` as lowercase English names with display
/// names beside them.
///
/// Errors name the field at fault, e.g. `birth_info.timezone: "Mars/Base" is not an IANA time
/// zone name (e.g. "Asia/Shanghai")`.
pub fn compute(compute_type: &str, birth_info: &Value) -> Result<Value, ChartError> {
    let run = match compute_type.trim() {
        "bazi" => bazi::compute,
        "zodiac" => zodiac::compute,
        other => return Err(ChartError::UnknownComputeType(other.to_owned())),
    };
    let info = birth::BirthInfo::from_json(birth_info)?;
    run(&info, birth_info)
}

/// The `version` a freshly computed chart of this type carries, or `None` for an unknown
/// type. A stored chart with another version is stale.
pub fn chart_version(compute_type: &str) -> Option<u64> {
    match compute_type.trim() {
        "bazi" => Some(bazi::VERSION),
        "zodiac" => Some(zodiac::VERSION),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn unknown_compute_type_lists_the_known_ones() {
        let e = compute("ziwei", &json!({})).unwrap_err();
        assert_eq!(e.to_string(), "unknown compute_type \"ziwei\": expected one of bazi, zodiac");
    }

    #[test]
    fn every_compute_type_has_a_version() {
        for t in COMPUTE_TYPES {
            assert!(chart_version(t).is_some(), "{t}");
        }
        assert_eq!(chart_version("tarot"), None);
    }

    #[test]
    fn both_types_report_birth_info_errors_by_field() {
        for t in COMPUTE_TYPES {
            let e =
                compute(t, &json!({"date": "1990-05-17", "timezone": "Mars/Base"})).unwrap_err();
            assert_eq!(e.field(), Some("birth_info.timezone"), "{t}");
        }
    }
}
