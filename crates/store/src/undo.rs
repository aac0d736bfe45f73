//! Undo of the person's data (docs/design.md#undo): before every change to a skill's state or to
//! the profile's own sections, what the change replaces is kept in `state_history`, in the
//! caller's transaction — the whole previous value, the previous values of the top-level keys a
//! write touches, or for an append only the entries it trimmed (so an append stays O(1)). The
//! changes are listed newest first; an undo inverts them newest first back to the one named
//! and puts the result in place in one transaction, itself recorded (so an undo can be undone).
//! Bounded: rows older than [`HISTORY_DAYS`] and beyond [`HISTORY_ROWS`] per target are pruned,
//! except that a destructive change (one that removed the person's data, see
//! [`Removal`]) and every later change of its target are kept for [`DESTRUCTIVE_HISTORY_DAYS`]
//! whatever the row cap, so the loss stays undoable (an undo inverts the changes after it too).
//! It must not decide what a change means (the write paths in `state` and `profile` do) nor
//! who may undo (the front ends do).

use rusqlite::{Connection, OptionalExtension, params};
use serde::Serialize;
use serde_json::{Map, Value};

use crate::error::{Result, StoreError};
use crate::{Store, profile, skill_rows, state};

/// Changes older than this many days are pruned.
pub const HISTORY_DAYS: i64 = 30;
/// A destructive change (and every later change of its target) is kept this many days,
/// however many changes follow it.
pub const DESTRUCTIVE_HISTORY_DAYS: i64 = 90;
/// At most this many changes are kept per skill (and for the profile).
pub const HISTORY_ROWS: i64 = 200;
/// Old rows are pruned on every this-many-th recorded change.
const PRUNE_EVERY: i64 = 16;

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
    fn as_str(&self) -> &'static str {
        match self {
            Self::Model { .. } => "model",
            Self::Cli => "cli",
            Self::App => "app",
            Self::Import => "import",
        }
    }

    fn run_id(&self) -> Option<&str> {
        match self {
            Self::Model { run_id } => Some(run_id),
            _ => None,
        }
    }

    fn from_row(by: &str, run_id: Option<String>) -> Self {
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
    fn key(&self) -> &str {
        match self {
            Self::Skill(skill) => skill,
            Self::Profile => PROFILE_TARGET,
        }
    }

    fn shown(&self) -> String {
        match self {
            Self::Skill(skill) => format!("skill {skill}"),
            Self::Profile => "the profile".into(),
        }
    }
}

/// One recorded change.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct StateChange {
    pub id: i64,
    /// RFC 3339 time of the change.
    pub at: String,
    /// The dotted path changed (relative to the skill, or the profile root); `*` for an undo.
    pub path: String,
    pub by: ChangeBy,
    /// A short "before → after".
    pub summary: String,
}

/// What an undo did.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Undone {
    /// The change reverted back to (its previous value is now in place).
    pub reverted_to: i64,
    /// How many recorded changes were reverted (the one named and every later one).
    pub changes_reverted: usize,
    /// The record of this undo itself (undo it to redo).
    pub recorded_as: i64,
    /// The target's value now (`{}` when nothing is stored).
    pub value: Value,
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
    fn kind(&self) -> &'static str {
        match self {
            Self::Whole(_) => "whole",
            Self::Keys { .. } => "keys",
            Self::Append { .. } => "append",
        }
    }

    fn to_text(&self) -> Option<String> {
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

    fn from_row(kind: &str, text: Option<String>) -> std::result::Result<Self, serde_json::Error> {
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
    fn invert(self, state: &mut Option<Value>) {
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

#[path = "undo_record.rs"]
mod record;
pub use record::ClearedHistory;
pub(crate) use record::{Removal, record, record_as};

/// The target's whole current value.
fn snapshot(tx: &Connection, user: &str, target: &HistoryTarget) -> Result<Option<Value>> {
    match target {
        HistoryTarget::Skill(skill) => skill_snapshot(tx, user, skill),
        HistoryTarget::Profile => profile::root_snapshot(tx, user),
    }
}

/// Put `value` back as the target's whole value (`None`: nothing stored).
fn restore(
    tx: &Connection,
    user: &str,
    target: &HistoryTarget,
    value: Option<Value>,
) -> Result<()> {
    match target {
        HistoryTarget::Skill(skill) => {
            skill_rows::delete_skill(tx, user, skill)?;
            match value {
                Some(doc) => skill_rows::save_doc(tx, user, skill, &doc),
                None => Ok(()),
            }
        }
        HistoryTarget::Profile => profile::restore_root(tx, user, value),
    }
}

fn validate(target: &HistoryTarget) -> Result<()> {
    match target {
        HistoryTarget::Skill(skill) => state::validate_skill_id(skill),
        HistoryTarget::Profile => Ok(()),
    }
}

impl Store {
    /// The recorded changes of `target`, newest first, at most `limit`.
    pub fn state_history(
        &self,
        user: &str,
        target: &HistoryTarget,
        limit: usize,
    ) -> Result<Vec<StateChange>> {
        validate(target)?;
        let conn = self.conn();
        let mut stmt = conn.prepare_cached(
            "SELECT id, at, path, by, run_id, summary FROM state_history
             WHERE user_id = ?1 AND target = ?2 ORDER BY id DESC LIMIT ?3",
        )?;
        let limit = i64::try_from(limit).unwrap_or(i64::MAX);
        let rows = stmt
            .query_map(params![user, target.key(), limit], |r| {
                Ok(StateChange {
                    id: r.get(0)?,
                    at: r.get(1)?,
                    path: r.get(2)?,
                    by: ChangeBy::from_row(&r.get::<_, String>(3)?, r.get(4)?),
                    summary: r.get(5)?,
                })
            })?
            .collect::<rusqlite::Result<_>>()?;
        Ok(rows)
    }

    /// Clear `target`'s history on the person's request, in one transaction: a destructive
    /// change younger than [`DESTRUCTIVE_HISTORY_DAYS`] and the changes after it stay until
    /// those days pass; everything else goes.
    pub fn clear_history(&self, user: &str, target: &HistoryTarget) -> Result<ClearedHistory> {
        validate(target)?;
        self.write_tx(|tx| record::clear(tx, user, target))
    }

    /// Revert `target` to its value before change `to` (default: its newest change), in one
    /// transaction; the undo is recorded as a change of its own.
    pub fn undo(
        &self,
        user: &str,
        target: &HistoryTarget,
        to: Option<i64>,
        by: &ChangeBy,
    ) -> Result<Undone> {
        validate(target)?;
        let undone = self.write_tx(|tx| {
            let newest: Option<i64> = tx
                .prepare_cached(
                    "SELECT max(id) FROM state_history WHERE user_id = ?1 AND target = ?2",
                )?
                .query_row(params![user, target.key()], |r| r.get(0))?;
            let Some(newest) = newest else {
                return Err(StoreError::NoHistory(format!(
                    "{} has no recorded changes to undo",
                    target.shown()
                )));
            };
            let to = to.unwrap_or(newest);
            let known: Option<i64> = tx
                .prepare_cached(
                    "SELECT id FROM state_history WHERE id = ?1 AND user_id = ?2 AND target = ?3",
                )?
                .query_row(params![to, user, target.key()], |r| r.get(0))
                .optional()?;
            if known.is_none() {
                return Err(StoreError::NoHistory(format!(
                    "{} has no recorded change #{to} (the history keeps {HISTORY_DAYS} days and \
                     {HISTORY_ROWS} changes, {DESTRUCTIVE_HISTORY_DAYS} days from a change that \
                     removed data; list the ids that exist with the history command)",
                    target.shown()
                )));
            }
            let inverses: Vec<(i64, String, Option<String>)> = tx
                .prepare_cached(
                    "SELECT id, kind, before FROM state_history
                     WHERE user_id = ?1 AND target = ?2 AND id >= ?3 ORDER BY id DESC",
                )?
                .query_map(params![user, target.key(), to], |r| {
                    Ok((r.get(0)?, r.get(1)?, r.get(2)?))
                })?
                .collect::<rusqlite::Result<_>>()?;
            let reverted = inverses.len();
            let current = snapshot(tx, user, target)?;
            let mut before = current.clone();
            for (id, kind, text) in inverses {
                let inverse =
                    Before::from_row(&kind, text).map_err(|source| StoreError::CorruptJson {
                        what: format!("history entry #{id} of {}", target.shown()),
                        source,
                    })?;
                inverse.invert(&mut before);
            }
            let text = format!(
                "undo back to before #{to}: {} → {}",
                describe(current.as_ref()),
                describe(before.as_ref())
            );
            // An undo throws away what came after: it stays undoable (redo) as a removal.
            let whole = Before::Whole(current);
            let recorded_as =
                record_as(tx, Removal::Destructive, (user, target), "*", by, &whole, &text)?;
            restore(tx, user, target, before.clone())?;
            Ok(Undone {
                reverted_to: to,
                changes_reverted: reverted,
                recorded_as,
                value: before.unwrap_or_else(|| Value::Object(Map::new())),
            })
        })?;
        Ok(undone)
    }
}

#[cfg(test)]
#[path = "undo_tests.rs"]
mod tests;
