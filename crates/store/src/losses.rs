//! What a write would remove from a skill's state: the lines an approval asks about before a
//! model replaces or deletes data (docs/tools.md, "Writes that remove data"). Pure functions
//! over JSON; recording the change and undoing it are `undo`'s.

use serde_json::Value;

use crate::change::describe;
use crate::json_path::type_name;

/// What a change would remove from `current` (the skill's whole state) when `patch` (rooted at
/// the skill) is deep-merged into it: one line per non-empty list or object replaced or deleted,
/// e.g. `replaces journal (a list of 50 entries) with an empty object`. Empty when nothing is
/// lost (new keys, merged objects, changed scalars).
pub fn losses_of_merge(current: &Value, patch: &Value) -> Vec<String> {
    let mut out = Vec::new();
    merge_losses(current, patch, "", &mut out);
    out
}

fn merge_losses(current: &Value, patch: &Value, at: &str, out: &mut Vec<String>) {
    let (Value::Object(cur), Value::Object(patch)) = (current, patch) else { return };
    for (key, new) in patch {
        let path = if at.is_empty() { key.clone() } else { format!("{at}.{key}") };
        let Some(old) = cur.get(key) else { continue };
        if !holds_data(old) {
            continue;
        }
        match (old, new) {
            (_, Value::Null) => out.push(format!("deletes {path} ({})", describe(Some(old)))),
            (Value::Object(_), Value::Object(_)) => merge_losses(old, new, &path, out),
            _ => out.push(format!(
                "replaces {path} ({}) with {}",
                describe(Some(old)),
                describe_new(new)
            )),
        }
    }
}

/// A non-empty list or object: replacing it loses entries.
fn holds_data(value: &Value) -> bool {
    match value {
        Value::Array(items) => !items.is_empty(),
        Value::Object(map) => !map.is_empty(),
        _ => false,
    }
}

fn describe_new(value: &Value) -> String {
    match value {
        Value::Array(_) | Value::Object(_) => describe(Some(value)),
        other => type_name(other).to_string(),
    }
}
