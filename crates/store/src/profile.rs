//! The profile document (seed 000 §3.2): one JSON object per local user with `account`,
//! `birth_info`, `preferences`, `state`, `skills.{id}` and `extracted`. Reading, setting a
//! dotted path, importing (legacy shapes migrated) and the shared load/save used by the
//! skill-state operations. Every change runs in one IMMEDIATE transaction and invalidates only
//! the cache entries that read what changed.

use rusqlite::{OptionalExtension, Transaction, params};
use serde_json::{Value, json};

use crate::error::{Result, StoreError};
use crate::json_path::{ensure_object_path, parse_dotted, type_name};
use crate::{Store, clock, legacy, state};

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

/// Load a user's document inside a transaction (an empty profile when none is stored).
pub(crate) fn load(tx: &Transaction<'_>, user: &str) -> Result<Value> {
    let text: Option<String> = tx
        .query_row("SELECT doc FROM profiles WHERE user_id = ?1", [user], |r| r.get(0))
        .optional()?;
    match text {
        None => Ok(empty_profile()),
        Some(text) => serde_json::from_str(&text).map_err(|source| StoreError::CorruptJson {
            what: format!("profile of user {user}"),
            source,
        }),
    }
}

/// Save a user's document inside a transaction.
pub(crate) fn save(tx: &Transaction<'_>, user: &str, doc: &Value) -> Result<()> {
    tx.execute(
        "INSERT INTO profiles (user_id, doc, updated_at) VALUES (?1, ?2, ?3)
         ON CONFLICT (user_id) DO UPDATE SET doc = excluded.doc, updated_at = excluded.updated_at",
        params![user, doc.to_string(), clock::now_rfc3339()],
    )?;
    Ok(())
}

/// Stamp `skills.<skill>._meta.updated_at`.
pub(crate) fn touch_skill(doc: &mut Value, skill: &str) -> Result<()> {
    let meta = ensure_object_path(doc, &["skills", skill, "_meta"], "_meta")?;
    meta.insert("updated_at".into(), Value::String(clock::now_rfc3339()));
    Ok(())
}

impl Store {
    /// The whole profile document of `user`.
    pub fn profile(&self, user: &str) -> Result<Value> {
        let mut conn = self.conn();
        let tx = conn.transaction()?;
        load(&tx, user)
    }

    /// Replace the value at a dotted path (`birth_info.date`), creating missing parents.
    /// Refuses a path through a non-object, an empty segment, or (under `skills.`) an invalid
    /// skill id. A `null` value removes the key. Writing under `skills.<id>` stamps its
    /// `_meta.updated_at`.
    pub fn set_path(&self, user: &str, path: &str, value: Value) -> Result<()> {
        let segments = parse_dotted(path, "profile path")?;
        let skill = match segments.as_slice() {
            ["skills", id, ..] => {
                state::validate_skill_id(id)?;
                Some(id.to_string())
            }
            _ => None,
        };
        if segments.len() == 1 && !value.is_object() {
            return Err(StoreError::invalid(format!(
                "profile section \"{path}\" must be a JSON object, got {}; set a field inside it instead, e.g. \"{path}.name\"",
                type_name(&value)
            )));
        }
        let (parents, last) = segments.split_at(segments.len() - 1);
        let removes_skill = segments.len() == 2 && value.is_null();
        self.write_tx(|tx| {
            let mut doc = load(tx, user)?;
            let parent = ensure_object_path(&mut doc, parents, path)?;
            if value.is_null() {
                parent.remove(last[0]);
            } else {
                parent.insert(last[0].to_string(), value);
            }
            if let Some(skill) = &skill
                && !removes_skill
            {
                touch_skill(&mut doc, skill)?;
            }
            save(tx, user, &doc)
        })?;
        self.cache.invalidate(user, path);
        Ok(())
    }

    /// Replace the whole profile with `doc` (legacy shapes migrated first). `doc` must be a
    /// JSON object.
    pub fn import_profile(&self, user: &str, doc: Value) -> Result<Value> {
        let Value::Object(map) = doc else {
            return Err(StoreError::invalid(format!(
                "a profile must be a JSON object, got {}",
                type_name(&doc)
            )));
        };
        let mut doc = Value::Object(map);
        legacy::migrate_legacy_profile(&mut doc);
        fill_sections(&mut doc);
        self.write_tx(|tx| save(tx, user, &doc))?;
        self.cache.invalidate(user, "");
        Ok(doc)
    }

    /// Migrate legacy shapes in every stored profile (seed 000 §6). Idempotent.
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
                let mut doc = load(tx, &user)?;
                if legacy::migrate_legacy_profile(&mut doc) {
                    tracing::info!(user = %user, "migrated legacy profile shape (seed 000 §6)");
                    save(tx, &user, &doc)?;
                }
                Ok(())
            })?;
        }
        Ok(())
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

