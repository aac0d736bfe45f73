use chrono::TimeZone;

use super::*;

fn centuries_from_jde(jde: f64) -> f64 {
    (jde - J2000) / DAYS_PER_CENTURY
}

#[test]
fn julian_day_of_j2000_noon() {
    let t = Utc.with_ymd_and_hms(2000, 1, 1, 12, 0, 0).unwrap();
    assert!((julian_day_utc(t) - 2_451_545.0).abs() < 1e-9);
}

#[test]
fn delta_t_near_published_values() {
    // IERS: ΔT was 63.83 s at 2000.0 and 32.18 s (+ about 0.4 s) around 1960.
    let t = Utc.with_ymd_and_hms(2000, 1, 1, 0, 0, 0).unwrap();
    assert!((delta_t_seconds(t) - 63.8).abs() < 1.0, "{}", delta_t_seconds(t));
    let t = Utc.with_ymd_and_hms(1960, 1, 1, 0, 0, 0).unwrap();
    assert!((delta_t_seconds(t) - 33.1).abs() < 1.5, "{}", delta_t_seconds(t));
}

#[test]
fn sun_longitude_matches_meeus_example_25b() {
    // Meeus, Astronomical Algorithms (2nd ed.), Example 25.b: 1992 October 13.0 TD
    // (JDE 2448908.5), apparent longitude from full VSOP87 = 199°54'21.818" = 199.906060°.
    let lon = sun_longitude(centuries_from_jde(2_448_908.5));
    assert!((lon - 199.906_06).abs() < 0.002, "{lon}");
}

#[test]
fn moon_longitude_matches_meeus_example_47a() {
    // Meeus, Astronomical Algorithms (2nd ed.), Example 47.a: 1992 April 12, 0h TD
    // (JDE 2448724.5), apparent longitude λ + Δψ = 133.167265°.
    let lon = moon_longitude(centuries_from_jde(2_448_724.5));
    assert!((lon - 133.167_265).abs() < 0.005, "{lon}");
}

#[test]
fn equation_of_time_matches_meeus_example_28b() {
    // Meeus, Example 28.b: 1992 October 13.0 TD, E = +13m42.7s (Smart's formula).
    let minutes = equation_of_time_minutes(centuries_from_jde(2_448_908.5));
    assert!((minutes - (13.0 + 42.7 / 60.0)).abs() < 0.02, "{minutes}");
}

#[test]
fn equation_of_time_is_near_zero_mid_april_and_negative_in_february() {
    // The equation of time crosses zero around April 15 and bottoms out near −14 min in
    // mid-February (any almanac).
    let april = Utc.with_ymd_and_hms(2024, 4, 15, 12, 0, 0).unwrap();
    assert!(equation_of_time_minutes(centuries_tt(april)).abs() < 1.0);
    let feb = Utc.with_ymd_and_hms(2024, 2, 11, 12, 0, 0).unwrap();
    let e = equation_of_time_minutes(centuries_tt(feb));
    assert!((e + 14.2).abs() < 0.5, "{e}");
}

#[test]
fn normalize_wraps_into_range() {
    assert_eq!(normalize_degrees(-30.0), 330.0);
    assert_eq!(normalize_degrees(720.5), 0.5);
}
