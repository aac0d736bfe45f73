//! Applying a peer's batch of sync operations (docs/sync.md, "Merge rules"), in one transaction
//! with the peer's cursor, so a batch is applied exactly once even when a sync is killed
//! half-way. The rules make the result independent of the order batches arrive in: a list
//! entry is a register keyed by its id whose write with the latest clock value wins; a deleted
//! entry stays deleted (no resurrection, no duplicate); a list is kept ordered by the entries'
//! `_created_at`, then id, so every device shows it in the same order. Decrypting and checking
//! batch files is `vibe-sync`'s business, not this module's.

use std::collections::BTreeSet;

use rusqlite::{Connection, OptionalExtension, params};
use serde_json::Value;

use crate::error::{Result, StoreError};
use crate::json_path::parse_dotted;
use crate::sync_clock::Hlc;
use crate::sync_log::{self, LoggedOp, SyncOp};
use crate::sync_merge::{self, Outcome};
use crate::{Store, clock, skill_rows};

/// What applying one batch did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SyncApplied {
    /// Entries added or changed.
    pub put: usize,
    /// Entries deleted.
    pub deleted: usize,
    /// Operations that changed nothing (already applied, older than what is stored, or about
    /// a deleted entry).
    pub unchanged: usize,
    /// Operations that could not be applied here, and why (e.g. the path holds no list on
    /// this device); the batch is still counted as applied.
    pub skipped: Vec<String>,
}

/// A device seen on the target.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SyncPeer {
    pub device_id: String,
    /// The name it gave itself, from its batches.
    pub name: Option<String>,
    /// Batches of it applied here.
    pub applied: u64,
    /// When it was last read from.
    pub seen_at: Option<String>,
}

/// Where an entry is and what is known of it.
struct Known {
    list_id: Option<i64>,
    seq: Option<i64>,
    hlc: Hlc,
    deleted: bool,
}

fn known(tx: &Connection, entry_id: &str) -> Result<Option<Known>> {
    let row: Option<(Option<i64>, Option<i64>, String, bool)> = tx
        .prepare_cached("SELECT list_id, seq, hlc, deleted FROM sync_entries WHERE entry_id = ?1")?
        .query_row([entry_id], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)))
        .optional()?;
    row.map(|(list_id, seq, hlc, deleted)| {
        let hlc = hlc.parse().map_err(|e| StoreError::invalid(format!("sync_entries: {e}")))?;
        Ok(Known { list_id, seq, hlc, deleted })
    })
    .transpose()
}

/// The list at `path` of `skill`, made when missing; an error when the path holds no list.
fn list_for(tx: &Connection, user: &str, skill: &str, path: &str) -> Result<i64> {
    if let Some(id) = skill_rows::find_list(tx, user, skill, path)? {
        return Ok(id);
    }
    skill_rows::validate_skill_id(skill)?;
    let segments = parse_dotted(path, "list path")?;
    let mut doc = skill_rows::load_doc(tx, user, skill)?;
    let lists = skill_rows::lists(tx, user, skill)?;
    let id = crate::state::new_list(tx, user, skill, path, &segments, &lists, &mut doc)?;
    skill_rows::touch(&mut doc)?;
    skill_rows::save_doc(tx, user, skill, &doc)?;
    Ok(id)
}

/// Add `entry` as the newest of `list_id` (its place is settled by `resequence`); its seq.
fn insert(tx: &Connection, list_id: i64, entry: &Value) -> Result<i64> {
    let seq: i64 = tx
        .prepare_cached("SELECT next_seq FROM state_lists WHERE id = ?1")?
        .query_row([list_id], |r| r.get(0))?;
    tx.prepare_cached("INSERT INTO state_list_items (list_id, seq, item) VALUES (?1, ?2, ?3)")?
        .execute(params![list_id, seq, entry.to_string()])?;
    tx.prepare_cached(
        "UPDATE state_lists SET next_seq = next_seq + 1, len = len + 1 WHERE id = ?1",
    )?
    .execute([list_id])?;
    Ok(seq)
}

/// Whether the item row at (`list_id`, `seq`) exists.
fn present(tx: &Connection, list_id: Option<i64>, seq: Option<i64>) -> Result<Option<(i64, i64)>> {
    let (Some(list_id), Some(seq)) = (list_id, seq) else { return Ok(None) };
    let found = tx
        .prepare_cached("SELECT 1 FROM state_list_items WHERE list_id = ?1 AND seq = ?2")?
        .query_row(params![list_id, seq], |_| Ok(()))
        .optional()?;
    Ok(found.map(|()| (list_id, seq)))
}

/// A list an operation changed, and whose skill it belongs to.
#[derive(PartialEq, Eq, PartialOrd, Ord)]
struct Touched {
    list_id: i64,
    user: String,
    skill: String,
}

/// Apply one operation; answers the list it changed, if any.
fn apply_op(tx: &Connection, op: &LoggedOp, done: &mut SyncApplied) -> Result<Option<Touched>> {
    let hlc = op.hlc.to_string();
    match &op.op {
        SyncOp::ListPut { user, skill, path, entry_id, entry } => {
            let known = known(tx, entry_id)?;
            if known.as_ref().is_some_and(|k| k.deleted || k.hlc >= op.hlc) {
                done.unchanged += 1;
                if known.as_ref().is_some_and(|k| k.deleted) {
                    return list_of_deleted(tx, user, skill, path, &op.hlc);
                }
                return Ok(None);
            }
            let place = match &known {
                Some(k) => present(tx, k.list_id, k.seq)?,
                None => None,
            };
            let list_id = match place {
                Some((list_id, seq)) => {
                    tx.prepare_cached(
                        "UPDATE state_list_items SET item = ?3 WHERE list_id = ?1 AND seq = ?2",
                    )?
                    .execute(params![list_id, seq, entry.to_string()])?;
                    tx.prepare_cached("UPDATE sync_entries SET hlc = ?2 WHERE entry_id = ?1")?
                        .execute(params![entry_id, hlc])?;
                    list_id
                }
                None => {
                    let list_id = list_for(tx, user, skill, path)?;
                    let seq = insert(tx, list_id, entry)?;
                    tx.prepare_cached(
                        "INSERT INTO sync_entries (entry_id, list_id, seq, hlc) VALUES (?1, ?2, ?3, ?4)
                         ON CONFLICT (entry_id) DO UPDATE SET list_id = ?2, seq = ?3, hlc = ?4",
                    )?
                    .execute(params![entry_id, list_id, seq, hlc])?;
                    list_id
                }
            };
            done.put += 1;
            Ok(Some(Touched { list_id, user: user.clone(), skill: skill.clone() }))
        }
        other @ (SyncOp::ConversationPut { .. }
        | SyncOp::ConversationDelete { .. }
        | SyncOp::MessagePut { .. }
        | SyncOp::DocSet { .. }
        | SyncOp::MemoryPut { .. }
        | SyncOp::MemoryForget { .. }
        | SyncOp::ProtocolRunPut { .. }) => {
            match sync_merge::apply(tx, other, &op.hlc)? {
                Outcome::Put => done.put += 1,
                Outcome::Deleted => done.deleted += 1,
                Outcome::Unchanged => done.unchanged += 1,
            }
            Ok(None)
        }
        SyncOp::ListDelete { user, skill, entry_id, .. } => {
            let known = known(tx, entry_id)?;
            if known.as_ref().is_some_and(|k| k.deleted) {
                done.unchanged += 1;
                return Ok(None);
            }
            let place = match &known {
                Some(k) => present(tx, k.list_id, k.seq)?,
                None => None,
            };
            tx.prepare_cached(
                "INSERT INTO sync_entries (entry_id, hlc, deleted) VALUES (?1, ?2, 1)
                 ON CONFLICT (entry_id) DO UPDATE SET list_id = NULL, seq = NULL, deleted = 1,
                     hlc = max(hlc, ?2)",
            )?
            .execute(params![entry_id, hlc])?;
            done.deleted += 1;
            let Some((list_id, seq)) = place else { return Ok(None) };
            skill_rows::remove_item(tx, list_id, seq)?;
            Ok(Some(Touched { list_id, user: user.clone(), skill: skill.clone() }))
        }
    }
}

/// A put of an entry deleted here still made its list where there was none (on the device
/// that wrote it, and on one that read the put before the deletion): the list is made, so
/// whether an emptied list exists does not depend on the order the two arrive in. Not when a
/// later write replaced or removed the path, nor when the path holds no list here.
fn list_of_deleted(
    tx: &Connection,
    user: &str,
    skill: &str,
    path: &str,
    hlc: &Hlc,
) -> Result<Option<Touched>> {
    if skill_rows::find_list(tx, user, skill, path)?.is_some()
        || sync_merge::written_over(tx, user, &format!("skills.{skill}.{path}"), hlc)?
    {
        return Ok(None);
    }
    tx.execute_batch("SAVEPOINT sync_list")?;
    match list_for(tx, user, skill, path) {
        Ok(list_id) => {
            tx.execute_batch("RELEASE sync_list")?;
            Ok(Some(Touched { list_id, user: user.into(), skill: skill.into() }))
        }
        Err(_) => {
            tx.execute_batch("ROLLBACK TO sync_list; RELEASE sync_list")?;
            Ok(None)
        }
    }
}

/// Put the entries of `list_id` in the order every device agrees on: by `_created_at`, then
/// entry id (newest = highest seq), seqs 1..n, moving sync's record of each along.
fn resequence(tx: &Connection, list_id: i64) -> Result<()> {
    let mut stmt = tx.prepare_cached(
        "SELECT i.seq, coalesce(json_extract(i.item, '$._created_at'), ''), coalesce(e.entry_id, '')
         FROM state_list_items i
         LEFT JOIN sync_entries e ON e.list_id = i.list_id AND e.seq = i.seq AND e.deleted = 0
         WHERE i.list_id = ?1",
    )?;
    let mut rows: Vec<(i64, String, String)> = stmt
        .query_map([list_id], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?
        .collect::<rusqlite::Result<_>>()?;
    rows.sort_by(|a, b| (&a.1, &a.2).cmp(&(&b.1, &b.2)));
    let n = rows.len() as i64;
    if rows.iter().enumerate().all(|(i, r)| r.0 == i as i64 + 1) {
        tx.prepare_cached("UPDATE state_lists SET next_seq = ?2, len = ?2 - 1 WHERE id = ?1")?
            .execute(params![list_id, n + 1])?;
        return Ok(());
    }
    // Two steps, as seq is part of the key: to the new place negated, then back.
    for (i, (old, _, _)) in rows.iter().enumerate() {
        let new = -(i as i64 + 1);
        tx.prepare_cached("UPDATE state_list_items SET seq = ?3 WHERE list_id = ?1 AND seq = ?2")?
            .execute(params![list_id, old, new])?;
        tx.prepare_cached(
            "UPDATE sync_entries SET seq = ?3 WHERE list_id = ?1 AND seq = ?2 AND deleted = 0",
        )?
        .execute(params![list_id, old, new])?;
    }
    tx.prepare_cached("UPDATE state_list_items SET seq = -seq WHERE list_id = ?1 AND seq < 0")?
        .execute([list_id])?;
    tx.prepare_cached("UPDATE sync_entries SET seq = -seq WHERE list_id = ?1 AND seq < 0")?
        .execute([list_id])?;
    tx.prepare_cached("UPDATE state_lists SET next_seq = ?2, len = ?2 - 1 WHERE id = ?1")?
        .execute(params![list_id, n + 1])?;
    Ok(())
}

fn cursor(tx: &Connection, device: &str) -> Result<u64> {
    let next: Option<i64> = tx
        .prepare_cached("SELECT next_batch FROM sync_peers WHERE device_id = ?1")?
        .query_row([device], |r| r.get(0))
        .optional()?;
    Ok(next.unwrap_or(1).max(1) as u64)
}

impl Store {
    /// The number of the next batch of `device` to apply (1 when none was).
    pub fn sync_peer_cursor(&self, device: &str) -> Result<u64> {
        self.read_tx(|tx| cursor(tx, device))
    }

    /// Apply batch `number` of peer `device` (named `name` inside it), in one transaction with
    /// the peer's cursor: a batch other than the next one expected changes nothing (`None`).
    pub fn sync_apply(
        &self,
        device: &str,
        number: u64,
        name: Option<&str>,
        ops: &[LoggedOp],
    ) -> Result<Option<SyncApplied>> {
        self.apply_peer(device, number..=number, name, ops)
    }

    /// Apply peer `device`'s snapshot of its batches 1 to `through` (it compacted its files),
    /// in one transaction with its cursor, when this device has not yet applied them all
    /// (`None` otherwise). What of it was applied already changes nothing again: every merge
    /// rule keeps a register's latest write, and a write is never later than itself.
    pub fn sync_apply_snapshot(
        &self,
        device: &str,
        through: u64,
        name: Option<&str>,
        ops: &[LoggedOp],
    ) -> Result<Option<SyncApplied>> {
        self.apply_peer(device, 1..=through, name, ops)
    }

    /// Apply `ops` of `device` when its cursor is within `covers`, moving the cursor past it.
    fn apply_peer(
        &self,
        device: &str,
        covers: std::ops::RangeInclusive<u64>,
        name: Option<&str>,
        ops: &[LoggedOp],
    ) -> Result<Option<SyncApplied>> {
        let number = *covers.end();
        self.write_tx(|tx| {
            let Some(me) = sync_log::device(tx)? else {
                return Err(StoreError::invalid("sync is not set up on this device"));
            };
            if me == device || !covers.contains(&cursor(tx, device)?) {
                return Ok(None);
            }
            let mut done = SyncApplied::default();
            let mut touched = BTreeSet::new();
            for op in ops {
                sync_log::observe(tx, &op.hlc)?;
                // A failing operation must not leave half of itself: a savepoint each.
                tx.execute_batch("SAVEPOINT sync_op")?;
                match apply_op(tx, op, &mut done) {
                    Ok(list) => {
                        tx.execute_batch("RELEASE sync_op")?;
                        touched.extend(list);
                    }
                    Err(e) => {
                        tx.execute_batch("ROLLBACK TO sync_op; RELEASE sync_op")?;
                        done.skipped.push(format!("{}: {e}", describe(&op.op)));
                    }
                }
            }
            let mut skills = BTreeSet::new();
            for Touched { list_id, user, skill } in touched {
                resequence(tx, list_id)?;
                skills.insert((user, skill));
            }
            for (user, skill) in skills {
                skill_rows::touch_doc(tx, &user, &skill)?;
            }
            let next = i64::try_from(number + 1).unwrap_or(i64::MAX);
            tx.prepare_cached(
                "INSERT INTO sync_peers (device_id, next_batch, name, seen_at) VALUES (?1, ?2, ?3, ?4)
                 ON CONFLICT (device_id) DO UPDATE SET next_batch = ?2,
                     name = coalesce(?3, name), seen_at = ?4",
            )?
            .execute(params![device, next, name, clock::now_rfc3339()])?;
            Ok(Some(done))
        })
    }

    /// Device `device` was removed from sync: it is no longer listed (its batches applied so
    /// far stay applied, and its cursor stays where it is).
    pub fn sync_peer_removed(&self, device: &str) -> Result<()> {
        self.write_tx(|tx| {
            tx.prepare_cached(
                "INSERT INTO sync_peers (device_id, removed) VALUES (?1, 1)
                 ON CONFLICT (device_id) DO UPDATE SET removed = 1",
            )?
            .execute([device])?;
            Ok(())
        })
    }

    /// The other devices this one has read from.
    pub fn sync_peers(&self) -> Result<Vec<SyncPeer>> {
        self.read_tx(|tx| {
            let mut stmt = tx.prepare(
                "SELECT device_id, name, next_batch - 1, seen_at FROM sync_peers WHERE removed = 0
                 ORDER BY device_id",
            )?;
            let rows = stmt.query_map([], |r| {
                Ok(SyncPeer {
                    device_id: r.get(0)?,
                    name: r.get(1)?,
                    applied: r.get::<_, i64>(2)?.max(0) as u64,
                    seen_at: r.get(3)?,
                })
            })?;
            Ok(rows.collect::<rusqlite::Result<_>>()?)
        })
    }
}

fn describe(op: &SyncOp) -> String {
    match op {
        SyncOp::ListPut { skill, path, entry_id, .. } => {
            format!("put of entry {entry_id} in skills.{skill}.{path}")
        }
        SyncOp::ListDelete { skill, path, entry_id, .. } => {
            format!("delete of entry {entry_id} in skills.{skill}.{path}")
        }
        SyncOp::ConversationPut { id, .. } => format!("change of conversation {id}"),
        SyncOp::ConversationDelete { id } => format!("deletion of conversation {id}"),
        SyncOp::MessagePut { id, conversation, .. } => {
            format!("message {id} of conversation {conversation}")
        }
        SyncOp::DocSet { path, .. } => format!("write of {path}"),
        SyncOp::MemoryPut { id, .. } => format!("change of memory item {id}"),
        SyncOp::MemoryForget { id, .. } => format!("forget of memory item {id}"),
        SyncOp::ProtocolRunPut { id, skill, .. } => format!("protocol run {id} of skill {skill}"),
    }
}

#[cfg(test)]
#[path = "sync_tests.rs"]
mod tests;
