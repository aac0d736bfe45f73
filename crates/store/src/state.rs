//! The generic skill-state operations, with their exact semantics (docs/design.md#state-semantics):
//! `read_state` (optional sections; status `empty` when nothing is stored), `write_state` (deep
//! merge into `skills.<skill>.<section>`), `append_to_list` (dotted path, newest first, no cap
//! unless one is given; a cap that would drop existing entries only when the caller allows it,
//! `_created_at` stamped). Each write is one IMMEDIATE transaction and stamps
//! `skills.<skill>._meta.updated_at`. Lists grown by `append_to_list` are stored one row per entry
//! (see `skill_rows`); a write that replaces one drops its rows. Every write keeps the skill's
//! previous state in the undo history (`undo`) in its own transaction.

use rusqlite::Connection;
use serde::Serialize;
use serde_json::{Map, Value};

use crate::change::{self, ChangeBy, HistoryTarget};
use crate::error::{Result, StoreError};
use crate::json_path::{deep_merge, ensure_object_path, parse_dotted, set_in, type_name};
use crate::losses::losses_of_merge;
use crate::skill_rows::validate_skill_id;
use crate::{Store, clock, skill_rows, sync_log, sync_record};

/// How long a list an append may leave, and whether it may drop existing entries to stay
/// within that (issue 28: the person's lists are never trimmed without asking).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AppendCap {
    /// Keep at most this many entries (`None`: no cap, nothing is ever dropped).
    pub max_items: Option<usize>,
    /// Whether dropping the oldest entries to honour `max_items` is allowed (the person
    /// approved it, or a front end asked for it). When not, an append that would drop any is
    /// refused with [`StoreError::ListWouldShrink`] and nothing is written.
    pub may_drop: bool,
}

impl AppendCap {
    /// No cap: the list keeps every entry.
    pub const NONE: Self = Self { max_items: None, may_drop: false };
}

/// Whether `read_state` found anything.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum StateStatus {
    Success,
    Empty,
}

/// What `read_state` returns.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct StateRead {
    pub status: StateStatus,
    pub skill_id: String,
    pub data: Value,
    /// Damaged list entries left out of `data` (see docs/design.md#state-semantics).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<String>,
}

/// What `append_to_list` did.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct AppendOutcome {
    pub skill_id: String,
    pub path: String,
    /// Items in the list after the append.
    pub length: usize,
    /// Oldest items dropped to honour `max_items`.
    pub dropped: usize,
    /// The stored entry, with its `_created_at`.
    pub entry: Value,
}

/// A `write_state` whose arguments were checked, ready to apply in a transaction: alone
/// ([`Store::apply_state_write`]), or with the tool result that reports it
/// ([`Store::append_tool_result`]), so the change and its report are stored together or
/// not at all.
#[derive(Debug, Clone, PartialEq)]
pub struct StateWrite {
    user: String,
    skill: String,
    section: String,
    /// `{section: data}`.
    patch: Value,
    by: ChangeBy,
}

impl StateWrite {
    /// Check a deep merge of `data` (a JSON object) into `skills.<skill>.<section>`, to be
    /// recorded in the undo history as made `by`. Nothing is read or written yet.
    pub fn new(user: &str, skill: &str, section: &str, data: Value, by: ChangeBy) -> Result<Self> {
        validate_skill_id(skill)?;
        validate_section(section)?;
        if !data.is_object() {
            return Err(StoreError::invalid(format!(
                "write_state data must be a JSON object (it is merged into section \"{section}\"), got {}; \
                 wrap it, e.g. {{\"value\": ...}}",
                type_name(&data)
            )));
        }
        crate::bounds::check_value(&data, 3, &format!("skills.{skill}.{section}"))?;
        let patch = Value::Object(Map::from_iter([(section.to_string(), data)]));
        Ok(Self { user: user.into(), skill: skill.into(), section: section.into(), patch, by })
    }

    /// The skill whose state this changes.
    pub fn skill(&self) -> &str {
        &self.skill
    }

    /// The top-level section this changes.
    pub fn section(&self) -> &str {
        &self.section
    }

    /// Merge the patch and record the undo step, inside the caller's transaction.
    pub(crate) fn apply(&self, tx: &Connection) -> Result<()> {
        let (user, skill, section, patch) = (&self.user, &self.skill, &self.section, &self.patch);
        let lists = skill_rows::lists(tx, user, skill)?;
        let stored = skill_rows::load_stored(tx, user, skill)?;
        let keys = [section.as_str(), "_meta"];
        let (before, partial) = change::keys_before_in(tx, skill, stored.as_ref(), &lists, &keys)?;
        let old = change::at_path(partial.as_ref(), &[section]);
        let mut new = old.cloned().unwrap_or_else(|| Value::Object(Map::new()));
        deep_merge(&mut new, patch[section].clone());
        let text = change::summary(section, old, Some(&new));
        let target = HistoryTarget::Skill(skill.clone());
        let empty = Value::Object(Map::new());
        let removed = !losses_of_merge(partial.as_ref().unwrap_or(&empty), patch).is_empty();
        let (removal, by) = (change::Removal::when(removed), &self.by);
        change::record_as(tx, removal, (user, &target), section, by, &before, &text)?;
        for list in lists {
            if patch_touches(patch, &list.segments()) {
                sync_record::list_dropped(tx, user, skill, &list)?;
                skill_rows::drop_list(tx, &list)?;
            }
        }
        let mut doc = stored.unwrap_or_else(|| Value::Object(Map::new()));
        let slot = ensure_object_path(&mut doc, &[], "skills")?
            .entry(section.clone())
            .or_insert_with(|| Value::Object(Map::new()));
        deep_merge(slot, patch[section].clone());
        // Sync: each key written is a value of its own (the latest write of it wins).
        if let (Some(keys), Some(merged)) = (patch[section].as_object(), slot.as_object()) {
            for key in keys.keys() {
                let value = merged.get(key).cloned().unwrap_or(Value::Null);
                sync_record::doc_set(tx, user, &format!("skills.{skill}.{section}.{key}"), &value)?;
            }
        }
        skill_rows::touch(&mut doc)?;
        skill_rows::save_doc(tx, user, skill, &doc)
    }
}

fn validate_section(section: &str) -> Result<()> {
    if section.is_empty() || section.contains('.') {
        return Err(StoreError::invalid(format!(
            "invalid section \"{section}\": give one top-level key such as \"goals\" (no dots)"
        )));
    }
    if section.starts_with('_') {
        return Err(StoreError::invalid(format!(
            "section \"{section}\" is reserved (names starting with '_' are managed by VibeLife)"
        )));
    }
    Ok(())
}

/// Whether a patch rooted at the skill's state replaces or removes the list at `segments`:
/// it does when it holds any value at the list's path, or a non-object on the way there.
fn patch_touches(patch: &Value, segments: &[&str]) -> bool {
    let Some((first, rest)) = segments.split_first() else { return true };
    match patch.get(first) {
        None => false,
        Some(_) if rest.is_empty() => true,
        Some(inner @ Value::Object(_)) => patch_touches(inner, rest),
        Some(_) => true,
    }
}

fn is_prefix(prefix: &[&str], of: &[&str]) -> bool {
    prefix.len() <= of.len() && prefix.iter().zip(of).all(|(a, b)| a == b)
}

/// Set the value at `rel` (relative to `skills.<skill>`), for `Store::set_path`.
pub(crate) fn set_in_skill(
    tx: &Connection,
    user: &str,
    skill: &str,
    rel: &[&str],
    shown: &str,
    value: Value,
    by: &ChangeBy,
) -> Result<()> {
    let (before, partial) = change::keys_before(tx, user, skill, &[rel[0], "_meta"])?;
    let text = change::summary(
        &rel.join("."),
        change::at_path(partial.as_ref(), rel),
        Some(&value).filter(|v| !v.is_null()),
    );
    change::record(
        tx,
        user,
        &HistoryTarget::Skill(skill.into()),
        &rel.join("."),
        by,
        &before,
        &text,
    )?;
    sync_record::doc_set(tx, user, shown, &value)?;
    put_in_skill(tx, user, skill, rel, shown, value, true)
}

/// Set the value at `rel` of the skill's state, dropping the lists under it (recorded for sync
/// when `record`; a peer's write applied here is not recorded again).
pub(crate) fn put_in_skill(
    tx: &Connection,
    user: &str,
    skill: &str,
    rel: &[&str],
    shown: &str,
    value: Value,
    record: bool,
) -> Result<()> {
    for list in skill_rows::lists(tx, user, skill)? {
        let segments = list.segments();
        if segments.len() < rel.len() && is_prefix(&segments, rel) {
            return Err(StoreError::invalid(format!(
                "cannot write under \"skills.{skill}.{}\" for \"{shown}\": it holds a list, not an object; \
                 choose another path or replace \"skills.{skill}.{}\" first",
                list.path, list.path
            )));
        }
        if is_prefix(rel, &segments) {
            if record {
                sync_record::list_dropped(tx, user, skill, &list)?;
            }
            skill_rows::drop_list(tx, &list)?;
        }
    }
    let mut doc = skill_rows::load_doc(tx, user, skill)?;
    set_in(&mut doc, rel, shown, value)?;
    skill_rows::touch(&mut doc)?;
    skill_rows::save_doc(tx, user, skill, &doc)
}

impl Store {
    /// A skill's saved state, optionally only some sections.
    pub fn read_state(
        &self,
        user: &str,
        skill: &str,
        sections: Option<&[String]>,
    ) -> Result<StateRead> {
        validate_skill_id(skill)?;
        let mut warnings = Vec::new();
        let all = self.read_tx(|tx| {
            skill_rows::assemble_reporting(tx, user, skill, sections, &mut warnings)
        })?;
        for warning in &warnings {
            tracing::warn!(skill, "{warning}");
        }
        let data: Map<String, Value> = match (all, sections) {
            (Value::Object(map), None) => map,
            (Value::Object(map), Some(wanted)) => {
                map.into_iter().filter(|(k, _)| wanted.iter().any(|w| w == k)).collect()
            }
            _ => Map::new(),
        };
        let has_content = data.keys().any(|k| k != "_meta");
        Ok(StateRead {
            status: if has_content { StateStatus::Success } else { StateStatus::Empty },
            skill_id: skill.to_string(),
            data: Value::Object(data),
            warnings,
        })
    }

    /// Deep-merge `data` (a JSON object) into `skills.<skill>.<section>`, recorded as made by
    /// this process's front end ([`Store::set_front_end`]).
    pub fn write_state(&self, user: &str, skill: &str, section: &str, data: Value) -> Result<()> {
        self.write_state_by(user, skill, section, data, &self.front_end())
    }

    /// [`Store::write_state`], recorded in the undo history as made `by`.
    pub fn write_state_by(
        &self,
        user: &str,
        skill: &str,
        section: &str,
        data: Value,
        by: &ChangeBy,
    ) -> Result<()> {
        self.apply_state_write(&StateWrite::new(user, skill, section, data, by.clone())?)
    }

    /// Apply a checked [`StateWrite`] in its own transaction.
    pub fn apply_state_write(&self, write: &StateWrite) -> Result<()> {
        self.write_tx(|tx| write.apply(tx))
    }

    /// Put `entry` (a JSON object) first in the list at `path` under `skills.<skill>`, stamped
    /// with `_created_at`; keep at most `max_items`, dropping the oldest (the caller asks for
    /// that cap explicitly). Recorded as made by this process's front end.
    pub fn append_to_list(
        &self,
        user: &str,
        skill: &str,
        path: &str,
        entry: Value,
        max_items: usize,
    ) -> Result<AppendOutcome> {
        let cap = AppendCap { max_items: Some(max_items), may_drop: true };
        self.append_to_list_by(user, skill, path, entry, cap, &self.front_end())
    }

    /// [`Store::append_to_list`] under `cap`, recorded in the undo history as made `by`. An
    /// append that drops entries is recorded as a destructive change.
    pub fn append_to_list_by(
        &self,
        user: &str,
        skill: &str,
        path: &str,
        entry: Value,
        cap: AppendCap,
        by: &ChangeBy,
    ) -> Result<AppendOutcome> {
        validate_skill_id(skill)?;
        let segments = parse_dotted(path, "list path")?;
        if segments[0].starts_with('_') {
            return Err(StoreError::invalid(format!(
                "list path \"{path}\" is reserved (names starting with '_' are managed by VibeLife)"
            )));
        }
        if cap.max_items == Some(0) {
            return Err(StoreError::invalid("max_items must be at least 1"));
        }
        let max_items = cap.max_items.unwrap_or(usize::MAX);
        // Refused inside the transaction, so nothing of it is written.
        let check = |length: usize, dropped: usize| {
            if dropped == 0 || cap.may_drop {
                return Ok(());
            }
            Err(StoreError::ListWouldShrink {
                skill: skill.to_string(),
                path: path.to_string(),
                length: length + dropped - 1,
                max_items,
                dropped,
            })
        };
        let Value::Object(mut entry) = entry else {
            return Err(StoreError::invalid(format!(
                "append_to_list entry must be a JSON object, got {}; wrap it, e.g. {{\"text\": ...}}",
                type_name(&entry)
            )));
        };
        // skills.<skill>.<path…>[i]: the entry's members sit below all of that.
        let entry_depth = 2 + segments.len() + 1;
        crate::bounds::check_value(
            &Value::Object(entry.clone()),
            entry_depth,
            &format!("skills.{skill}.{path}[0]"),
        )?;
        entry.insert("_created_at".into(), Value::String(clock::now_rfc3339()));
        let stamped = Value::Object(entry);
        let outcome = self.write_tx(|tx| {
            let mut entry = stamped.clone();
            let target = HistoryTarget::Skill(skill.into());
            let summary = |length: usize, dropped: usize| {
                let old_len = length + dropped - 1;
                let trimmed = if dropped > 0 {
                    format!(" ({dropped} oldest dropped)")
                } else {
                    String::new()
                };
                format!("{path}: {old_len} → {length} entries{trimmed}")
            };
            let (length, dropped) = match skill_rows::find_list(tx, user, skill, path)? {
                // The common case touches only the new entry's row and the stamp, and the
                // history keeps only what the append trimmed.
                Some(list_id) => {
                    let meta = skill_rows::meta(tx, user, skill)?;
                    skill_rows::stamp_after_newest(tx, list_id, &mut entry)?;
                    let at = sync_log::ListAt { user, skill, path, list_id };
                    let seq = sync_append(tx, &at, max_items)?;
                    let (length, dropped) = skill_rows::push_item(tx, list_id, &entry, max_items)?;
                    check(length, dropped.len())?;
                    sync_log::put_local(tx, &at, seq, &entry)?;
                    skill_rows::touch_doc(tx, user, skill)?;
                    let n = dropped.len();
                    let before = change::Before::Append { path: path.to_string(), dropped, meta };
                    change::record(tx, user, &target, path, by, &before, &summary(length, n))?;
                    (length, n)
                }
                None => {
                    let (before, _) =
                        change::keys_before(tx, user, skill, &[segments[0], "_meta"])?;
                    let mut doc = skill_rows::load_doc(tx, user, skill)?;
                    let lists = skill_rows::lists(tx, user, skill)?;
                    let list_id = new_list(tx, user, skill, path, &segments, &lists, &mut doc)?;
                    skill_rows::touch(&mut doc)?;
                    skill_rows::save_doc(tx, user, skill, &doc)?;
                    let at = sync_log::ListAt { user, skill, path, list_id };
                    let seq = sync_append(tx, &at, max_items)?;
                    let (length, dropped) = skill_rows::push_item(tx, list_id, &entry, max_items)?;
                    let n = dropped.len();
                    check(length, n)?;
                    sync_log::put_local(tx, &at, seq, &entry)?;
                    let (removal, text) = (change::Removal::when(n > 0), summary(length, n));
                    change::record_as(tx, removal, (user, &target), path, by, &before, &text)?;
                    (length, n)
                }
            };
            Ok(AppendOutcome { skill_id: skill.into(), path: path.into(), length, dropped, entry })
        })?;
        Ok(outcome)
    }
}

/// Before an append to `at` under `max_items`: record for sync the deletion of the entries the
/// cap will drop, and answer the seq the new entry will get.
fn sync_append(tx: &Connection, at: &sync_log::ListAt, max_items: usize) -> Result<i64> {
    if sync_log::device(tx)?.is_none() {
        return Ok(0);
    }
    let seq: i64 = tx
        .prepare_cached("SELECT next_seq FROM state_lists WHERE id = ?1")?
        .query_row([at.list_id], |r| r.get(0))?;
    let max = i64::try_from(max_items).unwrap_or(i64::MAX);
    let dropped = sync_log::known_at_or_below(tx, at.list_id, seq.saturating_sub(max))?;
    sync_log::delete_local(tx, at, &dropped)?;
    Ok(seq)
}

/// Register the list at `path`: refuse when a list is on the way or the path holds a
/// non-list; move an inline list out of the object row.
pub(crate) fn new_list(
    tx: &Connection,
    user: &str,
    skill: &str,
    path: &str,
    segments: &[&str],
    lists: &[skill_rows::ListRef],
    doc: &mut Value,
) -> Result<i64> {
    for list in lists {
        let other = list.segments();
        let (kind, at) = if is_prefix(&other, segments) {
            ("a list", list.path.as_str())
        } else if is_prefix(segments, &other) {
            ("an object", path)
        } else {
            continue;
        };
        return Err(StoreError::invalid(format!(
            "cannot append to \"{path}\" of skill {skill}: \"{at}\" holds {kind}, not a list; \
             choose another path or remove it with write_state (null)"
        )));
    }
    let (parents, last) = segments.split_at(segments.len() - 1);
    let parent = ensure_object_path(doc, parents, path)?;
    let initial = match parent.remove(last[0]) {
        None => Vec::new(),
        Some(Value::Array(items)) => items,
        Some(other) => {
            let kind = type_name(&other);
            return Err(StoreError::invalid(format!(
                "cannot append to \"{path}\" of skill {skill}: it holds {kind}, not a list; \
                 choose another path or remove it with write_state (null)"
            )));
        }
    };
    skill_rows::create_list(tx, user, skill, path, initial)
}
