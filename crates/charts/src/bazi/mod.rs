//! The bazi (八字, four pillars) chart: year, month, day and hour pillars as 干支 pairs, with
//! hidden stems, ten gods, 纳音, five-element counts and the nearest 节. Conventions (see
//! docs/charts.md): the year turns at the exact moment of 立春, the month at each 节; the day
//! turns at 23:00 (子初换日, the late 子 hour belongs to the next day) unless the person's
//! preference says midnight (子正换日, [`ZiHourDayChange`]); day and hour pillars
//! use true solar time when the longitude is known, else standard time. Which clock is used
//! is `reckoning`; the JSON for one pillar set is built here.

mod names;
mod reckoning;

use chrono::{Duration, NaiveTime, SecondsFormat, TimeZone};
use serde_json::{Map, Value, json};
use tyme4rs::tyme::sixtycycle::{HeavenStem, SixtyCycle, SixtyCycleHour};
use tyme4rs::tyme::solar::SolarTerm;
use tyme4rs::tyme::{Culture, Tyme};

use crate::ChartError;
use crate::birth::BirthInfo;
use crate::options::{ChartOptions, ZiHourDayChange};
use names::{ANIMALS_EN, ELEMENTS_EN, ELEMENTS_ZH, yin_yang};
use reckoning::{Basis, Reckoning, beijing_julian_day_to_utc};

/// Bumped when a convention or the output shape changes, so stored charts get recomputed.
/// 2: the 子时 day boundary became a preference, echoed in `options`.
pub(crate) const VERSION: u64 = 2;

const SLOTS: [&str; 4] = ["year", "month", "day", "hour"];

/// Computes the bazi chart for a validated birth. `input` is echoed back as `input`.
pub(crate) fn compute(
    info: &BirthInfo,
    input: &Value,
    options: &ChartOptions,
) -> Result<Value, ChartError> {
    let r = Reckoning::new(info)?;
    let by_instant = SixtyCycleHour::from_solar_time(r.beijing()?);
    let by_local = SixtyCycleHour::from_solar_time(r.local_solar_time()?);
    let day = day_pillar(&r, &by_local, options.zi_hour_day_change)?;
    let pillars: [Option<SixtyCycle>; 4] = [
        Some(by_instant.get_year()),
        Some(by_instant.get_month()),
        Some(day.clone()),
        r.time_known.then(|| by_local.get_sixty_cycle()),
    ];
    let day_master = day.get_heaven_stem();

    let mut uncertain = Vec::new();
    if !r.time_known {
        uncertain.push("hour");
        uncertain.extend(boundary_uncertainty(info)?);
    }

    Ok(json!({
        "compute_type": "bazi",
        "version": VERSION,
        "input": input,
        "pillars": per_slot(&pillars, |p| Value::String(p.get_name())),
        "stems": per_slot(&pillars, |p| Value::String(p.get_heaven_stem().get_name())),
        "branches": per_slot(&pillars, |p| Value::String(p.get_earth_branch().get_name())),
        "hidden_stems": per_slot(&pillars, |p| {
            p.get_earth_branch()
                .get_hide_heaven_stems()
                .iter()
                .map(|h| Value::String(h.get_heaven_stem().get_name()))
                .collect()
        }),
        "ten_gods": ten_gods(&pillars, &day_master),
        "na_yin": per_slot(&pillars, |p| Value::String(p.get_sound().get_name())),
        "day_master": {
            "stem": day_master.get_name(),
            "element": ELEMENTS_EN[day_master.get_element().get_index()],
            "element_zh": ELEMENTS_ZH[day_master.get_element().get_index()],
            "yin_yang": yin_yang(day_master.get_index()),
        },
        "elements": element_counts(&pillars, false),
        "elements_hidden": element_counts(&pillars, true),
        "zodiac_animal": {
            "zh": by_instant.get_year().get_earth_branch().get_zodiac().get_name(),
            "en": ANIMALS_EN[by_instant.get_year().get_earth_branch().get_index()],
        },
        "solar_terms": nearest_jie(&r, info)?,
        "reckoning": reckoning_json(&r, info),
        "conventions": {
            "year_boundary": "立春 (exact moment)",
            "month_boundary": "节 (exact moment)",
            "day_boundary": match options.zi_hour_day_change {
                ZiHourDayChange::At23 => "23:00 (子初换日: 23:00-24:00 belongs to the next day)",
                ZiHourDayChange::At24 => "24:00 (子正换日: 23:00-24:00, 晚子时, keeps its day; the hour is 子)",
            },
            "day_and_hour_clock": r.basis.as_str(),
        },
        "options": options.to_json("bazi"),
        "uncertain": uncertain,
    }))
}

/// The day pillar: tyme4rs turns the day at 23:00; with the midnight convention a pillar
/// time in 23:00-24:00 keeps the day of the hour before.
fn day_pillar(
    r: &Reckoning,
    by_local: &SixtyCycleHour,
    zi: ZiHourDayChange,
) -> Result<SixtyCycle, ChartError> {
    if zi == ZiHourDayChange::At24 && chrono::Timelike::hour(&r.local) == 23 {
        let before = reckoning::to_solar_time(r.local - Duration::hours(1))?;
        return Ok(SixtyCycleHour::from_solar_time(before).get_day());
    }
    Ok(by_local.get_day())
}

fn per_slot(pillars: &[Option<SixtyCycle>; 4], f: impl Fn(&SixtyCycle) -> Value) -> Value {
    let mut map = Map::new();
    for (slot, p) in SLOTS.iter().zip(pillars) {
        map.insert((*slot).into(), p.as_ref().map_or(Value::Null, &f));
    }
    Value::Object(map)
}

/// Ten gods (十神) of each pillar's stem relative to the day master; the day stem is 日主.
fn ten_gods(pillars: &[Option<SixtyCycle>; 4], me: &HeavenStem) -> Value {
    let mut map = Map::new();
    for (i, (slot, p)) in SLOTS.iter().zip(pillars).enumerate() {
        let god = match p {
            None => Value::Null,
            Some(_) if i == 2 => Value::String("日主".into()),
            Some(p) => Value::String(me.get_ten_star(p.get_heaven_stem()).get_name()),
        };
        map.insert((*slot).into(), god);
    }
    Value::Object(map)
}

/// Counts of the five elements over the visible stems and branches (`hidden == false`) or
/// over the stems hidden in the branches (`hidden == true`).
fn element_counts(pillars: &[Option<SixtyCycle>; 4], hidden: bool) -> Value {
    let mut counts = [0u32; 5];
    for p in pillars.iter().flatten() {
        if hidden {
            for h in p.get_earth_branch().get_hide_heaven_stems() {
                counts[h.get_heaven_stem().get_element().get_index()] += 1;
            }
        } else {
            counts[p.get_heaven_stem().get_element().get_index()] += 1;
            counts[p.get_earth_branch().get_element().get_index()] += 1;
        }
    }
    let mut map = Map::new();
    for (name, n) in ELEMENTS_EN.iter().zip(counts) {
        map.insert((*name).into(), n.into());
    }
    Value::Object(map)
}

/// The 节 that opened the birth month and the one that closes it, in the birth time zone.
fn nearest_jie(r: &Reckoning, info: &BirthInfo) -> Result<Value, ChartError> {
    let mut term = r.beijing()?.get_term();
    if !term.is_jie() {
        term = term.next(-1);
    }
    let describe = |t: &SolarTerm| -> Value {
        let at = beijing_julian_day_to_utc(t.get_julian_day().get_day()).map(|utc| {
            info.tz.from_utc_datetime(&utc.naive_utc()).to_rfc3339_opts(SecondsFormat::Secs, false)
        });
        json!({"name": t.get_name(), "at": at})
    };
    Ok(json!({"previous_jie": describe(&term), "next_jie": describe(&term.next(2))}))
}

/// Without a birth time, the month (and at 立春 the year) is unsure when a 节 falls on the
/// birth date: compare the pillars at the first and last second of that local day.
fn boundary_uncertainty(info: &BirthInfo) -> Result<Vec<&'static str>, ChartError> {
    let first = NaiveTime::MIN;
    let last = NaiveTime::from_hms_opt(23, 59, 59).unwrap_or(NaiveTime::MIN);
    let at = |t: NaiveTime| -> Result<SixtyCycleHour, ChartError> {
        let moment = info.resolve_lenient(t)?;
        let bj = reckoning::beijing_naive(moment.utc);
        Ok(SixtyCycleHour::from_solar_time(reckoning::to_solar_time(bj)?))
    };
    let (a, b) = (at(first)?, at(last)?);
    let mut out = Vec::new();
    if a.get_month() != b.get_month() {
        out.push("month");
    }
    if a.get_year() != b.get_year() {
        out.push("year");
    }
    Ok(out)
}

fn reckoning_json(r: &Reckoning, info: &BirthInfo) -> Value {
    let local_clock = info.tz.from_utc_datetime(&r.moment.utc.naive_utc());
    json!({
        "time_known": r.time_known,
        "clock_time": r.time_known.then(|| local_clock.to_rfc3339()),
        "utc": r.moment.utc.to_rfc3339(),
        "pillar_time": r.local.format("%Y-%m-%dT%H:%M:%S").to_string(),
        "basis": r.basis.as_str(),
        "longitude": info.longitude,
        "equation_of_time_minutes": r.equation_of_time_minutes.map(|m| (m * 100.0).round() / 100.0),
        "daylight_saving_removed_minutes": match r.basis {
            Basis::Standard => r.moment.dst_offset_secs / 60,
            Basis::TrueSolar => 0,
        },
        "ambiguous_clock_time": r.moment.ambiguous,
        "offset_from_clock_minutes": offset_minutes(r, &local_clock.naive_local()),
    })
}

/// How far the pillar time is from the clock time, in whole minutes (negative: earlier).
fn offset_minutes(r: &Reckoning, clock: &chrono::NaiveDateTime) -> i64 {
    let d: Duration = r.local - *clock;
    (d.num_seconds() as f64 / 60.0).round() as i64
}

#[cfg(test)]
#[path = "tests.rs"]
mod tests;
