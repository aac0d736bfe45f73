//! Skill charts kept in the profile: read `birth_info`, compute the chart with `vibe-charts`,
//! store it at `skills.<skill>.chart`, and recompute only when `birth_info` (or the chart
//! convention version) changed since, or when forced. The chart rules themselves live in
//! `vibe-charts`; which skill has which `compute_type` is the skill registry's business.

use serde_json::Value;
use vibe_charts::ChartError;
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
/// computed, when the chart's convention version is out of date, or when `force` is set.
///
/// Errors: `birth_info` missing or malformed (the message names the field, e.g.
/// `birth_info.timezone`), an unknown `compute_type`, or a store failure.
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
    let stored = profile.pointer(&format!("/skills/{}/chart", escape(skill_name)));
    if !force
        && let Some(chart) = stored
        && is_current(chart, compute_type, &birth_info)
    {
        return Ok(ChartOutcome { chart: chart.clone(), recomputed: false });
    }
    let chart = vibe_charts::compute(compute_type, &birth_info)?;
    store.set_path(user, &format!("skills.{skill_name}.chart"), chart.clone())?;
    Ok(ChartOutcome { chart, recomputed: true })
}

/// A stored chart is current when it was computed by the same type, at the same convention
/// version, from exactly this `birth_info`.
fn is_current(chart: &Value, compute_type: &str, birth_info: &Value) -> bool {
    chart.get("compute_type").and_then(Value::as_str) == Some(compute_type.trim())
        && chart.get("version").and_then(Value::as_u64) == vibe_charts::chart_version(compute_type)
        && chart.get("input") == Some(birth_info)
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
}
