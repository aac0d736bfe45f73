//! Skill charts kept in the profile: read `birth_info`, compute the chart with `vibe-charts`,
//! store it at `skills.<skill>.chart`, and recompute only when `birth_info`, the chart
//! preferences (`preferences.zi_hour_day_change`) or the chart convention version changed
//! since, or when forced. The chart rules themselves live in
//! `vibe-charts`; which skill has which `compute_type` is the skill registry's business.

use serde_json::Value;
use vibe_charts::{ChartError, ChartOptions};
use vibe_store::Store;

use crate::CoreError;

/// A chart and whether this call computed it (`false`: the stored one was still current).
#[derive(Debug, Clone, PartialEq)]
pub struct ChartOutcome {
    pub chart: Value,
    pub recomputed: bool,
}

/// Returns the current chart of `skill_name` for `user`, computing and storing it at
/// `skills.<skill_name>.chart` when there is none, when `birth_info` changed since it was
/// computed, when the chart's convention version or the preferences it was computed with
/// are out of date, or when `force` is set.
///
/// Errors: `birth_info` missing or malformed (the message names the field, e.g.
/// `birth_info.timezone`), a malformed chart preference (`preferences.zi_hour_day_change`),
/// an unknown `compute_type`, or a store failure.
pub fn ensure_chart(
    store: &Store,
    user: &str,
    skill_name: &str,
    compute_type: &str,
    force: bool,
) -> Result<ChartOutcome, CoreError> {
    let profile = store.profile(user)?;
    let birth_info = profile.get("birth_info").cloned().unwrap_or(Value::Null);
    if is_empty(&birth_info) {
        return Err(ChartError::MissingField {
            field: "birth_info".into(),
            hint: "the profile has no birth information yet; it needs at least the birth date and IANA time zone, e.g. {\"date\": \"1990-05-17\", \"time\": \"08:30\", \"place\": \"Beijing\", \"timezone\": \"Asia/Shanghai\"}".into(),
        }
        .into());
    }
    let options = ChartOptions::from_preferences(profile.get("preferences"))?;
    let stored = profile.pointer(&format!("/skills/{}/chart", escape(skill_name)));
    if !force
        && let Some(chart) = stored
        && is_current(chart, compute_type, &birth_info, &options)
    {
        return Ok(ChartOutcome { chart: chart.clone(), recomputed: false });
    }
    let chart = vibe_charts::compute_with(compute_type, &birth_info, &options)?;
    store.set_path(user, &format!("skills.{skill_name}.chart"), chart.clone())?;
    Ok(ChartOutcome { chart, recomputed: true })
}

/// A stored chart is current when it was computed by the same type, at the same convention
/// version, from exactly this `birth_info`, with the same preferences.
fn is_current(
    chart: &Value,
    compute_type: &str,
    birth_info: &Value,
    options: &ChartOptions,
) -> bool {
    let chart_options = chart.get("options").cloned().unwrap_or_else(|| serde_json::json!({}));
    chart.get("compute_type").and_then(Value::as_str) == Some(compute_type.trim())
        && chart.get("version").and_then(Value::as_u64) == vibe_charts::chart_version(compute_type)
        && chart.get("input") == Some(birth_info)
        && chart_options == options.to_json(compute_type)
}

fn is_empty(birth_info: &Value) -> bool {
    match birth_info {
        Value::Null => true,
        Value::Object(map) => map.values().all(Value::is_null),
        _ => false,
    }
}

/// Escapes a key for a JSON pointer (RFC 6901).
fn escape(key: &str) -> String {
    key.replace('~', "~0").replace('/', "~1")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn empty_birth_info_counts_as_missing() {
        assert!(is_empty(&Value::Null));
        assert!(is_empty(&serde_json::json!({})));
        assert!(is_empty(&serde_json::json!({"date": null})));
        assert!(!is_empty(&serde_json::json!({"date": "1990-05-17"})));
        assert!(!is_empty(&serde_json::json!("1990-05-17")));
    }

    #[test]
    fn pointer_keys_are_escaped() {
        assert_eq!(escape("a/b~c"), "a~1b~0c");
    }

    #[test]
    fn the_zi_hour_preference_decides_the_day_and_a_change_recomputes() {
        let store = Store::open_in_memory().unwrap();
        let user = vibe_store::LOCAL_USER;
        let birth =
            serde_json::json!({"date": "1988-02-15", "time": "23:30", "timezone": "Asia/Shanghai"});
        store.set_path(user, "birth_info", birth).unwrap();
        let day = |o: &ChartOutcome| o.chart["pillars"]["day"].as_str().unwrap().to_string();
        let default = ensure_chart(&store, user, "bazi", "bazi", false).unwrap();
        assert_eq!(day(&default), "辛丑", "23:00 is the default day boundary");
        store.set_path(user, "preferences.zi_hour_day_change", "24:00".into()).unwrap();
        let midnight = ensure_chart(&store, user, "bazi", "bazi", false).unwrap();
        assert!(midnight.recomputed, "a changed preference makes the stored chart stale");
        assert_eq!(day(&midnight), "庚子");
        assert!(!ensure_chart(&store, user, "bazi", "bazi", false).unwrap().recomputed);
        store.set_path(user, "preferences.zi_hour_day_change", "noon".into()).unwrap();
        let e = ensure_chart(&store, user, "bazi", "bazi", false).unwrap_err();
        assert!(e.to_string().starts_with("preferences.zi_hour_day_change:"), "{e}");
    }
}
