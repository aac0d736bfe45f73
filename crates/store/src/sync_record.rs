//! Recording the local writes of every synced kind but list entries (docs/sync.md, "What is
//! recorded"): conversations, messages, profile and skill-state paths, memory items, protocol
//! runs. Each function is called inside the transaction of the store write it describes, reads
//! what that write left, and logs one operation with a new clock value; all do nothing until
//! sync is set up. The registers (`sync_rows`, migration 0015) keep per synced id the clock of
//! its last write and its tombstone. Applying a peer's operations is `sync_merge`'s.

use rusqlite::{Connection, OptionalExtension, params};
use serde_json::{Map, Value, json};

use crate::error::{Result, StoreError};
use crate::skill_rows::{self, ListRef};
use crate::sync_clock::Hlc;
use crate::sync_log::{self, LoggedOp, SyncOp};

/// The kinds of `sync_rows`.
pub(crate) const CONVERSATION: &str = "conversation";
pub(crate) const MESSAGE: &str = "message";
pub(crate) const DOC: &str = "doc";
pub(crate) const MEMORY: &str = "memory";
pub(crate) const PROTOCOL_RUN: &str = "protocol_run";

/// A register: what sync knows of one synced id.
pub(crate) struct Reg {
    pub local: Option<String>,
    pub hlc: Hlc,
    pub deleted: bool,
}

pub(crate) fn reg(tx: &Connection, kind: &str, key: &str) -> Result<Option<Reg>> {
    let row: Option<(Option<String>, String, bool)> = tx
        .prepare_cached("SELECT local, hlc, deleted FROM sync_rows WHERE kind = ?1 AND key = ?2")?
        .query_row(params![kind, key], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
        .optional()?;
    row.map(|(local, hlc, deleted)| {
        let hlc = hlc.parse().map_err(|e| StoreError::invalid(format!("sync_rows: {e}")))?;
        Ok(Reg { local, hlc, deleted })
    })
    .transpose()
}

/// Write the register of (`kind`, `key`); a tombstone stays one.
pub(crate) fn set_reg(
    tx: &Connection,
    kind: &str,
    key: &str,
    local: Option<&str>,
    hlc: &Hlc,
    deleted: bool,
    value: Option<&str>,
) -> Result<()> {
    tx.prepare_cached(
        "INSERT INTO sync_rows (kind, key, local, hlc, deleted, value) VALUES (?1, ?2, ?3, ?4, ?5, ?6)
         ON CONFLICT (kind, key) DO UPDATE SET local = coalesce(?3, local), hlc = ?4,
             deleted = max(deleted, ?5), value = ?6",
    )?
    .execute(params![kind, key, local, hlc.to_string(), deleted, value])?;
    Ok(())
}

/// The register key of a profile or skill-state path.
pub(crate) fn doc_key(user: &str, path: &str) -> String {
    format!("{user}\u{1f}{path}")
}

/// Log `op` with a new clock value and set its register; nothing when sync is not set up.
fn record(
    tx: &Connection,
    (kind, key, local): (&str, &str, Option<&str>),
    deleted: bool,
    value: Option<&str>,
    op: impl FnOnce() -> Result<SyncOp>,
) -> Result<()> {
    let Some(device) = sync_log::device(tx)? else { return Ok(()) };
    let hlc = sync_log::tick(tx, &device)?;
    set_reg(tx, kind, key, local, &hlc, deleted, value)?;
    sync_log::log(tx, &LoggedOp { op: op()?, hlc })
}

fn enabled(tx: &Connection) -> Result<bool> {
    Ok(sync_log::device(tx)?.is_some())
}

/// Conversation `id` was made or changed.
pub(crate) fn conversation(tx: &Connection, id: &str) -> Result<()> {
    if !enabled(tx)? {
        return Ok(());
    }
    record(tx, (CONVERSATION, id, None), false, None, || conversation_op(tx, id))
}

fn conversation_op(tx: &Connection, id: &str) -> Result<SyncOp> {
    Ok(tx
        .prepare_cached(
            "SELECT user_id, title, skill, scenario, voice_mode, created_at FROM conversations WHERE id = ?1",
        )?
        .query_row([id], |r| {
            Ok(SyncOp::ConversationPut {
                user: r.get(0)?,
                id: id.to_string(),
                title: r.get(1)?,
                skill: r.get(2)?,
                scenario: r.get(3)?,
                voice_mode: r.get(4)?,
                created_at: r.get(5)?,
            })
        })?)
}

/// Conversation `id` was deleted.
pub(crate) fn conversation_deleted(tx: &Connection, id: &str) -> Result<()> {
    record(tx, (CONVERSATION, id, None), true, None, || {
        Ok(SyncOp::ConversationDelete { id: id.to_string() })
    })
}

/// A message row was just inserted as `rowid`: SQLite reuses the row ids of deleted messages
/// (a deleted conversation's), so a register still naming this row id belongs to a message that
/// is gone; it lets go of the row, or that message's puts would rewrite this one here and the
/// new message would travel under the old one's id.
pub(crate) fn message_row_reused(tx: &Connection, rowid: i64) -> Result<()> {
    tx.prepare_cached("UPDATE sync_rows SET local = NULL WHERE kind = 'message' AND local = ?1")?
        .execute([rowid.to_string()])?;
    Ok(())
}

/// Message `rowid` was just inserted: a put under a new synced id.
pub(crate) fn message_inserted(tx: &Connection, rowid: i64) -> Result<()> {
    message_row_reused(tx, rowid)?;
    message(tx, rowid)
}

/// Message `rowid` was stored or rewritten: a put under its synced id (a new one when new).
pub(crate) fn message(tx: &Connection, rowid: i64) -> Result<()> {
    if !enabled(tx)? {
        return Ok(());
    }
    let local = rowid.to_string();
    let known: Option<String> = tx
        .prepare_cached("SELECT key FROM sync_rows WHERE kind = 'message' AND local = ?1")?
        .query_row([&local], |r| r.get(0))
        .optional()?;
    let key = known.unwrap_or_else(|| uuid::Uuid::now_v7().to_string());
    record(tx, (MESSAGE, &key, Some(&local)), false, None, || message_op(tx, rowid, &key))
}

fn message_op(tx: &Connection, rowid: i64, key: &str) -> Result<SyncOp> {
    let op = tx
        .prepare_cached(
            "SELECT c.user_id, m.conversation_id, m.role, m.content, m.tool_calls, m.tool_call_id,
                    m.token_count, m.status, m.created_at, m.safety, m.safety_category
             FROM messages m JOIN conversations c ON c.id = m.conversation_id WHERE m.id = ?1",
        )?
        .query_row([rowid], |r| {
            let calls: Option<String> = r.get(4)?;
            Ok(SyncOp::MessagePut {
                user: r.get(0)?,
                conversation: r.get(1)?,
                id: key.to_string(),
                role: r.get(2)?,
                content: r.get(3)?,
                tool_calls: calls.and_then(|t| serde_json::from_str(&t).ok()),
                tool_call_id: r.get(5)?,
                token_count: r.get(6)?,
                interrupted: r.get::<_, String>(7)? == "interrupted",
                created_at: r.get(8)?,
                safety: r.get(9)?,
                safety_category: r.get(10)?,
            })
        })?;
    Ok(op)
}

/// The profile or skill-state `path` (dotted, from the profile's root) was set to `value`.
/// The protocol mirror (`skills.<skill>.protocol`) is not recorded: every device derives it
/// from the runs.
pub(crate) fn doc_set(tx: &Connection, user: &str, path: &str, value: &Value) -> Result<()> {
    if !enabled(tx)? || is_mirror(path) {
        return Ok(());
    }
    let key = doc_key(user, path);
    let text = value.to_string();
    record(tx, (DOC, &key, None), false, Some(&text), || {
        Ok(SyncOp::DocSet { user: user.into(), path: path.into(), value: value.clone() })
    })
}

fn is_mirror(path: &str) -> bool {
    let segments: Vec<&str> = path.split('.').collect();
    matches!(segments.as_slice(), ["skills", _, "protocol", ..])
}

/// A list is about to go (a write replaced or removed the value it was in): each of its
/// entries is deleted for sync, so no device keeps or resurrects them.
pub(crate) fn list_dropped(tx: &Connection, user: &str, skill: &str, list: &ListRef) -> Result<()> {
    if !enabled(tx)? {
        return Ok(());
    }
    let seqs: Vec<i64> = tx
        .prepare_cached("SELECT seq FROM sync_entries WHERE list_id = ?1 AND deleted = 0")?
        .query_map([list.id], |r| r.get(0))?
        .collect::<rusqlite::Result<_>>()?;
    let at = sync_log::ListAt { user, skill, path: &list.path, list_id: list.id };
    sync_log::delete_local(tx, &at, &seqs)
}

/// Every list of `skill` is about to go (the skill's state replaced whole).
pub(crate) fn lists_dropped(tx: &Connection, user: &str, skill: &str) -> Result<()> {
    if !enabled(tx)? {
        return Ok(());
    }
    for list in skill_rows::lists(tx, user, skill)? {
        list_dropped(tx, user, skill, &list)?;
    }
    Ok(())
}

/// Memory item `id` was added, changed or forgotten.
pub(crate) fn memory(tx: &Connection, id: &str) -> Result<()> {
    if !enabled(tx)? {
        return Ok(());
    }
    let row = tx
        .prepare_cached(
            "SELECT user_id, kind, text, confidence, first_seen, last_seen, edited, history,
                    forgotten_at IS NOT NULL
             FROM memory_items WHERE id = ?1",
        )?
        .query_row([id], |r| {
            let history: String = r.get(7)?;
            let forgotten: bool = r.get(8)?;
            let (user, kind): (String, String) = (r.get(0)?, r.get(1)?);
            Ok(if forgotten {
                SyncOp::MemoryForget { user, id: id.into(), kind }
            } else {
                SyncOp::MemoryPut {
                    user,
                    id: id.into(),
                    kind,
                    text: r.get(2)?,
                    confidence: r.get(3)?,
                    first_seen: r.get(4)?,
                    last_seen: r.get(5)?,
                    edited: r.get(6)?,
                    history: serde_json::from_str(&history).unwrap_or_else(|_| json!([])),
                }
            })
        })
        .optional()?;
    let Some(op) = row else { return Ok(()) };
    let deleted = matches!(op, SyncOp::MemoryForget { .. });
    record(tx, (MEMORY, id, None), deleted, None, || Ok(op))
}

/// The columns of a protocol run as they travel.
pub(crate) const RUN_COLUMNS: [&str; 16] = [
    "id",
    "user_id",
    "skill",
    "protocol_id",
    "protocol_version",
    "status",
    "step",
    "total_steps",
    "data",
    "summaries",
    "conversation_id",
    "model",
    "cancel_reason",
    "started_at",
    "last_activity_at",
    "completed_at",
];

/// Protocol run `id` was started or changed; its register keeps the status it claims.
pub(crate) fn protocol_run(tx: &Connection, id: &str) -> Result<()> {
    if !enabled(tx)? {
        return Ok(());
    }
    let cols = RUN_COLUMNS.join(", ");
    let run: Map<String, Value> = tx
        .prepare_cached(&format!("SELECT {cols} FROM protocol_runs WHERE id = ?1"))?
        .query_row([id], |r| {
            let mut map = Map::new();
            for (i, name) in RUN_COLUMNS.iter().enumerate() {
                let value = match r.get_ref(i)? {
                    rusqlite::types::ValueRef::Null => Value::Null,
                    rusqlite::types::ValueRef::Integer(n) => json!(n),
                    rusqlite::types::ValueRef::Real(f) => json!(f),
                    rusqlite::types::ValueRef::Text(t) => {
                        let t = String::from_utf8_lossy(t).into_owned();
                        if matches!(*name, "data" | "summaries") {
                            serde_json::from_str(&t).unwrap_or_else(|_| json!({}))
                        } else {
                            Value::String(t)
                        }
                    }
                    rusqlite::types::ValueRef::Blob(_) => Value::Null,
                };
                map.insert((*name).to_string(), value);
            }
            Ok(map)
        })?;
    let text = |k: &str| run.get(k).and_then(Value::as_str).unwrap_or_default().to_string();
    let (user, skill, status) = (text("user_id"), text("skill"), text("status"));
    record(tx, (PROTOCOL_RUN, id, None), false, Some(&status), || {
        Ok(SyncOp::ProtocolRunPut { user, id: id.into(), skill, run: Value::Object(run) })
    })
}

/// The runs of `skill` that are paused here but whose last write claims `active` (a peer's run
/// came first) are recorded again as paused: the person chose another run.
pub(crate) fn runs_paused(tx: &Connection, user: &str, skill: &str) -> Result<()> {
    if !enabled(tx)? {
        return Ok(());
    }
    let ids: Vec<String> = tx
        .prepare_cached(
            "SELECT p.id FROM protocol_runs p JOIN sync_rows s ON s.kind = 'protocol_run' AND s.key = p.id
             WHERE p.user_id = ?1 AND p.skill = ?2 AND p.status = 'paused' AND s.value = 'active'",
        )?
        .query_map(params![user, skill], |r| r.get(0))?
        .collect::<rusqlite::Result<_>>()?;
    for id in ids {
        protocol_run(tx, &id)?;
    }
    Ok(())
}
