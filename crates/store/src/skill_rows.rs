//! Storage of one skill's state (`skills.<skill>`): a JSON object row plus the lists that
//! `append_to_list` grows, kept one row per entry so an append costs the same whatever the
//! list's length. Lists are registered by dotted path relative to the skill; the object row
//! holds nothing at a registered path. `assemble` puts the pieces back together, skipping (and
//! reporting) a list entry whose stored JSON is damaged rather than failing the whole state.
//! All functions run inside the caller's transaction.

use rusqlite::{Connection, OptionalExtension, params};
use serde_json::{Map, Value};

use crate::error::{Result, StoreError};
use crate::{clock, json_path};

/// A skill id is 1–64 characters of `a-z`, `0-9` and `-`.
pub fn validate_skill_id(id: &str) -> Result<()> {
    let ok = !id.is_empty()
        && id.len() <= 64
        && id.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-');
    if ok {
        Ok(())
    } else {
        Err(StoreError::invalid(format!(
            "invalid skill id \"{id}\": use 1-64 characters of a-z, 0-9 and '-' (e.g. \"lifecoach\")"
        )))
    }
}

/// Stamp `_meta.updated_at` in a skill's state object.
pub(crate) fn touch(skill_doc: &mut Value) -> Result<()> {
    let meta = json_path::ensure_object_path(skill_doc, &["_meta"], "_meta")?;
    meta.insert("updated_at".into(), Value::String(clock::now_rfc3339()));
    Ok(())
}

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
    Ok(load_stored(tx, user, skill)?.unwrap_or_else(|| Value::Object(Map::new())))
}

/// The skill's object row, `None` when the skill has nothing stored.
pub(crate) fn load_stored(tx: &Connection, user: &str, skill: &str) -> Result<Option<Value>> {
    let text: Option<String> = tx
        .prepare_cached("SELECT doc FROM skill_states WHERE user_id = ?1 AND skill = ?2")?
        .query_row(params![user, skill], |r| r.get(0))
        .optional()?;
    text.map(|text| {
        serde_json::from_str(&text).map_err(|source| StoreError::CorruptJson {
            what: format!("state of skill {skill}"),
            source,
        })
    })
    .transpose()
}

/// The top-level `keys` of the object row `doc` with their lists in place; every other
/// top-level key is kept as `null` (its name and position only), for the undo history.
pub(crate) fn partial(
    tx: &Connection,
    skill: &str,
    doc: &Value,
    lists: &[ListRef],
    keys: &[&str],
) -> Result<Value> {
    let mut out: Map<String, Value> = doc
        .as_object()
        .map(|m| {
            m.iter()
                .map(|(k, v)| {
                    (k.clone(), if keys.contains(&k.as_str()) { v.clone() } else { Value::Null })
                })
                .collect()
        })
        .unwrap_or_default();
    let mut out = Value::Object(std::mem::take(&mut out));
    let mut skipped = Vec::new();
    for list in lists.iter().filter(|l| keys.contains(&l.segments()[0])) {
        place(tx, skill, &mut out, list, &mut skipped)?;
    }
    for warning in skipped {
        tracing::warn!(skill, "{warning}");
    }
    Ok(out)
}

/// Put the entries of `list` at its path in `doc`.
fn place(
    tx: &Connection,
    skill: &str,
    doc: &mut Value,
    list: &ListRef,
    skipped: &mut Vec<String>,
) -> Result<()> {
    let values = items(tx, skill, list, skipped)?;
    let segments = list.segments();
    let (parents, last) = segments.split_at(segments.len() - 1);
    match json_path::ensure_object_path(doc, parents, &list.path) {
        Ok(parent) => {
            parent.insert(last[0].to_string(), Value::Array(values));
        }
        Err(e) => {
            tracing::warn!(skill, path = %list.path, error = %e, "list has no object parent; not shown")
        }
    }
    Ok(())
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

/// Entries of a list, newest first. An entry that is not valid JSON (damaged outside
/// VibeLife) is skipped and described in `skipped`.
fn items(
    tx: &Connection,
    skill: &str,
    list: &ListRef,
    skipped: &mut Vec<String>,
) -> Result<Vec<Value>> {
    let mut stmt = tx.prepare_cached(
        "SELECT seq, item FROM state_list_items WHERE list_id = ?1 ORDER BY seq DESC",
    )?;
    let rows = stmt.query_map([list.id], |r| Ok((r.get::<_, i64>(0)?, r.get::<_, String>(1)?)))?;
    let mut out = Vec::new();
    for row in rows {
        let (seq, text) = row?;
        match serde_json::from_str(&text) {
            Ok(value) => out.push(value),
            Err(e) => skipped.push(format!(
                "skipped a damaged entry of list \"{}\" of skill {skill} (entry {seq}, stored JSON \
                 unreadable: {e}); the other entries are shown. Restore a backup to recover it",
                list.path
            )),
        }
    }
    Ok(out)
}

/// The skill's whole state: the object row with every registered list put in place.
/// `only` limits the lists read to those under these top-level sections.
pub(crate) fn assemble(
    tx: &Connection,
    user: &str,
    skill: &str,
    only: Option<&[String]>,
) -> Result<Value> {
    let mut skipped = Vec::new();
    let doc = assemble_reporting(tx, user, skill, only, &mut skipped)?;
    for warning in skipped {
        tracing::warn!(skill, "{warning}");
    }
    Ok(doc)
}

/// [`assemble`], saying in `skipped` which damaged list entries were left out.
pub(crate) fn assemble_reporting(
    tx: &Connection,
    user: &str,
    skill: &str,
    only: Option<&[String]>,
    skipped: &mut Vec<String>,
) -> Result<Value> {
    let mut doc = load_doc(tx, user, skill)?;
    for list in lists(tx, user, skill)? {
        let segments = list.segments();
        if only.is_some_and(|keep| !keep.iter().any(|k| k == segments[0])) {
            continue;
        }
        place(tx, skill, &mut doc, &list, skipped)?;
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

/// Make `entry`'s `_created_at` later than the list's newest entry's (by a millisecond when
/// two appends fall in the same one), so the stamp names one entry of the list: the journal's
/// entry ids are these stamps.
pub(crate) fn stamp_after_newest(tx: &Connection, list_id: i64, entry: &mut Value) -> Result<()> {
    let newest: Option<Option<String>> = tx
        .prepare_cached(
            "SELECT json_extract(item, '$._created_at') FROM state_list_items
             WHERE list_id = ?1 AND json_valid(item) ORDER BY seq DESC LIMIT 1",
        )?
        .query_row([list_id], |r| r.get(0))
        .optional()?;
    let parse = |s: &str| chrono::DateTime::parse_from_rfc3339(s).ok();
    let (Some(newest), Some(mine)) = (
        newest.flatten().as_deref().and_then(parse),
        entry["_created_at"].as_str().and_then(parse),
    ) else {
        return Ok(());
    };
    if mine <= newest {
        let later = newest.to_utc() + chrono::Duration::milliseconds(1);
        entry["_created_at"] = Value::String(crate::clock::stamp(later));
    }
    Ok(())
}

/// Remove the entry `seq` and answer its text. The older entries move up one place, so seqs
/// stay contiguous (`push_item`'s cap relies on it) and `len` stays the count.
pub(crate) fn remove_item(tx: &Connection, list_id: i64, seq: i64) -> Result<String> {
    let item: String = tx
        .prepare_cached(
            "DELETE FROM state_list_items WHERE list_id = ?1 AND seq = ?2 RETURNING item",
        )?
        .query_row(params![list_id, seq], |r| r.get(0))?;
    // Two steps, as seq is part of the key: negated (seqs are ≥ 1), then back.
    tx.prepare_cached(
        "UPDATE state_list_items SET seq = -(seq + 1) WHERE list_id = ?1 AND seq < ?2",
    )?
    .execute(params![list_id, seq])?;
    tx.prepare_cached("UPDATE state_list_items SET seq = -seq WHERE list_id = ?1 AND seq < 0")?
        .execute([list_id])?;
    // Sync's record of where each entry is moves along (no unique key there: one step).
    tx.prepare_cached(
        "UPDATE sync_entries SET seq = seq + 1 WHERE list_id = ?1 AND seq < ?2 AND deleted = 0",
    )?
    .execute(params![list_id, seq])?;
    tx.prepare_cached("UPDATE state_lists SET len = len - 1 WHERE id = ?1")?.execute([list_id])?;
    Ok(item)
}

/// The `_meta` object of a stored skill state, if any.
pub(crate) fn meta(tx: &Connection, user: &str, skill: &str) -> Result<Option<Value>> {
    let text: Option<Option<String>> = tx
        .prepare_cached(
            "SELECT json_extract(doc, '$._meta') FROM skill_states WHERE user_id = ?1 AND skill = ?2",
        )?
        .query_row(params![user, skill], |r| r.get(0))
        .optional()?;
    Ok(text.flatten().and_then(|t| serde_json::from_str(&t).ok()))
}

/// Add `item` as the newest entry, keep at most `max_items`; returns the length after and
/// the entries dropped (newest first). Entries have contiguous seqs, so the oldest dropped
/// are exactly those below the cut.
pub(crate) fn push_item(
    tx: &Connection,
    list_id: i64,
    item: &Value,
    max_items: usize,
) -> Result<(usize, Vec<Value>)> {
    let (seq, len): (i64, i64) = tx
        .prepare_cached("SELECT next_seq, len FROM state_lists WHERE id = ?1")?
        .query_row([list_id], |r| Ok((r.get(0)?, r.get(1)?)))?;
    insert_item(tx, list_id, seq, item)?;
    let max = i64::try_from(max_items).unwrap_or(i64::MAX);
    let kept = (len + 1).min(max);
    let mut dropped: Vec<(i64, String)> = Vec::new();
    if len + 1 > kept {
        let mut stmt = tx.prepare_cached(
            "DELETE FROM state_list_items WHERE list_id = ?1 AND seq <= ?2 RETURNING seq, item",
        )?;
        dropped = stmt
            .query_map(params![list_id, seq - max], |r| Ok((r.get(0)?, r.get(1)?)))?
            .collect::<rusqlite::Result<_>>()?;
        dropped.sort_by_key(|d| std::cmp::Reverse(d.0));
    }
    tx.prepare_cached("UPDATE state_lists SET next_seq = ?2, len = ?3 WHERE id = ?1")?
        .execute(params![list_id, seq + 1, kept])?;
    // A damaged entry (not valid JSON) cannot be kept for undo; it is dropped all the same.
    let dropped = dropped.into_iter().filter_map(|(_, t)| serde_json::from_str(&t).ok()).collect();
    Ok((kept as usize, dropped))
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use crate::{LOCAL_USER as U, Store};

    #[test]
    fn a_damaged_list_entry_is_reported_and_skipped_not_the_whole_state_lost() {
        let store = Store::open_in_memory().unwrap();
        for i in 0..3 {
            store
                .append_to_list(U, "coach", "journal", json!({"text": format!("day {i}")}), 1000)
                .unwrap();
        }
        store.write_state(U, "coach", "goals", json!({"q1": "run"})).unwrap();
        {
            let conn = store.conn();
            conn.execute_batch(
                "PRAGMA ignore_check_constraints = ON;
             UPDATE state_list_items SET item = '{\"text\": \"day 1' WHERE seq = 2;
             PRAGMA ignore_check_constraints = OFF;",
            )
            .unwrap();
        }
        let read = store.read_state(U, "coach", None).unwrap();
        let texts: Vec<&str> = read.data["journal"]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| e["text"].as_str().unwrap())
            .collect();
        assert_eq!(texts, vec!["day 2", "day 0"]);
        assert_eq!(read.data["goals"], json!({"q1": "run"}));
        assert_eq!(read.warnings.len(), 1);
        assert!(
            read.warnings[0]
                .contains("skipped a damaged entry of list \"journal\" of skill coach (entry 2"),
            "{}",
            read.warnings[0]
        );
        // Writing still works, and the profile as a whole still reads.
        store.append_to_list(U, "coach", "journal", json!({"text": "day 3"}), 1000).unwrap();
        assert_eq!(
            store.profile(U).unwrap()["skills"]["coach"]["journal"].as_array().unwrap().len(),
            3
        );
    }
}
