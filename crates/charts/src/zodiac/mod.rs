//! The Western (tropical) zodiac chart: sun sign, and moon sign when it can be known. Signs
//! are 30° slices of the apparent geocentric ecliptic longitude measured from the March
//! equinox. Without a birth time the Sun is placed at local noon and a sign change during
//! that day is reported as uncertain; the Moon is given only if it stays in one sign all
//! day. The astronomy itself is in `astro`.

mod signs;

use chrono::{DateTime, NaiveTime, Timelike, Utc};
use serde_json::{Value, json};

use crate::ChartError;
use crate::astro;
use crate::birth::BirthInfo;
use signs::Sign;

/// Bumped when a convention or the output shape changes, so stored charts get recomputed.
pub(crate) const VERSION: u64 = 1;

/// Longitudes of both bodies at one instant.
struct Positions {
    sun: f64,
    moon: f64,
}

fn positions_at(utc: DateTime<Utc>) -> Positions {
    let t = astro::centuries_tt(utc);
    Positions { sun: astro::sun_longitude(t), moon: astro::moon_longitude(t) }
}

/// Computes the zodiac chart for a validated birth. `input` is echoed back as `input`.
pub(crate) fn compute(info: &BirthInfo, input: &Value) -> Result<Value, ChartError> {
    let time_known = info.time.is_some();
    let time = info.time.unwrap_or(noon());
    let moment = match info.time {
        Some(_) => info.resolve(time)?,
        None => info.resolve_lenient(time)?,
    };
    let at = positions_at(moment.utc);
    let sun = Sign::of(at.sun);

    let mut uncertain = Vec::new();
    let mut candidates = serde_json::Map::new();
    let mut moon = Some(Sign::of(at.moon));
    if !time_known {
        let first = positions_at(info.resolve_lenient(NaiveTime::MIN)?.utc);
        let last = positions_at(info.resolve_lenient(end_of_day())?.utc);
        if Sign::of(first.sun) != Sign::of(last.sun) {
            uncertain.push("sun_sign");
            candidates.insert("sun_sign".into(), pair(first.sun, last.sun));
        }
        if Sign::of(first.moon) != Sign::of(last.moon) {
            moon = None;
            uncertain.push("moon_sign");
            candidates.insert("moon_sign".into(), pair(first.moon, last.moon));
        }
    }

    Ok(json!({
        "compute_type": "zodiac",
        "version": VERSION,
        "input": input,
        "sun_sign": sun.id(),
        "sun_sign_display": sun.display(),
        "sun_longitude": round2(at.sun),
        "sun_element": sun.element(),
        "sun_modality": sun.modality(),
        "moon_sign": moon.map(Sign::id),
        "moon_sign_display": moon.map(Sign::display),
        "moon_longitude": moon.map(|_| round2(at.moon)),
        "time_known": time_known,
        "utc": moment.utc.to_rfc3339(),
        "uncertain": uncertain,
        "candidates": candidates,
        "conventions": {
            "zodiac": "tropical",
            "positions": "apparent geocentric ecliptic longitude",
            "unknown_time": "sun at local noon; moon only when it stays in one sign all day",
        },
    }))
}

fn pair(a: f64, b: f64) -> Value {
    json!([Sign::of(a).id(), Sign::of(b).id()])
}

fn round2(deg: f64) -> f64 {
    (deg * 100.0).round() / 100.0
}

fn noon() -> NaiveTime {
    NaiveTime::MIN.with_hour(12).unwrap_or(NaiveTime::MIN)
}

fn end_of_day() -> NaiveTime {
    NaiveTime::from_hms_opt(23, 59, 59).unwrap_or(NaiveTime::MIN)
}

#[cfg(test)]
#[path = "tests.rs"]
mod tests;
