//! The profile document (docs/design.md#profile-document): one JSON object per local user with
//! `account`, `birth_info`, `preferences`, `state`, `skills.{id}` and `extracted`. Reading it
//! whole, setting a dotted path, importing (legacy shapes migrated). The document is stored in
//! parts (see `skill_rows`); this module puts them together and apart. Every change runs in one
//! IMMEDIATE transaction, keeps the previous value in the undo history (`undo`), and invalidates
//! only the cache entries that read what changed.

use rusqlite::{Connection, OptionalExtension, params};
use serde_json::{Map, Value, json};

use crate::change::{self, ChangeBy, HistoryTarget};
use crate::error::{Result, StoreError};
use crate::json_path::{parse_dotted, set_in, type_name};
use crate::{Store, clock, legacy, skill_rows, state, sync_record};

/// The shape of a profile nobody has written to yet.
pub fn empty_profile() -> Value {
    json!({
        "account": {},
        "birth_info": {},
        "preferences": {},
        "state": {},
        "skills": {},
        "extracted": {}
    })
}

/// Every top-level section but `skills` (kept as an empty placeholder for key order).
fn load_root(tx: &Connection, user: &str) -> Result<Value> {
    let text: Option<String> = tx
        .prepare_cached("SELECT doc FROM profiles WHERE user_id = ?1")?
        .query_row([user], |r| r.get(0))
        .optional()?;
    match text {
        None => Ok(empty_profile()),
        Some(text) => serde_json::from_str(&text).map_err(|source| StoreError::CorruptJson {
            what: format!("profile of user {user}"),
            source,
        }),
    }
}

fn save_root(tx: &Connection, user: &str, root: &mut Value) -> Result<()> {
    if let Some(map) = root.as_object_mut() {
        map.insert("skills".into(), Value::Object(Map::new()));
    }
    tx.prepare_cached(
        "INSERT INTO profiles (user_id, doc, updated_at) VALUES (?1, ?2, ?3)
         ON CONFLICT (user_id) DO UPDATE SET doc = excluded.doc, updated_at = excluded.updated_at",
    )?
    .execute(params![user, root.to_string(), clock::now_rfc3339()])?;
    Ok(())
}

/// The profile's own sections as stored (`skills` an empty placeholder), `None` when no row.
pub(crate) fn root_snapshot(tx: &Connection, user: &str) -> Result<Option<Value>> {
    let exists = tx
        .prepare_cached("SELECT 1 FROM profiles WHERE user_id = ?1")?
        .query_row([user], |_| Ok(()))
        .optional()?
        .is_some();
    if exists { Ok(Some(load_root(tx, user)?)) } else { Ok(None) }
}

/// Put back the profile's own sections (`None`: no row, the empty profile).
pub(crate) fn restore_root(tx: &Connection, user: &str, root: Option<Value>) -> Result<()> {
    match root {
        Some(mut root) => save_root(tx, user, &mut root),
        None => {
            tx.execute("DELETE FROM profiles WHERE user_id = ?1", [user])?;
            Ok(())
        }
    }
}

/// Record the profile's own sections before a change at `path`.
fn record_root(
    tx: &Connection,
    user: &str,
    path: &[&str],
    by: &ChangeBy,
    new: Option<&Value>,
) -> Result<()> {
    let before = root_snapshot(tx, user)?;
    let shown = path.join(".");
    let old = change::at_path(before.as_ref(), path);
    let text = change::summary(&shown, old, new);
    let before = change::Before::Whole(before);
    change::record(tx, user, &HistoryTarget::Profile, &shown, by, &before, &text)?;
    Ok(())
}

/// Record every skill whose state `skills` (the new `skills` section) changes, and the root.
fn record_all(tx: &Connection, user: &str, doc: &Value, by: &ChangeBy) -> Result<()> {
    let empty = Map::new();
    let new_skills = doc.get("skills").and_then(Value::as_object).unwrap_or(&empty);
    let mut names = skill_rows::skills(tx, user)?;
    names.extend(new_skills.keys().filter(|k| !names.contains(k)).cloned().collect::<Vec<_>>());
    for skill in names {
        if skill_rows::validate_skill_id(&skill).is_err() {
            continue; // refused by `replace_all` before anything commits
        }
        let before = change::skill_snapshot(tx, user, &skill)?;
        let after = new_skills.get(&skill);
        if before.as_ref() != after {
            let text = change::summary("*", before.as_ref(), after);
            let target = HistoryTarget::Skill(skill.clone());
            change::record(tx, user, &target, "*", by, &change::Before::Whole(before), &text)?;
        }
    }
    let mut root = doc.clone();
    if let Some(map) = root.as_object_mut() {
        map.insert("skills".into(), Value::Object(Map::new()));
    }
    let before = root_snapshot(tx, user)?;
    if before.as_ref() != Some(&root) {
        let text = change::summary("*", before.as_ref(), Some(&root));
        let before = change::Before::Whole(before);
        change::record(tx, user, &HistoryTarget::Profile, "*", by, &before, &text)?;
    }
    Ok(())
}

/// The whole document, every skill's state and lists in place.
pub(crate) fn assemble(tx: &Connection, user: &str) -> Result<Value> {
    let all = skill_rows::skills(tx, user)?;
    assemble_with(tx, user, &all)
}

/// The document with only the named skills' states under `skills`.
pub(crate) fn assemble_with(tx: &Connection, user: &str, only: &[String]) -> Result<Value> {
    let mut root = load_root(tx, user)?;
    let mut skills = Map::new();
    for skill in only {
        let state = skill_rows::assemble(tx, user, skill, None)?;
        if state.as_object().is_some_and(|m| !m.is_empty()) {
            skills.insert(skill.clone(), state);
        }
    }
    if let Some(map) = root.as_object_mut() {
        map.insert("skills".into(), Value::Object(skills));
    }
    Ok(root)
}

/// Replace everything: root sections and every skill's state (lists stored inline).
fn replace_all(tx: &Connection, user: &str, mut doc: Value) -> Result<()> {
    let skills =
        doc.as_object_mut().and_then(|m| m.remove("skills")).unwrap_or(Value::Object(Map::new()));
    let Value::Object(skills) = skills else {
        return Err(StoreError::invalid(format!(
            "profile \"skills\" must be an object of skill states, got {}",
            type_name(&skills)
        )));
    };
    tx.execute("DELETE FROM skill_states WHERE user_id = ?1", [user])?;
    for (skill, state) in skills {
        skill_rows::validate_skill_id(&skill)?;
        if !state.is_object() {
            return Err(StoreError::invalid(format!(
                "skills.{skill} must be an object, got {}",
                type_name(&state)
            )));
        }
        skill_rows::save_doc(tx, user, &skill, &state)?;
    }
    save_root(tx, user, &mut doc)
}

impl Store {
    /// The whole profile document of `user`.
    pub fn profile(&self, user: &str) -> Result<Value> {
        self.read_tx(|tx| assemble(tx, user))
    }

    /// Replace the value at a dotted path (`birth_info.date`), creating missing parents.
    /// Refuses a path through a non-object, an empty segment, or (under `skills.`) an invalid
    /// skill id. A `null` value removes the key. Writing under `skills.<id>` stamps its
    /// `_meta.updated_at`.
    pub fn set_path(&self, user: &str, path: &str, value: Value) -> Result<()> {
        self.set_path_by(user, path, value, &self.front_end())
    }

    /// [`Store::set_path`], recorded in the undo history as made `by`.
    pub fn set_path_by(&self, user: &str, path: &str, value: Value, by: &ChangeBy) -> Result<()> {
        let segments = parse_dotted(path, "profile path")?;
        crate::bounds::check_value(&value, segments.len(), path)?;
        if segments.len() == 1 && !value.is_object() {
            return Err(StoreError::invalid(format!(
                "profile section \"{path}\" must be a JSON object, got {}; set a field inside it instead, e.g. \"{path}.name\"",
                type_name(&value)
            )));
        }
        if let ["skills", skill, ..] = segments.as_slice() {
            skill_rows::validate_skill_id(skill)?;
        }
        self.write_tx(|tx| match segments.as_slice() {
            ["skills"] => {
                let mut doc = assemble(tx, user)?;
                doc["skills"] = value;
                record_all(tx, user, &doc, by)?;
                replace_all(tx, user, doc)
            }
            ["skills", skill] => {
                let before = change::skill_snapshot(tx, user, skill)?;
                let new = Some(&value).filter(|v| !v.is_null());
                let text = change::summary("*", before.as_ref(), new);
                let target = HistoryTarget::Skill(skill.to_string());
                change::record(tx, user, &target, "*", by, &change::Before::Whole(before), &text)?;
                sync_record::lists_dropped(tx, user, skill)?;
                sync_record::doc_set(tx, user, path, &value)?;
                set_skill(tx, user, skill, value)
            }
            ["skills", skill, rel @ ..] => {
                state::set_in_skill(tx, user, skill, rel, path, value, by)
            }
            _ => {
                record_root(tx, user, &segments, by, Some(&value).filter(|v| !v.is_null()))?;
                sync_record::doc_set(tx, user, path, &value)?;
                set_root_path(tx, user, &segments, path, value)
            }
        })?;
        Ok(())
    }

    /// Replace the whole profile with `doc` (legacy shapes migrated first). `doc` must be a
    /// JSON object.
    pub fn import_profile(&self, user: &str, doc: Value) -> Result<Value> {
        if !doc.is_object() {
            return Err(StoreError::invalid(format!(
                "a profile must be a JSON object, got {}",
                type_name(&doc)
            )));
        }
        crate::bounds::check_shape(&doc, 0, "profile")?;
        let mut doc = doc;
        legacy::migrate_legacy_profile(&mut doc);
        fill_sections(&mut doc);
        let stored = self.write_tx(|tx| {
            record_all(tx, user, &doc, &ChangeBy::Import)?;
            replace_all(tx, user, doc)?;
            assemble(tx, user)
        })?;
        Ok(stored)
    }

    /// Migrate legacy shapes in every stored profile (docs/design.md#legacy-shapes). Idempotent.
    pub(crate) fn migrate_legacy_profiles(&self) -> Result<()> {
        let users: Vec<String> = {
            let conn = self.conn();
            let mut stmt = conn.prepare(
                "SELECT user_id FROM profiles
                 WHERE json_type(doc, '$.skill_data') IS NOT NULL
                    OR json_type(doc, '$.life_context._paths') IS NOT NULL",
            )?;
            stmt.query_map([], |r| r.get(0))?.collect::<rusqlite::Result<_>>()?
        };
        for user in users {
            self.write_tx(|tx| {
                let mut doc = assemble(tx, &user)?;
                if legacy::migrate_legacy_profile(&mut doc) {
                    tracing::info!(user = %user, "migrated legacy profile shape (docs/design.md#legacy-shapes)");
                    replace_all(tx, &user, doc)?;
                }
                Ok(())
            })?;
        }
        Ok(())
    }
}

/// Set the value at `segments` of the profile's own sections (not under `skills`).
pub(crate) fn set_root_path(
    tx: &Connection,
    user: &str,
    segments: &[&str],
    shown: &str,
    value: Value,
) -> Result<()> {
    let mut root = load_root(tx, user)?;
    set_in(&mut root, segments, shown, value)?;
    save_root(tx, user, &mut root)
}

/// `skills.<skill>` replaced whole (null forgets the skill's state).
pub(crate) fn set_skill(tx: &Connection, user: &str, skill: &str, value: Value) -> Result<()> {
    skill_rows::delete_skill(tx, user, skill)?;
    match value {
        Value::Null => Ok(()),
        mut value @ Value::Object(_) => {
            skill_rows::touch(&mut value)?;
            skill_rows::save_doc(tx, user, skill, &value)
        }
        other => Err(StoreError::invalid(format!(
            "skills.{skill} must be a JSON object, got {}",
            type_name(&other)
        ))),
    }
}

/// Make sure the standard top-level sections exist as objects.
fn fill_sections(doc: &mut Value) {
    if let (Value::Object(map), Value::Object(empty)) = (doc, empty_profile()) {
        for (key, value) in empty {
            map.entry(key).or_insert(value);
        }
    }
}
