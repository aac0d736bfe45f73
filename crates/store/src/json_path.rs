//! Dotted paths into JSON documents (`progress.milestones`) and the deep merge
//! (docs/design.md#state-semantics): objects merge recursively, anything else replaces, JSON `null`
//! removes the key. Pure functions over `serde_json::Value`; no IO.

use serde_json::{Map, Value};

use crate::error::{Result, StoreError};

/// Split a dotted path into segments, refusing empty ones (`a..b`, `.a`, `a.`).
pub fn parse_dotted<'a>(path: &'a str, what: &str) -> Result<Vec<&'a str>> {
    if path.is_empty() {
        return Err(StoreError::invalid(format!(
            "{what} is empty; give a dotted path such as \"progress.milestones\""
        )));
    }
    let segments: Vec<&str> = path.split('.').collect();
    if let Some(pos) = segments.iter().position(|s| s.trim().is_empty()) {
        return Err(StoreError::invalid(format!(
            "{what} \"{path}\" has an empty segment (part {}); remove the extra dot",
            pos + 1
        )));
    }
    crate::bounds::check_path(&segments, path, what)?;
    Ok(segments)
}

/// Deep-merge `patch` into `target`: objects merge key by key, recursively; any other value
/// replaces; a `null` in the patch removes that key.
pub fn deep_merge(target: &mut Value, patch: Value) {
    match (target, patch) {
        (Value::Object(t), Value::Object(p)) => merge_maps(t, p),
        (t, p) => *t = strip_nulls(p),
    }
}

fn merge_maps(target: &mut Map<String, Value>, patch: Map<String, Value>) {
    for (key, value) in patch {
        if value.is_null() {
            target.remove(&key);
            continue;
        }
        match target.get_mut(&key) {
            Some(existing @ Value::Object(_)) if value.is_object() => deep_merge(existing, value),
            _ => {
                target.insert(key, strip_nulls(value));
            }
        }
    }
}

/// A value newly inserted by a merge keeps no `null` members: `null` means "absent".
fn strip_nulls(value: Value) -> Value {
    match value {
        Value::Object(map) => Value::Object(
            map.into_iter()
                .filter(|(_, v)| !v.is_null())
                .map(|(k, v)| (k, strip_nulls(v)))
                .collect(),
        ),
        other => other,
    }
}

/// Walk `segments` from `root`, creating missing objects; fails when an existing value on the
/// way is not an object. `shown` names the path for error messages.
pub fn ensure_object_path<'v>(
    root: &'v mut Value,
    segments: &[&str],
    shown: &str,
) -> Result<&'v mut Map<String, Value>> {
    let mut current = root;
    let mut walked = String::new();
    for segment in segments {
        let map = as_object_mut(current, &walked, shown)?;
        if !walked.is_empty() {
            walked.push('.');
        }
        walked.push_str(segment);
        current = map.entry(segment.to_string()).or_insert_with(|| Value::Object(Map::new()));
    }
    as_object_mut(current, &walked, shown)
}

fn as_object_mut<'v>(
    value: &'v mut Value,
    walked: &str,
    shown: &str,
) -> Result<&'v mut Map<String, Value>> {
    let kind = type_name(value);
    value.as_object_mut().ok_or_else(|| {
        StoreError::invalid(format!(
            "cannot write under \"{walked}\" for \"{shown}\": it holds {kind}, not an object; \
             choose another path or replace \"{walked}\" first"
        ))
    })
}

/// "a string", "a list", ... for messages.
pub fn type_name(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "a list",
        Value::Object(_) => "an object",
    }
}

/// Set (or with `null`, remove) the value at `segments` in `doc`.
pub(crate) fn set_in(doc: &mut Value, segments: &[&str], shown: &str, value: Value) -> Result<()> {
    let (parents, last) = segments.split_at(segments.len() - 1);
    let parent = ensure_object_path(doc, parents, shown)?;
    if value.is_null() {
        parent.remove(last[0]);
    } else {
        parent.insert(last[0].to_string(), value);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn deep_merge_merges_objects_replaces_others_and_null_removes() {
        let mut doc = json!({"a": {"x": 1, "y": {"k": true}}, "list": [1, 2], "gone": 5});
        deep_merge(
            &mut doc,
            json!({"a": {"y": {"z": 2}, "x": null}, "list": [3], "gone": null, "new": {"n": null, "m": 1}}),
        );
        assert_eq!(doc, json!({"a": {"y": {"k": true, "z": 2}}, "list": [3], "new": {"m": 1}}));
        // An object replacing a non-object keeps no nulls either (found by the model test).
        let mut list = json!([1]);
        deep_merge(&mut list, json!({"l": null, "k": 1}));
        assert_eq!(list, json!({"k": 1}));
    }

    #[test]
    fn empty_segments_are_refused_with_their_position() {
        let err = parse_dotted("progress..milestones", "path").unwrap_err().to_string();
        assert!(err.contains("empty segment (part 2)"), "{err}");
        assert!(parse_dotted("", "path").is_err());
        assert!(parse_dotted("a.", "path").is_err());
        assert_eq!(parse_dotted("a.b", "path").unwrap(), vec!["a", "b"]);
    }

    #[test]
    fn ensure_object_path_creates_parents_and_refuses_non_objects() {
        let mut doc = json!({"a": {"b": "text"}});
        ensure_object_path(&mut doc, &["a", "c", "d"], "a.c.d").unwrap();
        assert_eq!(doc, json!({"a": {"b": "text", "c": {"d": {}}}}));
        let err = ensure_object_path(&mut doc, &["a", "b", "x"], "a.b.x").unwrap_err().to_string();
        assert!(err.contains("\"a.b\"") && err.contains("a string"), "{err}");
    }
}
