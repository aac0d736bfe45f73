//! Chart computations for the built-in skills: bazi (八字) four pillars, zodiac sun and moon
//! signs, and seeded tarot draws. Pure functions over JSON in, JSON out; no IO, no store,
//! no clock. Storing and caching charts belongs to `vibe-core`; prompt text to the skills.
//! Conventions are documented in docs/charts.md.

mod astro;
mod bazi;
mod birth;
mod birth_place;
mod error;
pub mod gazetteer;
mod options;
pub mod tarot;
mod zodiac;

use serde_json::Value;

pub use birth_place::{PreparedBirthInfo, ZoneMismatch, prepare_birth, prepare_birth_info};
pub use error::ChartError;
pub use options::{ChartOptions, ZiHourDayChange};

/// The chart types `compute` understands (`compute_type` in SKILL.md).
pub const COMPUTE_TYPES: &[&str] = &["bazi", "zodiac"];

/// Computes a chart from a person's `birth_info`
/// (`{date: "YYYY-MM-DD", time?: "HH:MM", place?, timezone: IANA name, longitude?}`) with the
/// default preferences; see [`compute_with`].
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
    compute_with(compute_type, birth_info, &ChartOptions::default())
}

/// Computes a chart with the person's chart preferences (`options`, from the profile's
/// `preferences`); a bazi chart echoes them as `options`.
pub fn compute_with(
    compute_type: &str,
    birth_info: &Value,
    options: &ChartOptions,
) -> Result<Value, ChartError> {
    let compute_type = compute_type.trim();
    if !COMPUTE_TYPES.contains(&compute_type) {
        return Err(ChartError::UnknownComputeType(compute_type.to_owned()));
    }
    let info = birth::BirthInfo::from_json(birth_info)?;
    if compute_type == "bazi" {
        bazi::compute(&info, birth_info, options)
    } else {
        zodiac::compute(&info, birth_info)
    }
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
