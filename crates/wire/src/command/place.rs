//! Birth places: `lookup_place` (what a typed place name resolves to, so the app can confirm
//! it back or let the person choose among several) and what `set_profile_path` says about the
//! place of a `birth_info` it stored.

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// One place of the offline gazetteer, as a person is told it back or picks it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct PlaceView {
    /// What `birth_info.place_id` takes to pick this place (`g2193733`, `cn320500`).
    pub id: String,
    pub name_en: String,
    /// Empty when no Chinese name is known.
    pub name_zh: String,
    /// First-level division (province, state), empty when unknown.
    pub region_en: String,
    pub region_zh: String,
    /// ISO 3166 code and the country's names.
    pub country: String,
    pub country_en: String,
    pub country_zh: String,
    /// IANA zone (Beijing time for all of mainland China).
    pub timezone: String,
    pub longitude: f64,
    pub latitude: f64,
    /// `Auckland, New Zealand`; `Portland, Oregon, United States`.
    pub label_en: String,
    /// `奥克兰，新西兰`.
    pub label_zh: String,
}

/// The time zone given with a place keeps another clock than the place's own.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct ZoneWarning {
    pub given: String,
    /// The place's zone, offered instead.
    pub place_zone: String,
    /// The warning in English, naming both zones and how to switch.
    pub message: String,
}

/// `lookup_place`: a place name as the person typed it (`Portland`, `奥克兰, 新西兰`), with the
/// time zone and date they gave, if any (a zone settles a name shared across zones; both tell
/// whether the zone is the place's).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct LookupPlaceRequest {
    pub query: String,
    #[serde(default)]
    pub timezone: Option<String>,
    #[serde(default)]
    pub date: Option<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum PlaceLookupStatus {
    /// One place: confirm it back (`candidates` holds it alone).
    Found,
    /// Several places of comparable size: the person chooses (most populous first).
    Ambiguous,
    /// Nothing of that name (`candidates` lists what the name alone matches when the part
    /// after a comma ruled everything out).
    NotFound,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct PlaceLookup {
    pub status: PlaceLookupStatus,
    pub candidates: Vec<PlaceView>,
    /// For a place found: the given zone is not its own.
    pub zone_warning: Option<ZoneWarning>,
}

/// `set_profile_path`'s answer: the whole profile, and for a `birth_info` write that looked
/// a place up, the place (to confirm back) and a warning when the given zone is not its own.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct ProfileSet {
    pub profile: Value,
    pub place: Option<PlaceView>,
    pub zone_warning: Option<ZoneWarning>,
}
