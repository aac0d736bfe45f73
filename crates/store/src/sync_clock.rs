//! The hybrid logical clock of sync (docs/sync.md#for-engineers): a wall-clock millisecond, a
//! counter for events within one millisecond (or after a peer's clock ran ahead), and the device
//! that issued it, so two values are never equal and sort the same on every device. It owns the
//! value, its text form and the two clock steps (a local event, a value seen from a peer); where
//! the last value is kept is `sync_log`'s business.

use std::cmp::Ordering;
use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// One clock value. Ordered by time, then counter, then device id.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Hlc {
    /// Milliseconds since the Unix epoch.
    pub millis: u64,
    pub counter: u32,
    pub device: String,
}

impl Hlc {
    /// The clock's start for `device`, before any event.
    pub fn zero(device: &str) -> Self {
        Self { millis: 0, counter: 0, device: device.to_string() }
    }

    /// The value of a local event at wall time `now_ms`, after `self` (the last value issued
    /// or seen): later than `self` even when the wall clock went back.
    pub fn tick(&self, now_ms: u64, device: &str) -> Self {
        if now_ms > self.millis {
            Self { millis: now_ms, counter: 0, device: device.to_string() }
        } else {
            Self { millis: self.millis, counter: self.counter + 1, device: device.to_string() }
        }
    }

    /// The later of `self` and a value seen from a peer, so the next local event comes after
    /// everything this device has seen.
    pub fn seen(&self, other: &Hlc) -> Self {
        if other > self { other.clone() } else { self.clone() }
    }
}

impl Ord for Hlc {
    fn cmp(&self, other: &Self) -> Ordering {
        (self.millis, self.counter, &self.device).cmp(&(other.millis, other.counter, &other.device))
    }
}

impl PartialOrd for Hlc {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

/// `<millis:15>.<counter:8>.<device>`: fixed-width numbers, so the text sorts as the value does.
impl fmt::Display for Hlc {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:015}.{:08}.{}", self.millis, self.counter, self.device)
    }
}

/// A clock value's text that is not `<millis>.<counter>.<device>`.
#[derive(Debug, thiserror::Error)]
#[error("not a sync clock value: \"{0}\" (expected <millis>.<counter>.<device id>)")]
pub struct BadHlc(String);

impl FromStr for Hlc {
    type Err = BadHlc;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let bad = || BadHlc(s.chars().take(80).collect());
        let mut parts = s.splitn(3, '.');
        let millis = parts.next().and_then(|p| p.parse().ok()).ok_or_else(bad)?;
        let counter = parts.next().and_then(|p| p.parse().ok()).ok_or_else(bad)?;
        let device = parts.next().filter(|d| !d.is_empty()).ok_or_else(bad)?;
        Ok(Self { millis, counter, device: device.to_string() })
    }
}

impl Serialize for Hlc {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Hlc {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let text = String::deserialize(d)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::Hlc;

    #[test]
    fn a_local_event_is_later_than_the_last_value_even_when_the_wall_clock_went_back() {
        let last = Hlc { millis: 1_000, counter: 3, device: "b".into() };
        let next = last.tick(900, "a");
        assert!(next > last);
        assert_eq!((next.millis, next.counter), (1_000, 4));
        assert_eq!(last.tick(2_000, "a"), Hlc { millis: 2_000, counter: 0, device: "a".into() });
    }

    #[test]
    fn after_seeing_a_peer_s_value_the_next_event_comes_after_it() {
        let mine = Hlc { millis: 10, counter: 0, device: "a".into() };
        let theirs = Hlc { millis: 50, counter: 7, device: "b".into() };
        let next = mine.seen(&theirs).tick(20, "a");
        assert!(next > theirs);
    }

    #[test]
    fn the_text_form_sorts_as_the_value_and_reads_back() {
        let a = Hlc { millis: 9, counter: 10, device: "x".into() };
        let b = Hlc { millis: 10, counter: 0, device: "a".into() };
        assert!(a < b);
        assert!(a.to_string() < b.to_string());
        assert_eq!(a.to_string().parse::<Hlc>().unwrap(), a);
        assert!("12.x".parse::<Hlc>().is_err());
    }
}
