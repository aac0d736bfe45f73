//! Positional astronomy the charts need: Julian days, ΔT, the apparent ecliptic longitudes
//! of the Sun and the Moon, and the equation of time. The series themselves come from
//! tyme4rs (its port of 寿星天文历 / sxwnl: VSOP87 for the Sun, ELP/MPP02 for the Moon);
//! this module only feeds them the right time scale. Sign and pillar rules live elsewhere.

use chrono::{DateTime, Datelike, Utc};
use tyme4rs::tyme::util::ShouXingUtil;

/// Julian day of J2000.0 (2000-01-01 12:00 TT).
const J2000: f64 = 2_451_545.0;
const DAYS_PER_CENTURY: f64 = 36_525.0;
/// Aberration of the Moon's longitude, radians (sxwnl `gxc_moonLon`).
const MOON_ABERRATION_RAD: f64 = -3.4e-6;

/// Julian day (UT) of an instant.
pub(crate) fn julian_day_utc(t: DateTime<Utc>) -> f64 {
    let secs = t.timestamp() as f64 + f64::from(t.timestamp_subsec_millis()) / 1000.0;
    secs / 86_400.0 + 2_440_587.5
}

/// ΔT = TT − UT in seconds for an instant (sxwnl's table and extrapolation).
pub(crate) fn delta_t_seconds(t: DateTime<Utc>) -> f64 {
    let year = f64::from(t.year()) + (f64::from(t.ordinal0()) + 0.5) / 365.2425;
    ShouXingUtil::dt_calc(year)
}

/// Julian centuries of Terrestrial Time since J2000.0 for an instant given in UTC.
pub(crate) fn centuries_tt(t: DateTime<Utc>) -> f64 {
    let jd_tt = julian_day_utc(t) + delta_t_seconds(t) / 86_400.0;
    (jd_tt - J2000) / DAYS_PER_CENTURY
}

/// Apparent geocentric ecliptic longitude of the Sun, degrees in [0, 360), for `t` in
/// Julian centuries TT (includes nutation and aberration).
pub(crate) fn sun_longitude(t: f64) -> f64 {
    normalize_degrees(ShouXingUtil::sa_lon(t, -1).to_degrees())
}

/// Apparent geocentric ecliptic longitude of the Moon, degrees in [0, 360), for `t` in
/// Julian centuries TT (full series, plus nutation and aberration).
pub(crate) fn moon_longitude(t: f64) -> f64 {
    let rad = ShouXingUtil::mlon(t, -1) + ShouXingUtil::nutation_lon2(t) + MOON_ABERRATION_RAD;
    normalize_degrees(rad.to_degrees())
}

/// Equation of time (apparent minus mean solar time) in minutes, for `t` in Julian
/// centuries TT. Smart's series as given by Meeus, Astronomical Algorithms, eq. 28.3;
/// good to a few seconds, far finer than any birth record.
pub(crate) fn equation_of_time_minutes(t: f64) -> f64 {
    let l0 = (280.46646 + 36_000.769_83 * t + 0.000_303_2 * t * t).to_radians();
    let m = (357.529_11 + 35_999.050_29 * t - 0.000_153_7 * t * t).to_radians();
    let e = 0.016_708_634 - 0.000_042_037 * t - 0.000_000_126_7 * t * t;
    let obliquity = (23.439_291 - 0.013_004_2 * t).to_radians();
    let y = (obliquity / 2.0).tan().powi(2);
    let rad = y * (2.0 * l0).sin() - 2.0 * e * m.sin() + 4.0 * e * y * m.sin() * (2.0 * l0).cos()
        - 0.5 * y * y * (4.0 * l0).sin()
        - 1.25 * e * e * (2.0 * m).sin();
    rad.to_degrees() * 4.0
}

pub(crate) fn normalize_degrees(deg: f64) -> f64 {
    let d = deg.rem_euclid(360.0);
    if d >= 360.0 { 0.0 } else { d }
}

#[cfg(test)]
#[path = "astro_tests.rs"]
mod tests;
