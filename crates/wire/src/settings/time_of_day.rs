//! [`TimeOfDay`]: a time of day as `HH:MM` in files and on the wire (quiet hours, the
//! person's reminder times), parsed strictly so a malformed time is refused when read.

use std::fmt;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// A time of day, `HH:MM` (00:00–23:59) in files and on the wire.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
#[cfg_attr(test, derive(ts_rs::TS), ts(type = "string"))]
pub struct TimeOfDay(u32);

// By hand rather than `serde(try_from, into)`, which ts-rs cannot read (it warns at build).
impl Serialize for TimeOfDay {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for TimeOfDay {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        TimeOfDay::try_from(String::deserialize(deserializer)?).map_err(serde::de::Error::custom)
    }
}

impl TimeOfDay {
    /// `HH:MM` with two digits each, hours 00–23, minutes 00–59.
    pub fn parse(text: &str) -> Option<TimeOfDay> {
        let (h, m) = text.split_once(':')?;
        if h.len() != 2 || m.len() != 2 || !(h.bytes().chain(m.bytes())).all(|b| b.is_ascii_digit())
        {
            return None;
        }
        let (h, m) = (h.parse::<u32>().ok()?, m.parse::<u32>().ok()?);
        (h < 24 && m < 60).then_some(TimeOfDay(h * 60 + m))
    }

    /// Minutes after midnight.
    pub fn minute(self) -> u32 {
        self.0
    }

    pub fn from_minute(minute: u32) -> TimeOfDay {
        TimeOfDay(minute % (24 * 60))
    }
}

impl fmt::Display for TimeOfDay {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:02}:{:02}", self.0 / 60, self.0 % 60)
    }
}

impl TryFrom<String> for TimeOfDay {
    type Error = String;
    fn try_from(text: String) -> Result<Self, Self::Error> {
        TimeOfDay::parse(&text)
            .ok_or_else(|| format!("\"{text}\" is not a time of day: write HH:MM, 00:00 to 23:59"))
    }
}

impl From<TimeOfDay> for String {
    fn from(t: TimeOfDay) -> String {
        t.to_string()
    }
}
