//! Parsing and validating `birth_info` JSON (`{date, time?, place?, timezone, longitude?,
//! latitude?, place_id?}`) and turning a local clock reading into an instant. Chart rules (pillars, signs) do not
//! belong here; only "what moment and where did the person say they were born".

use chrono::{DateTime, LocalResult, NaiveDate, NaiveDateTime, NaiveTime, TimeZone, Utc};
use chrono_tz::{OffsetComponents, Tz};
use serde_json::Value;

use crate::ChartError;

/// Earliest and latest birth years accepted. The astronomy (ΔT, solar terms) is well
/// defined across this span, and it covers every living person and most historical charts.
pub(crate) const MIN_YEAR: i32 = 1800;
pub(crate) const MAX_YEAR: i32 = 2200;

/// A validated `birth_info`.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct BirthInfo {
    pub date: NaiveDate,
    /// `None` when the person does not know their birth time.
    pub time: Option<NaiveTime>,
    pub tz: Tz,
    /// Degrees east of Greenwich (west negative), when known.
    pub longitude: Option<f64>,
}

/// A local clock reading resolved in its time zone.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Moment {
    pub utc: DateTime<Utc>,
    /// The zone's standard offset from UTC at that moment, without daylight saving.
    pub standard_offset_secs: i64,
    /// Daylight-saving shift in force at that moment (0 outside DST).
    pub dst_offset_secs: i64,
    /// The clock reading happened twice (DST fall-back); the first occurrence was taken.
    pub ambiguous: bool,
}

const DATE_HINT: &str = "give the birth date as YYYY-MM-DD (e.g. \"1990-05-17\")";
const TZ_HINT: &str = "give an IANA time zone name (e.g. \"Asia/Shanghai\")";

impl BirthInfo {
    /// Validates a `birth_info` object. Errors name the field at fault.
    pub fn from_json(value: &Value) -> Result<Self, ChartError> {
        let Some(obj) = value.as_object() else {
            return Err(ChartError::invalid(
                "birth_info",
                format!(
                    "expected an object like {{\"date\": \"1990-05-17\", \"time\": \"08:30\", \"place\": \"Beijing\", \"timezone\": \"Asia/Shanghai\"}}, got {}",
                    kind_of(value)
                ),
            ));
        };
        let date = parse_date(
            present(obj.get("date"))
                .ok_or_else(|| ChartError::missing("birth_info.date", DATE_HINT))?,
        )?;
        let time = match present(obj.get("time")) {
            None => None,
            Some(v) => parse_time(v)?,
        };
        let tz = parse_tz(
            present(obj.get("timezone"))
                .ok_or_else(|| ChartError::missing("birth_info.timezone", TZ_HINT))?,
        )?;
        let longitude = match present(obj.get("longitude")) {
            None => None,
            Some(v) => Some(parse_longitude(v)?),
        };
        check_place(obj)?;
        Ok(Self { date, time, tz, longitude })
    }

    /// Checks every field `value` holds without requiring `date` or `timezone` (a
    /// `birth_info` may be stored a field at a time). When date, time and zone are all given,
    /// the clock reading must exist in that zone.
    pub fn check_present(value: &Value) -> Result<(), ChartError> {
        let Some(obj) = value.as_object() else { return Self::from_json(value).map(|_| ()) };
        let date = present(obj.get("date")).map(parse_date).transpose()?;
        let time = present(obj.get("time")).map(parse_time).transpose()?.flatten();
        let tz = present(obj.get("timezone")).map(parse_tz).transpose()?;
        if let Some(v) = present(obj.get("longitude")) {
            parse_longitude(v)?;
        }
        if let Some(v) = present(obj.get("latitude")) {
            parse_latitude(v)?;
        }
        check_place(obj)?;
        if let (Some(date), Some(time), Some(tz)) = (date, time, tz) {
            Self { date, time: Some(time), tz, longitude: None }.resolve(time)?;
        }
        Ok(())
    }

    /// Resolves the local clock reading `date` + `time` in the birth time zone.
    pub fn resolve(&self, time: NaiveTime) -> Result<Moment, ChartError> {
        let local = NaiveDateTime::new(self.date, time);
        let (zoned, ambiguous) = match self.tz.from_local_datetime(&local) {
            LocalResult::Single(t) => (t, false),
            LocalResult::Ambiguous(first, _) => (first, true),
            LocalResult::None => {
                return Err(ChartError::invalid(
                    "birth_info.time",
                    format!(
                        "{} on {} does not exist in {} (the clocks jumped forward that night); check the time on the birth record",
                        time.format("%H:%M"),
                        self.date,
                        self.tz.name()
                    ),
                ));
            }
        };
        let offset = zoned.offset();
        Ok(Moment {
            utc: zoned.with_timezone(&Utc),
            standard_offset_secs: offset.base_utc_offset().num_seconds(),
            dst_offset_secs: offset.dst_offset().num_seconds(),
            ambiguous,
        })
    }
}

impl BirthInfo {
    /// Like `resolve`, for readings the person did not give (the bounds of the birth day):
    /// a reading skipped by a daylight-saving jump moves one hour later instead of failing.
    pub fn resolve_lenient(&self, time: NaiveTime) -> Result<Moment, ChartError> {
        self.resolve(time).or_else(|_| self.resolve(time + chrono::Duration::hours(1)))
    }
}

fn check_place(obj: &serde_json::Map<String, Value>) -> Result<(), ChartError> {
    for field in ["place", "place_id"] {
        if let Some(v) = present(obj.get(field))
            && !v.is_string()
        {
            return Err(ChartError::invalid(
                &format!("birth_info.{field}"),
                format!("expected text such as \"Beijing\", got {}", kind_of(v)),
            ));
        }
    }
    Ok(())
}

/// A field that is absent, null, or an empty string counts as not given.
fn present(value: Option<&Value>) -> Option<&Value> {
    match value {
        None | Some(Value::Null) => None,
        Some(Value::String(s)) if s.trim().is_empty() => None,
        Some(v) => Some(v),
    }
}

fn parse_date(value: &Value) -> Result<NaiveDate, ChartError> {
    let Some(text) = value.as_str() else {
        return Err(ChartError::invalid(
            "birth_info.date",
            format!("expected text, got {}; {DATE_HINT}", kind_of(value)),
        ));
    };
    let text = text.trim();
    let well_formed = text.len() == 10
        && text
            .char_indices()
            .all(|(i, c)| if i == 4 || i == 7 { c == '-' } else { c.is_ascii_digit() });
    let date = well_formed
        .then(|| NaiveDate::parse_from_str(text, "%Y-%m-%d").ok())
        .flatten()
        .ok_or_else(|| {
            ChartError::invalid(
                "birth_info.date",
                format!("\"{text}\" is not a valid date; {DATE_HINT}"),
            )
        })?;
    let year = chrono::Datelike::year(&date);
    if !(MIN_YEAR..=MAX_YEAR).contains(&year) {
        return Err(ChartError::invalid(
            "birth_info.date",
            format!("year {year} is outside the supported range {MIN_YEAR}-{MAX_YEAR}"),
        ));
    }
    Ok(date)
}

fn parse_time(value: &Value) -> Result<Option<NaiveTime>, ChartError> {
    const HINT: &str = "give the birth time as 24-hour HH:MM (e.g. \"08:30\" or \"23:05\"), or leave it out when unknown";
    let Some(text) = value.as_str() else {
        return Err(ChartError::invalid(
            "birth_info.time",
            format!("expected text, got {}; {HINT}", kind_of(value)),
        ));
    };
    let text = text.trim();
    NaiveTime::parse_from_str(text, "%H:%M")
        .or_else(|_| NaiveTime::parse_from_str(text, "%H:%M:%S"))
        .map(Some)
        .map_err(|_| {
            ChartError::invalid(
                "birth_info.time",
                format!("\"{text}\" is not a valid time; {HINT}"),
            )
        })
}

fn parse_tz(value: &Value) -> Result<Tz, ChartError> {
    let Some(text) = value.as_str() else {
        return Err(ChartError::invalid(
            "birth_info.timezone",
            format!("expected text, got {}; {TZ_HINT}", kind_of(value)),
        ));
    };
    let text = text.trim();
    text.parse::<Tz>().map_err(|_| {
        ChartError::invalid(
            "birth_info.timezone",
            format!("\"{text}\" is not an IANA time zone name (e.g. \"Asia/Shanghai\")"),
        )
    })
}

fn parse_longitude(value: &Value) -> Result<f64, ChartError> {
    const HINT: &str = "give degrees east of Greenwich as a number, west negative (e.g. 116.4 for Beijing, -74.0 for New York)";
    match value.as_f64() {
        Some(lon) if (-180.0..=180.0).contains(&lon) => Ok(lon),
        Some(lon) => Err(ChartError::invalid(
            "birth_info.longitude",
            format!("{lon} is outside -180..180; {HINT}"),
        )),
        None => Err(ChartError::invalid(
            "birth_info.longitude",
            format!("expected a number, got {}; {HINT}", kind_of(value)),
        )),
    }
}

fn parse_latitude(value: &Value) -> Result<f64, ChartError> {
    match value.as_f64() {
        Some(lat) if (-90.0..=90.0).contains(&lat) => Ok(lat),
        _ => Err(ChartError::invalid(
            "birth_info.latitude",
            format!(
                "{} is not a latitude; give degrees north as a number in -90..90, south negative (e.g. 39.9)",
                kind_of(value)
            ),
        )),
    }
}

pub(crate) fn kind_of(value: &Value) -> String {
    match value {
        Value::Null => "null".into(),
        Value::Bool(b) => format!("the boolean {b}"),
        Value::Number(n) => format!("the number {n}"),
        Value::String(s) => format!("the text \"{s}\""),
        Value::Array(_) => "a list".into(),
        Value::Object(_) => "an object".into(),
    }
}

#[cfg(test)]
#[path = "birth_tests.rs"]
mod tests;
