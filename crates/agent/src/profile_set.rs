//! Setting one profile path the way a person does (`vibe profile set PATH VALUE`): a write
//! that touches `birth_info` gets its place looked up and every field checked by
//! `vibe-charts` before anything is stored, and a chart preference is checked too, so bad
//! input changes nothing. Other paths are stored as given. Path rules and transactions are
//! the store's; the place and field rules are the charts'.

use serde_json::{Map, Value, json};
use vibe_charts::{ChartError, ChartOptions, PreparedBirthInfo};
use vibe_store::Store;

use crate::CoreError;

/// Fields a place determines: replaced when the place changes.
const FROM_PLACE: [&str; 4] = ["longitude", "latitude", "place_id", "timezone"];

/// Sets `path` to `value` for `user`. For `birth_info` and its fields, returns the
/// `birth_info` as stored (with the resolved place), the place this write looked up (to
/// confirm back with its country) and whether a zone given by hand is not the place's;
/// else `None`.
///
/// Errors: a place that is unknown or ambiguous (the message lists the candidates and how
/// to pick one), an impossible date, time or time zone, an unknown chart preference value
/// (all [`CoreError::Chart`], naming the field), or what the store refuses.
pub fn set_profile_path(
    store: &Store,
    user: &str,
    path: &str,
    value: Value,
) -> Result<Option<PreparedBirthInfo>, CoreError> {
    let segments: Vec<&str> = path.split('.').collect();
    if segments.iter().any(|s| s.is_empty()) {
        // A malformed path: the store says what is wrong with it.
        store.set_path(user, path, value)?;
        return Ok(None);
    }
    match segments.as_slice() {
        ["birth_info"] if value.is_object() => {
            let ready = vibe_charts::prepare_birth(&value)?;
            store.set_path(user, "birth_info", ready.birth_info.clone())?;
            Ok(Some(ready))
        }
        ["birth_info", field] => {
            let stored = store.profile(user)?.get("birth_info").cloned().unwrap_or(Value::Null);
            let mut patch = Map::new();
            patch.insert((*field).to_string(), value);
            let ready = vibe_charts::prepare_birth(&merge_birth_info(&stored, &patch))?;
            store.set_path(user, "birth_info", ready.birth_info.clone())?;
            Ok(Some(ready))
        }
        ["birth_info", _, _, ..] => Err(ChartError::InvalidField {
            field: path.to_string(),
            message:
                "birth_info fields hold plain values; set the field itself, e.g. `birth_info.place`"
                    .into(),
        }
        .into()),
        ["preferences"] => {
            ChartOptions::from_preferences(Some(&value))?;
            store.set_path(user, path, value)?;
            Ok(None)
        }
        ["preferences", "voice_mode"] => {
            let known = value.as_str().and_then(vibe_wire::VoiceMode::parse).is_some();
            if !known && !value.is_null() {
                return Err(CoreError::InvalidRequest(format!(
                    "preferences.voice_mode must be warm, direct or playful, found {value}"
                )));
            }
            store.set_path(user, path, value)?;
            Ok(None)
        }
        ["preferences", "reminder_times"] => {
            vibe_protocol::check_reminder_times(&value).map_err(CoreError::InvalidRequest)?;
            store.set_path(user, path, value)?;
            Ok(None)
        }
        ["preferences", "zi_hour_day_change"] => {
            ChartOptions::from_preferences(Some(&json!({"zi_hour_day_change": value.clone()})))?;
            store.set_path(user, path, value)?;
            Ok(None)
        }
        _ => {
            store.set_path(user, path, value)?;
            Ok(None)
        }
    }
}

/// `stored` with the fields of `patch` set (`null` removes one). A new `place` or
/// `place_id` without a longitude in the same patch drops what the old place determined
/// (longitude, latitude, place_id, time zone), so the new place decides them.
pub(crate) fn merge_birth_info(stored: &Value, patch: &Map<String, Value>) -> Value {
    let mut merged = stored.as_object().cloned().unwrap_or_default();
    let new_place = ["place", "place_id"].iter().any(|f| patch.contains_key(*f))
        && !patch.contains_key("longitude");
    if new_place {
        for field in FROM_PLACE {
            if !patch.contains_key(field) {
                merged.remove(field);
            }
        }
    }
    for (k, v) in patch {
        if v.is_null() {
            merged.remove(k);
        } else {
            merged.insert(k.clone(), v.clone());
        }
    }
    Value::Object(merged)
}

#[cfg(test)]
#[path = "profile_set_tests.rs"]
mod tests;
