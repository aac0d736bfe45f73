//! A `birth_info` made ready to store: its `place` (or `place_id`) looked up in the offline
//! gazetteer and its longitude, latitude and time zone filled in, then every field it holds
//! checked the way the charts read it, so an impossible date, time or zone is refused before
//! it is saved. Merging a change into the stored `birth_info` is the caller's business.

use chrono::{NaiveDate, Offset, TimeZone};
use chrono_tz::Tz;
use serde_json::{Map, Value, json};

use crate::ChartError;
use crate::birth::BirthInfo;
use crate::gazetteer::{Lookup, Place, lookup_in, place_by_id};

/// How many candidates an ambiguity error lists.
const LIST_AT_MOST: usize = 8;

const BY_HAND: &str = "or give the longitude by hand: \"longitude\": degrees east, west negative (e.g. 87.6), with \"timezone\": an IANA name (e.g. \"Asia/Shanghai\")";

/// A `birth_info` ready to store, with what the person should be told about it.
#[derive(Debug, Clone, PartialEq)]
pub struct PreparedBirthInfo {
    pub birth_info: Value,
    /// The place this write looked up (by `place` or `place_id`), to confirm back to the
    /// person with its country ([`Place::confirmation_en`]); `None` when no lookup was made.
    pub place: Option<Place>,
    /// The `timezone` given by hand is not the place's (another clock at the birth date).
    pub zone_mismatch: Option<ZoneMismatch>,
}

/// A given time zone that keeps another clock than the birth place's.
#[derive(Debug, Clone, PartialEq)]
pub struct ZoneMismatch {
    pub given: String,
    /// The place's own zone, offered instead.
    pub place_zone: String,
    /// What to tell the person, naming both zones and how to switch.
    pub message: String,
}

/// Resolves the place of `birth_info` and checks its fields (see [`prepare_birth`]);
/// returns only the `birth_info` to store.
pub fn prepare_birth_info(birth_info: &Value) -> Result<Value, ChartError> {
    prepare_birth(birth_info).map(|p| p.birth_info)
}

/// Resolves the place of `birth_info` and checks its fields. A `place_id` wins over `place`;
/// a `place` is looked up only when no `longitude` is given (a `timezone` given with it
/// settles a name shared across zones, `London` + `Europe/London`). The place sets `place_id` and
/// fills `longitude`, `latitude`, `timezone` (and `place`) where they are absent: values
/// typed by hand are kept.
/// Returns the `birth_info` to store, the place found (to confirm back) and whether a zone
/// given by hand differs from the place's; errors name the field at fault and how to fix it.
pub fn prepare_birth(birth_info: &Value) -> Result<PreparedBirthInfo, ChartError> {
    let Some(obj) = birth_info.as_object() else {
        BirthInfo::check_present(birth_info)?;
        return Ok(PreparedBirthInfo {
            birth_info: birth_info.clone(),
            place: None,
            zone_mismatch: None,
        });
    };
    let mut out = obj.clone();
    let mut found = None;
    if let Some(id) = text(obj, "place_id") {
        let place = place_by_id(&id).ok_or_else(|| {
            ChartError::invalid(
                "birth_info.place_id",
                format!("\"{id}\" is not a place id; give the \"place\" by name instead (the error for an ambiguous name lists the ids)"),
            )
        })?;
        fill(&mut out, &place);
        found = Some(place);
    } else if let Some(name) = text(obj, "place")
        && !present(obj, "longitude")
    {
        match lookup_in(&name, text(obj, "timezone").as_deref()) {
            Lookup::Found(place) => {
                fill(&mut out, &place);
                found = Some(*place);
            }
            Lookup::Ambiguous(places) => return Err(ambiguous(&name, &places)),
            Lookup::NotFound { ignoring_qualifiers } => {
                return Err(not_found(&name, &ignoring_qualifiers));
            }
        }
    }
    let zone_mismatch = found.as_ref().and_then(|p| zone_mismatch(&out, p));
    let out = Value::Object(out);
    BirthInfo::check_present(&out)?;
    Ok(PreparedBirthInfo { birth_info: out, place: found, zone_mismatch })
}

/// The given `timezone` when its clock differs from the place's zone at the birth date (at
/// any season of 2000 when no date is given): Detroit on `America/New_York` is fine,
/// Auckland on `Asia/Shanghai` is not.
fn zone_mismatch(out: &Map<String, Value>, place: &Place) -> Option<ZoneMismatch> {
    let given = text(out, "timezone")?;
    let (gz, pz) = (given.parse::<Tz>().ok()?, place.timezone.parse::<Tz>().ok()?);
    let dates: Vec<NaiveDate> = match text(out, "date").and_then(|d| d.parse().ok()) {
        Some(d) => vec![d],
        None => [1, 7].iter().filter_map(|&m| NaiveDate::from_ymd_opt(2000, m, 15)).collect(),
    };
    let offset = |tz: &Tz, d: &NaiveDate| {
        let noon = d.and_hms_opt(12, 0, 0)?.and_utc();
        Some(tz.offset_from_utc_datetime(&noon.naive_utc()).fix().local_minus_utc())
    };
    let differ = dates.iter().any(|d| offset(&gz, d) != offset(&pz, d));
    differ.then(|| ZoneMismatch {
        message: format!(
            "birth_info.timezone: {given} is not the zone of {} ({}); if the birth record gives the local time there, set \"timezone\": \"{}\"",
            place.confirmation_en(),
            place.timezone,
            place.timezone
        ),
        given,
        place_zone: place.timezone.clone(),
    })
}

/// Sets `place_id`, and each of longitude, latitude, time zone and place name not given.
fn fill(out: &mut Map<String, Value>, place: &Place) {
    let name = if place.name_zh.is_empty() { &place.name_en } else { &place.name_zh };
    out.insert("place_id".into(), json!(place.id));
    for (field, value) in [
        ("longitude", json!(place.longitude)),
        ("latitude", json!(place.latitude)),
        ("timezone", json!(place.timezone)),
        ("place", json!(name)),
    ] {
        if !present(out, field) {
            out.insert(field.into(), value);
        }
    }
}

fn ambiguous(name: &str, places: &[Place]) -> ChartError {
    let bare = name.split([',', '，']).next().unwrap_or(name).trim();
    let top = &places[0];
    let (region, country) = if bare.chars().any(|c| ('\u{3400}'..='\u{9fff}').contains(&c)) {
        (top.admin_zh.first(), &top.country_zh)
    } else {
        (top.admin_en.first(), &top.country_en)
    };
    let within = region.filter(|r| !r.is_empty()).or(Some(country).filter(|c| !c.is_empty()));
    let mut lines = vec![format!(
        "\"{name}\" matches {} places; say which one by adding its province or country after a comma (e.g. \"place\": \"{bare}, {}\") or by giving its \"place_id\" (e.g. \"place_id\": \"{}\"):",
        places.len(),
        within.unwrap_or(&top.country),
        top.id,
    )];
    lines.extend(places.iter().take(LIST_AT_MOST).map(candidate));
    if places.len() > LIST_AT_MOST {
        lines.push(format!("  … and {} more", places.len() - LIST_AT_MOST));
    }
    ChartError::invalid("birth_info.place", lines.join("\n"))
}

fn not_found(name: &str, ignoring_qualifiers: &[Place]) -> ChartError {
    let message = if ignoring_qualifiers.is_empty() {
        format!(
            "no place named \"{name}\" in the offline gazetteer (cities of 15,000+ people worldwide, all Chinese prefecture- and county-level divisions, in Chinese or English); give the nearest larger city, {BY_HAND}"
        )
    } else {
        let mut lines = vec![format!(
            "no place named \"{name}\": the name alone matches only these (check the part after the comma), {BY_HAND}:"
        )];
        lines.extend(ignoring_qualifiers.iter().take(LIST_AT_MOST).map(candidate));
        lines.join("\n")
    };
    ChartError::invalid("birth_info.place", message)
}

fn candidate(p: &Place) -> String {
    format!("  - {}, {}, \"place_id\": \"{}\"", p.label(), p.timezone, p.id)
}

fn present(obj: &Map<String, Value>, field: &str) -> bool {
    match obj.get(field) {
        None | Some(Value::Null) => false,
        Some(Value::String(s)) => !s.trim().is_empty(),
        Some(_) => true,
    }
}

fn text(obj: &Map<String, Value>, field: &str) -> Option<String> {
    obj.get(field).and_then(Value::as_str).map(str::trim).filter(|s| !s.is_empty()).map(Into::into)
}

#[cfg(test)]
#[path = "birth_place_tests.rs"]
mod tests;
