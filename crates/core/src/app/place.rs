//! `lookup_place`: a typed birth place resolved against the offline gazetteer, so a front end
//! can confirm it back ("Auckland, New Zealand"), let the person choose among places of one
//! name, or warn that the given zone is not the place's. The lookup rules are `vibe-charts`';
//! storing a `birth_info` is `set_profile_path`'s.

use serde_json::{Map, Value, json};
use vibe_charts::gazetteer::{Lookup, Place, lookup_in};
use vibe_charts::{PreparedBirthInfo, ZoneMismatch};
use vibe_wire::command::{
    LookupPlaceRequest, PlaceLookup, PlaceLookupStatus, PlaceView, ZoneWarning,
};

use crate::app::{App, AppError};

impl App {
    /// `lookup_place`: what `query` resolves to (with the zone and date the person gave).
    pub fn lookup_place(&self, request: &LookupPlaceRequest) -> Result<PlaceLookup, AppError> {
        Ok(lookup_place(request))
    }
}

pub(crate) fn lookup_place(request: &LookupPlaceRequest) -> PlaceLookup {
    let zone = request.timezone.as_deref().map(str::trim).filter(|z| !z.is_empty());
    match lookup_in(&request.query, zone) {
        Lookup::Found(place) => {
            let mut info = Map::new();
            info.insert("place_id".into(), json!(place.id));
            if let Some(zone) = zone {
                info.insert("timezone".into(), json!(zone));
            }
            if let Some(date) = request.date.as_deref().filter(|d| !d.trim().is_empty()) {
                info.insert("date".into(), json!(date.trim()));
            }
            // A bad zone or date is set_profile_path's to refuse; no warning then.
            let zone_warning = vibe_charts::prepare_birth(&Value::Object(info))
                .ok()
                .and_then(|p| p.zone_mismatch)
                .map(zone_warning);
            PlaceLookup {
                status: PlaceLookupStatus::Found,
                candidates: vec![place_view(&place)],
                zone_warning,
            }
        }
        Lookup::Ambiguous(places) => PlaceLookup {
            status: PlaceLookupStatus::Ambiguous,
            candidates: places.iter().take(LIST_AT_MOST).map(place_view).collect(),
            zone_warning: None,
        },
        Lookup::NotFound { ignoring_qualifiers } => PlaceLookup {
            status: PlaceLookupStatus::NotFound,
            candidates: ignoring_qualifiers.iter().take(LIST_AT_MOST).map(place_view).collect(),
            zone_warning: None,
        },
    }
}

/// How many candidates a front end is offered (the most populous first).
const LIST_AT_MOST: usize = 12;

pub(crate) fn place_view(p: &Place) -> PlaceView {
    PlaceView {
        id: p.id.clone(),
        name_en: p.name_en.clone(),
        name_zh: p.name_zh.clone(),
        region_en: p.admin_en.first().cloned().unwrap_or_default(),
        region_zh: p.admin_zh.first().cloned().unwrap_or_default(),
        country: p.country.clone(),
        country_en: p.country_en.clone(),
        country_zh: p.country_zh.clone(),
        timezone: p.timezone.clone(),
        longitude: p.longitude,
        latitude: p.latitude,
        label_en: p.confirmation_en(),
        label_zh: p.confirmation_zh(),
    }
}

pub(crate) fn zone_warning(m: ZoneMismatch) -> ZoneWarning {
    ZoneWarning { given: m.given, place_zone: m.place_zone, message: m.message }
}

/// The place and zone warning of a `birth_info` write, for `ProfileSet`.
pub(crate) fn birth_notes(
    ready: Option<PreparedBirthInfo>,
) -> (Option<PlaceView>, Option<ZoneWarning>) {
    match ready {
        Some(r) => (r.place.as_ref().map(place_view), r.zone_mismatch.map(zone_warning)),
        None => (None, None),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ask(query: &str, timezone: Option<&str>) -> PlaceLookup {
        lookup_place(&LookupPlaceRequest {
            query: query.into(),
            timezone: timezone.map(Into::into),
            date: Some("1990-05-17".into()),
        })
    }

    #[test]
    fn a_shared_chinese_name_offers_both_places_with_their_countries() {
        let out = ask("奥克兰", None);
        assert_eq!(out.status, PlaceLookupStatus::Ambiguous);
        let labels: Vec<&str> = out.candidates.iter().map(|c| c.label_zh.as_str()).collect();
        assert!(labels.contains(&"奥克兰，新西兰"), "{labels:?}");
        assert!(out.candidates.iter().any(|c| c.country == "US" && c.region_en == "California"));
    }

    #[test]
    fn a_unique_place_is_confirmed_and_a_foreign_zone_warned() {
        let out = ask("Auckland", Some("Asia/Shanghai"));
        assert_eq!(out.status, PlaceLookupStatus::Found);
        assert_eq!(out.candidates[0].label_en, "Auckland, New Zealand");
        let warning = out.zone_warning.expect("Asia/Shanghai is not Auckland's zone");
        assert_eq!(warning.place_zone, "Pacific/Auckland");
        assert!(ask("Auckland", Some("Pacific/Auckland")).zone_warning.is_none());
        assert!(ask("Auckland", None).zone_warning.is_none());
    }
}
