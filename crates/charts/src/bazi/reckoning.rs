//! Which clock the pillars are read from. Year and month pillars follow the solar terms,
//! which are instants, so they are read from the birth instant (expressed in Beijing time,
//! the time scale of tyme4rs's term tables). Day and hour pillars follow the Sun over the
//! birthplace, so they are read from a local time: true solar time when the birthplace's
//! longitude is known, else the zone's standard time (the clock reading minus any daylight
//! saving). Pillar names and JSON shape do not belong here.

use chrono::{DateTime, Duration, NaiveDateTime, NaiveTime, Utc};
use tyme4rs::tyme::solar::SolarTime;

use crate::ChartError;
use crate::astro;
use crate::birth::{BirthInfo, Moment};

/// Beijing time (UTC+8), the time scale of tyme4rs's solar-term instants.
const BEIJING_OFFSET_SECS: i64 = 8 * 3600;

/// How the local time for the day and hour pillars was obtained.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Basis {
    /// Longitude known: mean solar time at that longitude plus the equation of time.
    TrueSolar,
    /// Longitude unknown: the zone's standard time, daylight saving removed.
    Standard,
}

impl Basis {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::TrueSolar => "true_solar_time",
            Self::Standard => "standard_time",
        }
    }
}

/// The birth moment on every clock the pillars need.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Reckoning {
    pub moment: Moment,
    /// Clock reading the person gave (or noon when the time is unknown).
    pub clock_time: NaiveTime,
    pub time_known: bool,
    /// Local time the day and hour pillars are read from.
    pub local: NaiveDateTime,
    pub basis: Basis,
    /// Equation of time applied, minutes (only for true solar time).
    pub equation_of_time_minutes: Option<f64>,
}

impl Reckoning {
    pub fn new(info: &BirthInfo) -> Result<Self, ChartError> {
        let time_known = info.time.is_some();
        let clock_time = info.time.unwrap_or(NOON);
        let moment =
            if time_known { info.resolve(clock_time)? } else { info.resolve_lenient(clock_time)? };
        let (local, basis, eot) = local_time(moment, info.longitude);
        Ok(Self { moment, clock_time, time_known, local, basis, equation_of_time_minutes: eot })
    }

    /// The birth instant in Beijing time, as tyme4rs wants it for year and month pillars.
    pub fn beijing(&self) -> Result<SolarTime, ChartError> {
        to_solar_time(beijing_naive(self.moment.utc))
    }

    /// The local (solar or standard) time, as tyme4rs wants it for day and hour pillars.
    pub fn local_solar_time(&self) -> Result<SolarTime, ChartError> {
        to_solar_time(self.local)
    }
}

const NOON: NaiveTime = match NaiveTime::from_hms_opt(12, 0, 0) {
    Some(t) => t,
    None => NaiveTime::MIN,
};

fn local_time(moment: Moment, longitude: Option<f64>) -> (NaiveDateTime, Basis, Option<f64>) {
    match longitude {
        Some(lon) => {
            let eot = astro::equation_of_time_minutes(astro::centuries_tt(moment.utc));
            // 4 minutes of time per degree of longitude, plus the equation of time.
            let shift_ms = ((lon * 4.0 + eot) * 60_000.0).round() as i64;
            let local = (moment.utc + Duration::milliseconds(shift_ms)).naive_utc();
            (truncate_to_second(local), Basis::TrueSolar, Some(eot))
        }
        None => {
            let local = (moment.utc + Duration::seconds(moment.standard_offset_secs)).naive_utc();
            (local, Basis::Standard, None)
        }
    }
}

pub(crate) fn beijing_naive(utc: DateTime<Utc>) -> NaiveDateTime {
    (utc + Duration::seconds(BEIJING_OFFSET_SECS)).naive_utc()
}

/// Converts a Julian day in Beijing time (as tyme4rs reports term instants) to UTC.
pub(crate) fn beijing_julian_day_to_utc(jd: f64) -> Option<DateTime<Utc>> {
    let unix_ms = ((jd - 2_440_587.5) * 86_400_000.0).round() as i64 - BEIJING_OFFSET_SECS * 1000;
    DateTime::from_timestamp_millis(unix_ms)
}

fn truncate_to_second(t: NaiveDateTime) -> NaiveDateTime {
    chrono::Timelike::with_nanosecond(&t, 0).unwrap_or(t)
}

pub(crate) fn to_solar_time(t: NaiveDateTime) -> Result<SolarTime, ChartError> {
    use chrono::{Datelike, Timelike};
    let month = t.month() as usize;
    let day = t.day() as usize;
    SolarTime::new(
        t.year() as isize,
        month,
        day,
        t.hour() as usize,
        t.minute() as usize,
        t.second() as usize,
    )
    .map_err(ChartError::Calendar)
}
