//! Storage of one skill's state (`skills.<skill>`): a JSON object row plus the lists that
//! `append_to_list` grows, kept one row per entry so an append costs the same whatever the
//! list's length. Lists are registered by dotted path relative to the skill; the object row
//! holds nothing at a registered path. `assemble` puts the pieces back together.
//! All functions run inside the caller's transaction.

use rusqlite::{Connection, OptionalExtension, params};
use serde_json::{Map, Value};

use crate::error::{Result, StoreError};
use crate::{clock, json_path};

/// A registered list of a skill.
pub(crate) struct ListRef {
    pub id: i64,
    pub path: String,
}

impl ListRef {
    pub fn segments(&self) -> Vec<&str> {
        self.path.split('.').collect()
    }
}

/// The skill's object row (without its registered lists); `{}` when none is stored.
pub(crate) fn load_doc(tx: &Connection, user: &str, skill: &str) -> Result<Value> {
    let text: Option<String> = tx
        .prepare_cached("SELECT doc FROM skill_states WHERE user_id = ?1 AND skill = ?2")?
        .query_row(params![user, skill], |r| r.get(0))
        .optional()?;
    match text {
        None => Ok(Value::Object(Map::new())),
        Some(text) => serde_json::from_str(&text).map_err(|source| StoreError::CorruptJson {
            what: format!("state of skill {skill}"),
            source,
        }),
    }
}

pub(crate) fn save_doc(tx: &Connection, user: &str, skill: &str, doc: &Value) -> Result<()> {
    tx.prepare_cached(
        "INSERT INTO skill_states (user_id, skill, doc, updated_at) VALUES (?1, ?2, ?3, ?4)
         ON CONFLICT (user_id, skill) DO UPDATE SET doc = excluded.doc, updated_at = excluded.updated_at",
    )?
    .execute(params![user, skill, doc.to_string(), clock::now_rfc3339()])?;
    Ok(())
}

/// Every skill of `user` that has stored state, by name.
pub(crate) fn skills(tx: &Connection, user: &str) -> Result<Vec<String>> {
    let mut stmt =
        tx.prepare_cached("SELECT skill FROM skill_states WHERE user_id = ?1 ORDER BY rowid")?;
    let names = stmt.query_map([user], |r| r.get(0))?.collect::<rusqlite::Result<_>>()?;
    Ok(names)
}

/// Forget a skill's state entirely (its lists go with it).
pub(crate) fn delete_skill(tx: &Connection, user: &str, skill: &str) -> Result<()> {
    tx.execute("DELETE FROM skill_states WHERE user_id = ?1 AND skill = ?2", params![user, skill])?;
    Ok(())
}

pub(crate) fn lists(tx: &Connection, user: &str, skill: &str) -> Result<Vec<ListRef>> {
    let mut stmt = tx.prepare_cached(
        "SELECT id, path FROM state_lists WHERE user_id = ?1 AND skill = ?2 ORDER BY path",
    )?;
    let rows = stmt
        .query_map(params![user, skill], |r| Ok(ListRef { id: r.get(0)?, path: r.get(1)? }))?
        .collect::<rusqlite::Result<_>>()?;
    Ok(rows)
}

/// The id of the list registered at `path`, if any.
pub(crate) fn find_list(
    tx: &Connection,
    user: &str,
    skill: &str,
    path: &str,
) -> Result<Option<i64>> {
    Ok(tx
        .prepare_cached(
            "SELECT id FROM state_lists WHERE user_id = ?1 AND skill = ?2 AND path = ?3",
        )?
        .query_row(params![user, skill, path], |r| r.get(0))
        .optional()?)
}

/// Stamp `_meta.updated_at` of a stored skill state in place (no round trip through Rust).
pub(crate) fn touch_doc(tx: &Connection, user: &str, skill: &str) -> Result<()> {
    let now = clock::now_rfc3339();
    tx.prepare_cached(
        "UPDATE skill_states SET doc = json_set(doc, '$._meta', json_patch(coalesce(json_extract(doc, '$._meta'), '{}'), json_object('updated_at', ?3))),
                updated_at = ?3
         WHERE user_id = ?1 AND skill = ?2",
    )?
    .execute(params![user, skill, now])?;
    Ok(())
}

pub(crate) fn drop_list(tx: &Connection, list: &ListRef) -> Result<()> {
    tx.prepare_cached("DELETE FROM state_lists WHERE id = ?1")?.execute([list.id])?;
    Ok(())
}

/// Entries of a list, newest first.
fn items(tx: &Connection, list_id: i64) -> Result<Vec<Value>> {
    let mut stmt = tx
        .prepare_cached("SELECT item FROM state_list_items WHERE list_id = ?1 ORDER BY seq DESC")?;
    let rows = stmt.query_map([list_id], |r| r.get::<_, String>(0))?;
    rows.map(|text| {
        let text = text?;
        serde_json::from_str(&text).map_err(|source| StoreError::CorruptJson {
            what: format!("list entry of list {list_id}"),
            source,
        })
    })
    .collect()
}

/// The skill's whole state: the object row with every registered list put in place.
/// `only` limits the lists read to those under these top-level sections.
pub(crate) fn assemble(
    tx: &Connection,
    user: &str,
    skill: &str,
    only: Option<&[String]>,
) -> Result<Value> {
    let mut doc = load_doc(tx, user, skill)?;
    for list in lists(tx, user, skill)? {
        let segments = list.segments();
        if only.is_some_and(|keep| !keep.iter().any(|k| k == segments[0])) {
            continue;
        }
        let values = items(tx, list.id)?;
        let (parents, last) = segments.split_at(segments.len() - 1);
        match json_path::ensure_object_path(&mut doc, parents, &list.path) {
            Ok(parent) => {
                parent.insert(last[0].to_string(), Value::Array(values));
            }
            Err(e) => {
                tracing::warn!(skill, path = %list.path, error = %e, "list has no object parent; not shown")
            }
        }
    }
    Ok(doc)
}

/// Register a new list at `path` holding `initial` (newest first), returning its id.
pub(crate) fn create_list(
    tx: &Connection,
    user: &str,
    skill: &str,
    path: &str,
    initial: Vec<Value>,
) -> Result<i64> {
    let n = initial.len() as i64;
    tx.prepare_cached(
        "INSERT INTO state_lists (user_id, skill, path, next_seq, len) VALUES (?1, ?2, ?3, ?4, ?5)",
    )?
    .execute(params![user, skill, path, n + 1, n])?;
    let id = tx.last_insert_rowid();
    for (i, item) in initial.into_iter().enumerate() {
        insert_item(tx, id, n - i as i64, &item)?;
    }
    Ok(id)
}

fn insert_item(tx: &Connection, list_id: i64, seq: i64, item: &Value) -> Result<()> {
    tx.prepare_cached("INSERT INTO state_list_items (list_id, seq, item) VALUES (?1, ?2, ?3)")?
        .execute(params![list_id, seq, item.to_string()])?;
    Ok(())
}

/// Add `item` as the newest entry, keep at most `max_items`; returns (length, dropped).
/// Entries have contiguous seqs, so the oldest `dropped` are exactly those below the cut.
pub(crate) fn push_item(
    tx: &Connection,
    list_id: i64,
    item: &Value,
    max_items: usize,
) -> Result<(usize, usize)> {
    let (seq, len): (i64, i64) = tx
        .prepare_cached("SELECT next_seq, len FROM state_lists WHERE id = ?1")?
        .query_row([list_id], |r| Ok((r.get(0)?, r.get(1)?)))?;
    insert_item(tx, list_id, seq, item)?;
    let max = max_items as i64;
    let kept = (len + 1).min(max);
    let dropped = len + 1 - kept;
    if dropped > 0 {
        tx.prepare_cached("DELETE FROM state_list_items WHERE list_id = ?1 AND seq <= ?2")?
            .execute(params![list_id, seq - max])?;
    }
    tx.prepare_cached("UPDATE state_lists SET next_seq = ?2, len = ?3 WHERE id = ?1")?
        .execute(params![list_id, seq + 1, kept])?;
    Ok((kept as usize, dropped as usize))
}
