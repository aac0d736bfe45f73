//! What one change to the person's data replaced, and recording it in the undo history
//! (`state_history`) in the caller's transaction (docs/design.md#undo): who made it
//! ([`ChangeBy`]), what it changed ([`HistoryTarget`]), what it replaced ([`Before`]: the
//! whole previous value, the previous values of the top-level keys a write touches, or for an
//! append only the entries it trimmed), its one-line summary, and the row (`change_record`:
//! recording and pruning). The write paths in `state`, `profile` and `list_edit` call it;
//! listing and inverting changes is `undo`'s. It must not decide what a change means.

use rusqlite::{Connection, OptionalExtension, params};
use serde::Serialize;
use serde_json::{Map, Value};

use crate::error::Result;
use crate::skill_rows;

/// Changes older than this many days are pruned.
pub const HISTORY_DAYS: i64 = 30;
/// A destructive change (and every later change of its target) is kept this many days,
/// however many changes follow it.
pub const DESTRUCTIVE_HISTORY_DAYS: i64 = 90;
/// At most this many changes are kept per skill (and for the profile).
pub const HISTORY_ROWS: i64 = 200;
/// Old rows are pruned on every this-many-th recorded change.
pub(crate) const PRUNE_EVERY: i64 = 16;

/// The `target` of the profile's own sections (skill ids cannot start with '@').
const PROFILE_TARGET: &str = "@profile";

/// Who made a change.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "by", rename_all = "snake_case")]
pub enum ChangeBy {
    /// A model's tool call, in this run.
    Model { run_id: String },
    /// The `vibe` command line.
    Cli,
    /// The desktop app (or any in-process front end).
    App,
    /// A profile import.
    Import,
}

impl ChangeBy {
    pub(crate) fn as_str(&self) -> &'static str {
        match self {
            Self::Model { .. } => "model",
            Self::Cli => "cli",
            Self::App => "app",
            Self::Import => "import",
        }
    }

    pub(crate) fn run_id(&self) -> Option<&str> {
        match self {
            Self::Model { run_id } => Some(run_id),
            _ => None,
        }
    }

    pub(crate) fn from_row(by: &str, run_id: Option<String>) -> Self {
        match by {
            "model" => Self::Model { run_id: run_id.unwrap_or_default() },
            "cli" => Self::Cli,
            "import" => Self::Import,
            _ => Self::App,
        }
    }
}

/// Whose history: one skill's state, or the profile's own sections.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HistoryTarget {
    Skill(String),
    Profile,
}

impl HistoryTarget {
    pub(crate) fn key(&self) -> &str {
        match self {
            Self::Skill(skill) => skill,
            Self::Profile => PROFILE_TARGET,
        }
    }

    pub(crate) fn shown(&self) -> String {
        match self {
            Self::Skill(skill) => format!("skill {skill}"),
            Self::Profile => "the profile".into(),
        }
    }
}

/// A value described in a few words, for summaries and approval reasons.
pub fn describe(value: Option<&Value>) -> String {
    match value {
        None | Some(Value::Null) => "nothing".into(),
        Some(Value::Array(items)) if items.is_empty() => "an empty list".into(),
        Some(Value::Array(items)) if items.len() == 1 => "a list of 1 entry".into(),
        Some(Value::Array(items)) => format!("a list of {} entries", items.len()),
        Some(Value::Object(map)) if map.is_empty() => "an empty object".into(),
        Some(Value::Object(map)) if map.len() == 1 => "an object with 1 field".into(),
        Some(Value::Object(map)) => format!("an object with {} fields", map.len()),
        Some(Value::String(text)) => {
            let short: String = text.chars().take(40).collect();
            if short.len() < text.len() { format!("\"{short}…\"") } else { format!("\"{text}\"") }
        }
        Some(other @ (Value::Bool(_) | Value::Number(_))) => other.to_string(),
    }
}

/// "`path`: before → after".
pub(crate) fn summary(path: &str, before: Option<&Value>, after: Option<&Value>) -> String {
    format!("{path}: {} → {}", describe(before), describe(after))
}

/// The value at a dotted path inside `doc`.
pub(crate) fn at_path<'v>(doc: Option<&'v Value>, segments: &[&str]) -> Option<&'v Value> {
    segments.iter().try_fold(doc?, |v, s| v.get(s))
}

/// What a change replaced: enough to put the target back as it was before it.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Before {
    /// The target's whole previous value (`None`: nothing was stored).
    Whole(Option<Value>),
    /// The previous values of some top-level keys (`absent`: keys that did not exist), and the
    /// top-level key order, so the keys go back where they were.
    Keys { set: Map<String, Value>, absent: Vec<String>, order: Vec<String> },
    /// An append to the existing list at `path`: its newest entry goes, the `dropped` entries
    /// (newest first) come back at the end, `_meta` becomes `meta` again.
    Append { path: String, dropped: Vec<Value>, meta: Option<Value> },
}

impl Before {
    pub(crate) fn kind(&self) -> &'static str {
        match self {
            Self::Whole(_) => "whole",
            Self::Keys { .. } => "keys",
            Self::Append { .. } => "append",
        }
    }

    pub(crate) fn to_text(&self) -> Option<String> {
        match self {
            Self::Whole(value) => value.as_ref().map(Value::to_string),
            Self::Keys { set, absent, order } => {
                Some(serde_json::json!({"set": set, "absent": absent, "order": order}).to_string())
            }
            Self::Append { path, dropped, meta } => Some(
                serde_json::json!({"path": path, "dropped": dropped, "meta": meta}).to_string(),
            ),
        }
    }

    pub(crate) fn from_row(
        kind: &str,
        text: Option<String>,
    ) -> std::result::Result<Self, serde_json::Error> {
        let value: Option<Value> = text.map(|t| serde_json::from_str(&t)).transpose()?;
        let strings = |v: Option<&Value>| -> Vec<String> {
            v.and_then(Value::as_array)
                .map(|a| a.iter().filter_map(|s| s.as_str().map(str::to_string)).collect())
                .unwrap_or_default()
        };
        Ok(match (kind, value) {
            ("keys", Some(v)) => Self::Keys {
                set: v.get("set").and_then(Value::as_object).cloned().unwrap_or_default(),
                absent: strings(v.get("absent")),
                order: strings(v.get("order")),
            },
            ("append", Some(v)) => Self::Append {
                path: v.get("path").and_then(Value::as_str).unwrap_or_default().to_string(),
                dropped: v.get("dropped").and_then(Value::as_array).cloned().unwrap_or_default(),
                meta: v.get("meta").filter(|m| !m.is_null()).cloned(),
            },
            (_, value) => Self::Whole(value),
        })
    }

    /// Turn `state` (the target's value right after this change) into its value before it.
    pub(crate) fn invert(self, state: &mut Option<Value>) {
        match self {
            Self::Whole(value) => *state = value,
            Self::Keys { set, absent, order } => {
                let Value::Object(map) = state.get_or_insert_with(|| Value::Object(Map::new()))
                else {
                    return;
                };
                for key in absent {
                    map.shift_remove(&key);
                }
                map.extend(set);
                let mut ordered: Map<String, Value> = Map::new();
                for key in order {
                    if let Some(value) = map.shift_remove(&key) {
                        ordered.insert(key, value);
                    }
                }
                ordered.append(map);
                *map = ordered;
            }
            Self::Append { path, dropped, meta } => {
                let Some(Value::Object(map)) = state.as_mut() else { return };
                let segments: Vec<&str> = path.split('.').collect();
                let (first, rest) = segments.split_first().unwrap_or((&"", &[]));
                let list =
                    map.get_mut(*first).and_then(|v| rest.iter().try_fold(v, |v, s| v.get_mut(*s)));
                if let Some(Value::Array(items)) = list {
                    if !items.is_empty() {
                        items.remove(0);
                    }
                    items.extend(dropped);
                }
                match meta {
                    Some(meta) => {
                        map.insert("_meta".into(), meta);
                    }
                    None => {
                        map.shift_remove("_meta");
                    }
                }
            }
        }
    }
}

/// What a write to the top-level `keys` of a skill replaces, and the skill's state with those
/// keys' lists in place (for summaries). A skill with nothing stored gives `Whole(None)`.
pub(crate) fn keys_before(
    tx: &Connection,
    user: &str,
    skill: &str,
    keys: &[&str],
) -> Result<(Before, Option<Value>)> {
    let stored = skill_rows::load_stored(tx, user, skill)?;
    let lists = skill_rows::lists(tx, user, skill)?;
    keys_before_in(tx, skill, stored.as_ref(), &lists, keys)
}

/// [`keys_before`] over an object row and lists already read.
pub(crate) fn keys_before_in(
    tx: &Connection,
    skill: &str,
    stored: Option<&Value>,
    lists: &[skill_rows::ListRef],
    keys: &[&str],
) -> Result<(Before, Option<Value>)> {
    let Some(doc) = stored else { return Ok((Before::Whole(None), None)) };
    let partial = skill_rows::partial(tx, skill, doc, lists, keys)?;
    let (mut set, mut absent) = (Map::new(), Vec::new());
    for key in keys {
        match partial.get(key) {
            Some(value) => {
                set.insert(key.to_string(), value.clone());
            }
            None => absent.push(key.to_string()),
        }
    }
    let order = partial.as_object().map(|m| m.keys().cloned().collect()).unwrap_or_default();
    Ok((Before::Keys { set, absent, order }, Some(partial)))
}

fn skill_exists(tx: &Connection, user: &str, skill: &str) -> Result<bool> {
    Ok(tx
        .prepare_cached("SELECT 1 FROM skill_states WHERE user_id = ?1 AND skill = ?2")?
        .query_row(params![user, skill], |_| Ok(()))
        .optional()?
        .is_some())
}

/// A skill's whole stored state (lists in place), `None` when nothing is stored.
pub(crate) fn skill_snapshot(tx: &Connection, user: &str, skill: &str) -> Result<Option<Value>> {
    if !skill_exists(tx, user, skill)? {
        return Ok(None);
    }
    Ok(Some(skill_rows::assemble(tx, user, skill, None)?))
}

#[path = "change_record.rs"]
mod record;
pub use record::ClearedHistory;
pub(crate) use record::{Removal, clear as clear_history, record, record_as};
