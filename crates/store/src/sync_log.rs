//! The operation log of sync (docs/sync.md#for-engineers), written in the same transaction as
//! the store write it describes, and only once sync is set up on this device (`sync_state` has
//! its row): the operation types, the device's clock, recording a local append, edit or removal
//! of a skill-state list entry, turning the whole store into operations when sync is set up, and
//! sealing operations into numbered batches. It never talks to a target or encrypts anything
//! (`vibe-sync` does); applying a peer's operations is `sync_apply`.

use rusqlite::{Connection, OptionalExtension, params};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::error::{Result, StoreError};
use crate::sync_clock::Hlc;
use crate::{Store, clock};

/// One change of synced data, as it travels between devices.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "op", rename_all = "snake_case")]
pub enum SyncOp {
    /// A list entry made or edited: its whole content (`_created_at` included); the write with
    /// the latest clock wins, a deleted entry stays deleted.
    ListPut { user: String, skill: String, path: String, entry_id: String, entry: Value },
    /// A list entry deleted: a tombstone, final.
    ListDelete { user: String, skill: String, path: String, entry_id: String },
    /// A conversation made or changed (title, skill, scenario, voice mode): the latest wins,
    /// a deleted conversation stays deleted.
    ConversationPut {
        user: String,
        id: String,
        title: Option<String>,
        skill: Option<String>,
        scenario: Option<String>,
        voice_mode: Option<String>,
        created_at: String,
    },
    /// A conversation deleted, with its messages: a tombstone, final.
    ConversationDelete { id: String },
    /// A message stored or rewritten (a streamed answer completed), by its synced id.
    MessagePut {
        user: String,
        conversation: String,
        id: String,
        role: String,
        content: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        tool_calls: Option<Value>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        tool_call_id: Option<String>,
        token_count: u32,
        interrupted: bool,
        created_at: String,
        /// The message's safety mark (`concern`/`acute`) and its category: a device never
        /// lowers a mark it holds (absent from devices before migration 0016).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        safety: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        safety_category: Option<String>,
    },
    /// A profile path (`birth_info.date`) or skill-state path (`skills.goals.goals.main`) set
    /// to `value` (`null` removes it): the latest write to it or to a path above it wins.
    DocSet { user: String, path: String, value: Value },
    /// A memory item added or changed (an extraction pass, the person's edit).
    MemoryPut {
        user: String,
        id: String,
        kind: String,
        text: String,
        confidence: f64,
        first_seen: String,
        last_seen: String,
        edited: bool,
        history: Value,
    },
    /// A memory item forgotten: a tombstone, final (a forget wins over any edit).
    MemoryForget { user: String, id: String, kind: String },
    /// A protocol run started or changed: its whole row (column names as keys).
    ProtocolRunPut { user: String, id: String, skill: String, run: Value },
}

/// An operation with the clock value of the write it records.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LoggedOp {
    pub hlc: Hlc,
    #[serde(flatten)]
    pub op: SyncOp,
}

/// A numbered batch of this device's operations, sealed and waiting to be written to the target.
#[derive(Debug, Clone, PartialEq)]
pub struct SealedBatch {
    /// This device's batch number (1, 2, …); its file's name on the target.
    pub number: u64,
    pub ops: Vec<LoggedOp>,
}

/// This device's sync state.
#[derive(Debug, Clone, PartialEq)]
pub struct SyncDevice {
    pub device_id: String,
    /// Batches sealed so far (the next one gets this number plus one).
    pub sealed: u64,
    /// Batches written to the target so far.
    pub uploaded: u64,
    /// Operations recorded and not yet sealed.
    pub pending_ops: u64,
    /// The end of the last sync run (RFC 3339).
    pub last_run: Option<String>,
}

/// The most operations one batch holds.
pub const BATCH_MAX_OPS: usize = 1000;
/// About the most bytes of operations (as JSON) one batch holds: a batch is applied in one
/// transaction and written as one file, so a first sync of years of data is many batches of
/// bounded size, and an interrupted one goes on from the last batch written or applied.
pub const BATCH_MAX_BYTES: usize = 1 << 20;

/// Give the operations not yet sealed batch numbers from `next` on, in order, at most
/// [`BATCH_MAX_OPS`] and about [`BATCH_MAX_BYTES`] each. The first run seals a batch even when
/// there is no operation: it names the device to the others.
fn seal_pending(tx: &Connection, next: i64) -> Result<()> {
    let mut stmt =
        tx.prepare("SELECT seq, length(op) FROM sync_ops WHERE batch IS NULL ORDER BY seq")?;
    let pending: Vec<(i64, i64)> =
        stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?.collect::<rusqlite::Result<_>>()?;
    // The last seq of each batch.
    let mut ends = Vec::new();
    let (mut ops, mut bytes) = (0usize, 0usize);
    for (i, &(seq, len)) in pending.iter().enumerate() {
        ops += 1;
        bytes += usize::try_from(len).unwrap_or(0);
        let last = i + 1 == pending.len();
        if last || ops >= BATCH_MAX_OPS || bytes >= BATCH_MAX_BYTES {
            ends.push(seq);
            (ops, bytes) = (0, 0);
        }
    }
    let mut number = next;
    for end in &ends {
        tx.prepare_cached("UPDATE sync_ops SET batch = ?1 WHERE batch IS NULL AND seq <= ?2")?
            .execute(params![number, end])?;
        number += 1;
    }
    if ends.is_empty() && next == 1 {
        number += 1;
    }
    tx.prepare_cached("UPDATE sync_state SET next_batch = ?1")?.execute([number])?;
    Ok(())
}

/// This device's id, when sync is set up.
pub(crate) fn device(tx: &Connection) -> Result<Option<String>> {
    Ok(tx
        .prepare_cached("SELECT device_id FROM sync_state WHERE one = 1")?
        .query_row([], |r| r.get(0))
        .optional()?)
}

fn now_ms() -> u64 {
    u64::try_from(clock::now().timestamp_millis()).unwrap_or(0)
}

/// The next clock value of a local write (stored as the last one).
pub(crate) fn tick(tx: &Connection, device: &str) -> Result<Hlc> {
    let last: String = tx
        .prepare_cached("SELECT hlc FROM sync_state WHERE one = 1")?
        .query_row([], |r| r.get(0))?;
    let last: Hlc = last.parse().map_err(|e| StoreError::invalid(format!("sync_state: {e}")))?;
    let next = last.tick(now_ms(), device);
    tx.prepare_cached("UPDATE sync_state SET hlc = ?1 WHERE one = 1")?
        .execute([next.to_string()])?;
    Ok(next)
}

/// Move this device's clock past a peer's value `seen`.
pub(crate) fn observe(tx: &Connection, seen: &Hlc) -> Result<()> {
    let last: String = tx
        .prepare_cached("SELECT hlc FROM sync_state WHERE one = 1")?
        .query_row([], |r| r.get(0))?;
    let last: Hlc = last.parse().map_err(|e| StoreError::invalid(format!("sync_state: {e}")))?;
    if seen > &last {
        tx.prepare_cached("UPDATE sync_state SET hlc = ?1 WHERE one = 1")?
            .execute([seen.to_string()])?;
    }
    Ok(())
}

pub(crate) fn log(tx: &Connection, op: &LoggedOp) -> Result<()> {
    let text = serde_json::to_string(op)
        .map_err(|e| StoreError::invalid(format!("sync operation not serialisable: {e}")))?;
    tx.prepare_cached("INSERT INTO sync_ops (hlc, op) VALUES (?1, ?2)")?
        .execute(params![op.hlc.to_string(), text])?;
    Ok(())
}

/// The list a local write touched: who, which skill, which path, which list row.
pub(crate) struct ListAt<'a> {
    pub user: &'a str,
    pub skill: &'a str,
    pub path: &'a str,
    pub list_id: i64,
}

impl ListAt<'_> {
    fn put(&self, entry_id: &str, entry: &Value) -> SyncOp {
        SyncOp::ListPut {
            user: self.user.into(),
            skill: self.skill.into(),
            path: self.path.into(),
            entry_id: entry_id.into(),
            entry: entry.clone(),
        }
    }

    fn delete(&self, entry_id: &str) -> SyncOp {
        SyncOp::ListDelete {
            user: self.user.into(),
            skill: self.skill.into(),
            path: self.path.into(),
            entry_id: entry_id.into(),
        }
    }
}

/// The id of the entry at `seq` of `list_id`, if sync knows it.
fn entry_at(tx: &Connection, list_id: i64, seq: i64) -> Result<Option<String>> {
    Ok(tx
        .prepare_cached(
            "SELECT entry_id FROM sync_entries WHERE list_id = ?1 AND seq = ?2 AND deleted = 0",
        )?
        .query_row(params![list_id, seq], |r| r.get(0))
        .optional()?)
}

/// Record the entry now at `seq` (new, or edited) as written locally: a `ListPut` with a new
/// clock value, the entry given an id when it has none.
pub(crate) fn put_local(tx: &Connection, at: &ListAt, seq: i64, entry: &Value) -> Result<()> {
    let Some(device) = device(tx)? else { return Ok(()) };
    let hlc = tick(tx, &device)?;
    let entry_id = match entry_at(tx, at.list_id, seq)? {
        Some(id) => {
            tx.prepare_cached("UPDATE sync_entries SET hlc = ?2 WHERE entry_id = ?1")?
                .execute(params![id, hlc.to_string()])?;
            id
        }
        None => {
            let id = uuid::Uuid::now_v7().to_string();
            tx.prepare_cached(
                "INSERT INTO sync_entries (entry_id, list_id, seq, hlc) VALUES (?1, ?2, ?3, ?4)",
            )?
            .execute(params![id, at.list_id, seq, hlc.to_string()])?;
            id
        }
    };
    log(tx, &LoggedOp { op: at.put(&entry_id, entry), hlc })
}

/// Record the deletion of the entries of `list_id` at seqs `seqs` (before they are removed):
/// tombstones, and a `ListDelete` each.
pub(crate) fn delete_local(tx: &Connection, at: &ListAt, seqs: &[i64]) -> Result<()> {
    let Some(device) = device(tx)? else { return Ok(()) };
    for &seq in seqs {
        let Some(entry_id) = entry_at(tx, at.list_id, seq)? else { continue };
        let hlc = tick(tx, &device)?;
        tx.prepare_cached(
            "UPDATE sync_entries SET deleted = 1, list_id = NULL, seq = NULL, hlc = ?2
             WHERE entry_id = ?1",
        )?
        .execute(params![entry_id, hlc.to_string()])?;
        log(tx, &LoggedOp { op: at.delete(&entry_id), hlc })?;
    }
    Ok(())
}

/// The seqs of the entries of `list_id` at or below `cut` that sync knows (an append's cap is
/// about to drop them).
pub(crate) fn known_at_or_below(tx: &Connection, list_id: i64, cut: i64) -> Result<Vec<i64>> {
    if device(tx)?.is_none() {
        return Ok(Vec::new());
    }
    let mut stmt = tx.prepare_cached(
        "SELECT seq FROM sync_entries WHERE list_id = ?1 AND seq <= ?2 AND deleted = 0",
    )?;
    let seqs = stmt.query_map(params![list_id, cut], |r| r.get(0))?;
    Ok(seqs.collect::<rusqlite::Result<_>>()?)
}

/// Every stored list entry that sync does not know yet, recorded as a `ListPut` (sync set up,
/// or joined: what the device already holds goes to the others). Answers how many.
pub(crate) fn record_existing_lists(tx: &Connection) -> Result<usize> {
    let mut stmt = tx.prepare(
        "SELECT l.id, l.user_id, l.skill, l.path, i.seq, i.item
         FROM state_list_items i JOIN state_lists l ON l.id = i.list_id
         WHERE json_valid(i.item) AND NOT EXISTS
           (SELECT 1 FROM sync_entries e WHERE e.list_id = i.list_id AND e.seq = i.seq)
         ORDER BY l.id, i.seq",
    )?;
    type Row = (i64, String, String, String, i64, String);
    let rows: Vec<Row> = stmt
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?, r.get(5)?)))?
        .collect::<rusqlite::Result<_>>()?;
    for (list_id, user, skill, path, seq, item) in &rows {
        let entry: Value = serde_json::from_str(item).map_err(|source| {
            StoreError::CorruptJson { what: format!("skills.{skill}.{path} entry"), source }
        })?;
        let at = ListAt { user, skill, path, list_id: *list_id };
        put_local(tx, &at, *seq, &entry)?;
    }
    Ok(rows.len())
}

impl Store {
    /// This device's sync state, `None` when sync is not set up.
    pub fn sync_device(&self) -> Result<Option<SyncDevice>> {
        self.read_tx(|tx| {
            let row = tx
                .query_row(
                    "SELECT device_id, next_batch - 1, uploaded_through,
                            (SELECT count(*) FROM sync_ops WHERE batch IS NULL), last_run
                     FROM sync_state WHERE one = 1",
                    [],
                    |r| {
                        Ok(SyncDevice {
                            device_id: r.get(0)?,
                            sealed: r.get::<_, i64>(1)?.max(0) as u64,
                            uploaded: r.get::<_, i64>(2)?.max(0) as u64,
                            pending_ops: r.get::<_, i64>(3)?.max(0) as u64,
                            last_run: r.get(4)?,
                        })
                    },
                )
                .optional()?;
            Ok(row)
        })
    }

    /// Seal the operations recorded since the last batch into new numbered batches (when there
    /// are any; [`BATCH_MAX_OPS`] and [`BATCH_MAX_BYTES`] bound each) and answer every sealed batch not yet written to the target, oldest first. A
    /// batch's number and content never change once sealed, so writing it again after a crash
    /// writes the same operations under the same name.
    pub fn sync_seal(&self) -> Result<Vec<SealedBatch>> {
        self.write_tx(|tx| {
            if device(tx)?.is_none() {
                return Err(StoreError::invalid("sync is not set up on this device"));
            }
            let (next, uploaded): (i64, i64) =
                tx.query_row("SELECT next_batch, uploaded_through FROM sync_state", [], |r| {
                    Ok((r.get(0)?, r.get(1)?))
                })?;
            seal_pending(tx, next)?;
            let mut stmt = tx.prepare(
                "SELECT batch, op FROM sync_ops WHERE batch IS NOT NULL ORDER BY batch, seq",
            )?;
            let rows = stmt.query_map([], |r| Ok((r.get::<_, i64>(0)?, r.get::<_, String>(1)?)))?;
            let sealed_through: i64 =
                tx.query_row("SELECT next_batch - 1 FROM sync_state", [], |r| r.get(0))?;
            // Every sealed batch not yet on the target, an empty one included (the others
            // read a device's batches in order, so none may be missing).
            let mut batches: Vec<SealedBatch> = (uploaded + 1..=sealed_through)
                .map(|n| SealedBatch { number: n.max(0) as u64, ops: Vec::new() })
                .collect();
            for row in rows {
                let (number, text) = row?;
                let op: LoggedOp =
                    serde_json::from_str(&text).map_err(|source| StoreError::CorruptJson {
                        what: format!("sync operation of batch {number}"),
                        source,
                    })?;
                if let Some(batch) = batches.iter_mut().find(|b| b.number == number.max(0) as u64) {
                    batch.ops.push(op);
                }
            }
            Ok(batches)
        })
    }

    /// Sync goes on as device `device_id` (another copy of this data folder, a restored
    /// backup, writes as the old id): its batches are numbered from 1 again, every operation
    /// not yet on the target is sealed again under the new id, and the clock is kept.
    pub fn sync_new_device_id(&self, device_id: &str) -> Result<()> {
        if device_id.is_empty() || device_id.contains(['/', '\\', '.']) {
            return Err(StoreError::invalid(format!("invalid sync device id \"{device_id}\"")));
        }
        self.write_tx(|tx| {
            tx.execute(
                "UPDATE sync_state SET device_id = ?1, next_batch = 1, uploaded_through = 0",
                [device_id],
            )?;
            tx.execute("UPDATE sync_ops SET batch = NULL", [])?;
            Ok(())
        })
    }

    /// A sync run ended (its time is shown in the status).
    pub fn sync_finished(&self) -> Result<()> {
        self.write_tx(|tx| {
            tx.execute("UPDATE sync_state SET last_run = ?1", [clock::now_rfc3339()])?;
            Ok(())
        })
    }

    /// Batch `number` is on the target: its operations are dropped from the log.
    pub fn sync_uploaded(&self, number: u64) -> Result<()> {
        let number = i64::try_from(number).unwrap_or(i64::MAX);
        self.write_tx(|tx| {
            tx.execute("DELETE FROM sync_ops WHERE batch <= ?1", [number])?;
            tx.execute(
                "UPDATE sync_state SET uploaded_through = max(uploaded_through, ?1)",
                [number],
            )?;
            Ok(())
        })
    }
}
