//! What sync records in bulk rather than per write (docs/sync.md, "What is recorded"):
//! everything a data folder already holds when sync is set up or joined, and the values an
//! undo put back, and setting sync up (`Store::sync_enable`, which records them). It only
//! calls `sync_record`'s per-write recording; applying a peer's operations is `sync_merge`'s.

use rusqlite::{Connection, params};
use serde_json::{Map, Value};

use crate::Store;
use crate::error::{Result, StoreError};
use crate::skill_rows;
use crate::sync_clock::Hlc;
use crate::sync_record::{conversation, doc_set, memory, message, protocol_run};

impl Store {
    /// Set sync up on this device as `device_id` (once; again with the same id is a no-op) and
    /// record everything synced that the store holds as operations. Answers how many.
    pub fn sync_enable(&self, device_id: &str) -> Result<usize> {
        if device_id.is_empty() || device_id.contains(['/', '\\', '.']) {
            return Err(StoreError::invalid(format!(
                "invalid sync device id \"{device_id}\": use letters, digits and '-'"
            )));
        }
        self.write_tx(|tx| {
            match crate::sync_log::device(tx)? {
                Some(id) if id == device_id => return Ok(0),
                Some(id) => {
                    return Err(StoreError::invalid(format!(
                        "sync is already set up on this device as {id}; it keeps that id"
                    )));
                }
                None => {}
            }
            tx.execute(
                "INSERT INTO sync_state (one, device_id, hlc) VALUES (1, ?1, ?2)",
                params![device_id, Hlc::zero(device_id).to_string()],
            )?;
            Ok(crate::sync_log::record_existing_lists(tx)? + record_existing(tx)?)
        })
    }
}

fn enabled(tx: &Connection) -> Result<bool> {
    Ok(crate::sync_log::device(tx)?.is_some())
}

/// Everything of the new kinds the store holds, recorded when sync is set up or joined (what
/// the device already holds goes to the others). Answers how many operations.
pub(crate) fn record_existing(tx: &Connection) -> Result<usize> {
    let ids = |sql: &str| -> Result<Vec<String>> {
        let mut stmt = tx.prepare(sql)?;
        let rows = stmt.query_map([], |r| r.get(0))?.collect::<rusqlite::Result<_>>()?;
        Ok(rows)
    };
    let mut n = 0;
    for id in ids("SELECT id FROM conversations ORDER BY created_at, id")? {
        conversation(tx, &id)?;
        n += 1;
    }
    let mut stmt = tx.prepare("SELECT id FROM messages ORDER BY id")?;
    let rowids: Vec<i64> = stmt.query_map([], |r| r.get(0))?.collect::<rusqlite::Result<_>>()?;
    drop(stmt);
    for rowid in rowids {
        message(tx, rowid)?;
        n += 1;
    }
    for user in ids("SELECT user_id FROM profiles UNION SELECT user_id FROM skill_states")? {
        n += existing_doc(tx, &user)?;
    }
    for id in ids("SELECT id FROM memory_items ORDER BY first_seen, id")? {
        memory(tx, &id)?;
        n += 1;
    }
    for id in ids("SELECT id FROM protocol_runs ORDER BY started_at, id")? {
        protocol_run(tx, &id)?;
        n += 1;
    }
    Ok(n)
}

/// The profile's fields and skill-state values of `user`, one `DocSet` per key inside each
/// section (so a device joining does not wipe another's fields of the same section).
fn existing_doc(tx: &Connection, user: &str) -> Result<usize> {
    let mut n = 0;
    let mut set = |prefix: String, doc: &Value, skip: &[&str]| -> Result<()> {
        let Some(map) = doc.as_object() else { return Ok(()) };
        for (section, value) in map.iter().filter(|(k, _)| !skip.contains(&k.as_str())) {
            match value.as_object() {
                Some(inner) => {
                    for (key, v) in inner {
                        doc_set(tx, user, &format!("{prefix}{section}.{key}"), v)?;
                        n += 1;
                    }
                }
                None => {
                    doc_set(tx, user, &format!("{prefix}{section}"), value)?;
                    n += 1;
                }
            }
        }
        Ok(())
    };
    if let Some(root) = crate::profile::root_snapshot(tx, user)? {
        set(String::new(), &root, &["skills"])?;
    }
    for skill in skill_rows::skills(tx, user)? {
        let doc = skill_rows::load_doc(tx, user, &skill)?;
        set(format!("skills.{skill}."), &doc, &["_meta", "protocol"])?;
    }
    Ok(n)
}

/// An undo put back an older value of the profile's own sections (`skill`: `None`) or of a
/// skill's state: what changed is recorded as ordinary writes, each key of each section that
/// differs a `DocSet` (the undo history itself stays on this device). A skill's lists were
/// recorded as deleted before ([`lists_dropped`]); the restored ones travel as values.
pub(crate) fn restored(
    tx: &Connection,
    user: &str,
    skill: Option<&str>,
    old: &Value,
    new: &Value,
) -> Result<()> {
    if !enabled(tx)? {
        return Ok(());
    }
    let (prefix, skip): (String, &[&str]) = match skill {
        Some(skill) => (format!("skills.{skill}."), &["_meta", "protocol"]),
        None => (String::new(), &["skills"]),
    };
    let empty = Map::new();
    let (old, new) = (old.as_object().unwrap_or(&empty), new.as_object().unwrap_or(&empty));
    let mut sections: Vec<&String> = old.keys().chain(new.keys()).collect();
    sections.sort();
    sections.dedup();
    for section in sections.into_iter().filter(|s| !skip.contains(&s.as_str())) {
        let (a, b) = (old.get(section), new.get(section));
        if a == b {
            continue;
        }
        match (a.and_then(Value::as_object), b.and_then(Value::as_object)) {
            (Some(a), Some(b)) => {
                let mut keys: Vec<&String> = a.keys().chain(b.keys()).collect();
                keys.sort();
                keys.dedup();
                for key in keys.into_iter().filter(|k| a.get(*k) != b.get(*k)) {
                    let value = b.get(key).cloned().unwrap_or(Value::Null);
                    doc_set(tx, user, &format!("{prefix}{section}.{key}"), &value)?;
                }
            }
            _ => doc_set(tx, user, &format!("{prefix}{section}"), b.unwrap_or(&Value::Null))?,
        }
    }
    Ok(())
}
