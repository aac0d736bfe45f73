//! Applying a peer's operations on every synced kind but list entries (docs/sync.md, "Merge
//! rules"), inside `sync_apply`'s transaction: conversations and messages by id (a deleted
//! conversation stays deleted), profile and skill-state paths last-writer-wins by clock (a
//! write to a path above wins over older writes below it), memory items (a forget wins over
//! any edit), protocol runs (one active run per skill: of the runs whose last write claims
//! `active`, the first started stays active, the others are kept paused). Each rule depends
//! only on the registers (`sync_rows`), never on the order operations arrive in. Nothing here
//! records operations (a peer's write is not sent again).

use rusqlite::{Connection, params};
use serde_json::Value;

use crate::error::{Result, StoreError};
use crate::json_path::parse_dotted;
use crate::sync_clock::Hlc;
use crate::sync_log::SyncOp;
use crate::sync_record::{
    CONVERSATION, DOC, MEMORY, MESSAGE, PROTOCOL_RUN, RUN_COLUMNS, doc_key, reg, set_reg,
};
use crate::{clock, profile, protocol_runs, skill_rows, state};

/// What one operation did here.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Outcome {
    Put,
    Deleted,
    Unchanged,
}
use Outcome::{Deleted, Put, Unchanged};

/// Apply `op` (not a list operation) written at `hlc`.
pub(crate) fn apply(tx: &Connection, op: &SyncOp, hlc: &Hlc) -> Result<Outcome> {
    match op {
        SyncOp::ListPut { .. } | SyncOp::ListDelete { .. } => {
            Err(StoreError::invalid("list operations are applied by sync_apply"))
        }
        SyncOp::ConversationPut { .. } => conversation_put(tx, op, hlc),
        SyncOp::ConversationDelete { id } => conversation_delete(tx, id, hlc),
        SyncOp::MessagePut { .. } => message_put(tx, op, hlc),
        SyncOp::DocSet { user, path, value } => doc_set(tx, user, path, value, hlc),
        SyncOp::MemoryPut { .. } => memory_put(tx, op, hlc),
        SyncOp::MemoryForget { user, id, kind } => memory_forget(tx, user, id, kind, hlc),
        SyncOp::ProtocolRunPut { user, id, skill, run } => run_put(tx, user, id, skill, run, hlc),
    }
}

/// Whether a write to `path` (of `user`'s profile) or to a path above it is later than `hlc`.
pub(crate) fn written_over(tx: &Connection, user: &str, path: &str, hlc: &Hlc) -> Result<bool> {
    let segments = parse_dotted(path, "synced path")?;
    for i in 1..=segments.len() {
        if reg(tx, DOC, &doc_key(user, &segments[..i].join(".")))?.is_some_and(|r| &r.hlc > hlc) {
            return Ok(true);
        }
    }
    Ok(false)
}

/// Whether the register of (`kind`, `key`) already holds `hlc` or later, or a tombstone.
fn stale(tx: &Connection, kind: &str, key: &str, hlc: &Hlc) -> Result<bool> {
    Ok(reg(tx, kind, key)?.is_some_and(|r| r.deleted || &r.hlc >= hlc))
}

fn conversation_put(tx: &Connection, op: &SyncOp, hlc: &Hlc) -> Result<Outcome> {
    let SyncOp::ConversationPut { user, id, title, skill, scenario, voice_mode, created_at } = op
    else {
        return Ok(Unchanged);
    };
    if stale(tx, CONVERSATION, id, hlc)? {
        return Ok(Unchanged);
    }
    tx.prepare_cached(
        "INSERT INTO conversations (id, user_id, title, skill, scenario, voice_mode, created_at, updated_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?7)
         ON CONFLICT (id) DO UPDATE SET title = ?3, skill = ?4, scenario = ?5, voice_mode = ?6",
    )?
    .execute(params![id, user, title, skill, scenario, voice_mode, created_at])?;
    set_reg(tx, CONVERSATION, id, None, hlc, false, None)?;
    Ok(Put)
}

fn conversation_delete(tx: &Connection, id: &str, hlc: &Hlc) -> Result<Outcome> {
    if reg(tx, CONVERSATION, id)?.is_some_and(|r| r.deleted) {
        return Ok(Unchanged);
    }
    tx.prepare_cached("DELETE FROM conversations WHERE id = ?1")?.execute([id])?;
    set_reg(tx, CONVERSATION, id, None, hlc, true, None)?;
    Ok(Deleted)
}

fn message_put(tx: &Connection, op: &SyncOp, hlc: &Hlc) -> Result<Outcome> {
    let SyncOp::MessagePut {
        user,
        conversation,
        id,
        role,
        content,
        tool_calls,
        tool_call_id,
        token_count,
        interrupted,
        created_at,
        safety,
        safety_category,
    } = op
    else {
        return Ok(Unchanged);
    };
    if reg(tx, CONVERSATION, conversation)?.is_some_and(|r| r.deleted) {
        return Ok(Unchanged);
    }
    let known = reg(tx, MESSAGE, id)?;
    if known.as_ref().is_some_and(|r| &r.hlc >= hlc) {
        return Ok(Unchanged);
    }
    let status = if *interrupted { "interrupted" } else { "complete" };
    let calls = tool_calls.as_ref().map(Value::to_string);
    let local = known.and_then(|r| r.local).and_then(|l| l.parse::<i64>().ok());
    let updated = match local {
        Some(rowid) => tx
            .prepare_cached(
                "UPDATE messages SET content = ?2, tool_calls = ?3, token_count = ?4, status = ?5 WHERE id = ?1",
            )?
            .execute(params![rowid, content, calls, token_count, status])?,
        None => 0,
    };
    let rowid = match (updated, local) {
        (1, Some(rowid)) => rowid,
        _ => {
            // A message can arrive before its conversation (another device wrote it after
            // reading the conversation): the conversation starts bare, its put fills it in.
            tx.prepare_cached(
                "INSERT OR IGNORE INTO conversations (id, user_id, created_at, updated_at) VALUES (?1, ?2, ?3, ?3)",
            )?
            .execute(params![conversation, user, created_at])?;
            let before: i64 = tx
                .prepare_cached(
                    "SELECT coalesce(max(id), 0) FROM messages WHERE conversation_id = ?1",
                )?
                .query_row([conversation], |r| r.get(0))?;
            tx.prepare_cached(
                "INSERT INTO messages (conversation_id, role, content, tool_calls, tool_call_id, token_count, status, created_at)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
            )?
            .execute(params![conversation, role, content, calls, tool_call_id, token_count, status, created_at])?;
            let rowid = tx.last_insert_rowid();
            crate::sync_record::message_row_reused(tx, rowid)?;
            tx.prepare_cached(
                "UPDATE conversations SET updated_at = max(updated_at, ?2) WHERE id = ?1",
            )?
            .execute(params![conversation, created_at])?;
            skip_extraction(tx, conversation, before, rowid)?;
            rowid
        }
    };
    // A mark only rises: an older write of the message (made before it was marked, or on a
    // device from before marks travelled) leaves the mark here as it is.
    if let Some(mark) = crate::message_safety::safety_mark(safety.clone(), safety_category.clone())
    {
        crate::message_safety::raise_mark(tx, rowid, mark.risk, mark.category)?;
    }
    set_reg(tx, MESSAGE, id, Some(&rowid.to_string()), hlc, false, None)?;
    Ok(Put)
}

/// The device that wrote a message draws memory from it and syncs the items: extraction here
/// skips it, unless this device has messages of the conversation it has not read yet (then
/// they are read together, and same words merge).
fn skip_extraction(tx: &Connection, conversation: &str, before: i64, rowid: i64) -> Result<()> {
    let watermark: i64 = tx
        .prepare_cached(
            "SELECT coalesce(max(through_message_id), 0) FROM memory_watermarks WHERE conversation_id = ?1",
        )?
        .query_row([conversation], |r| r.get(0))?;
    if watermark >= before {
        tx.prepare_cached(
            "INSERT INTO memory_watermarks (conversation_id, through_message_id, extracted_at) VALUES (?1, ?2, ?3)
             ON CONFLICT (conversation_id) DO UPDATE SET through_message_id = max(through_message_id, ?2)",
        )?
        .execute(params![conversation, rowid, clock::now_rfc3339()])?;
    }
    Ok(())
}

fn doc_set(tx: &Connection, user: &str, path: &str, value: &Value, hlc: &Hlc) -> Result<Outcome> {
    let segments = parse_dotted(path, "synced path")?;
    for i in 1..=segments.len() {
        if stale(tx, DOC, &doc_key(user, &segments[..i].join(".")), hlc)? {
            return Ok(Unchanged);
        }
    }
    set_path(tx, user, path, value.clone())?;
    let key = doc_key(user, path);
    set_reg(tx, DOC, &key, None, hlc, false, Some(&value.to_string()))?;
    // Later writes below this path were made after it: they stay on top.
    let below: Vec<(String, String)> = tx
        .prepare_cached(
            "SELECT key, value FROM sync_rows WHERE kind = 'doc' AND substr(key, 1, length(?1)) = ?1
                 AND hlc > ?2 AND value IS NOT NULL ORDER BY hlc",
        )?
        .query_map(params![format!("{key}."), hlc.to_string()], |r| Ok((r.get(0)?, r.get(1)?)))?
        .collect::<rusqlite::Result<_>>()?;
    for (key, text) in below {
        let sub = key.split_once('\u{1f}').map_or(key.as_str(), |(_, p)| p);
        let value: Value = serde_json::from_str(&text).unwrap_or(Value::Null);
        if let Err(e) = set_path(tx, user, sub, value) {
            tracing::warn!(path = sub, "synced value not re-applied: {e}");
        }
    }
    Ok(Put)
}

/// Set a profile or skill-state path without recording it (a peer's write).
fn set_path(tx: &Connection, user: &str, path: &str, value: Value) -> Result<()> {
    let segments = parse_dotted(path, "synced path")?;
    match segments.as_slice() {
        ["skills"] => {
            Err(StoreError::invalid("the whole `skills` section is not synced as one value"))
        }
        ["skills", skill] => {
            skill_rows::validate_skill_id(skill)?;
            profile::set_skill(tx, user, skill, value)
        }
        ["skills", skill, rel @ ..] => {
            skill_rows::validate_skill_id(skill)?;
            state::put_in_skill(tx, user, skill, rel, path, value, false)
        }
        _ => profile::set_root_path(tx, user, &segments, path, value),
    }
}

fn memory_put(tx: &Connection, op: &SyncOp, hlc: &Hlc) -> Result<Outcome> {
    let SyncOp::MemoryPut {
        user,
        id,
        kind,
        text,
        confidence,
        first_seen,
        last_seen,
        edited,
        history,
    } = op
    else {
        return Ok(Unchanged);
    };
    if stale(tx, MEMORY, id, hlc)? {
        return Ok(Unchanged);
    }
    let n = tx
        .prepare_cached(
            "INSERT INTO memory_items (id, user_id, kind, text, confidence, first_seen, last_seen, edited, history, updated_at)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)
             ON CONFLICT (id) DO UPDATE SET text = ?4, confidence = ?5, first_seen = ?6,
                 last_seen = ?7, edited = ?8, history = ?9, updated_at = ?10
             WHERE forgotten_at IS NULL",
        )?
        .execute(params![
            id,
            user,
            kind,
            text,
            confidence,
            first_seen,
            last_seen,
            edited,
            history.to_string(),
            clock::now_rfc3339()
        ])?;
    if n == 0 {
        return Ok(Unchanged); // forgotten here before sync knew it
    }
    set_reg(tx, MEMORY, id, None, hlc, false, None)?;
    Ok(Put)
}

fn memory_forget(tx: &Connection, user: &str, id: &str, kind: &str, hlc: &Hlc) -> Result<Outcome> {
    if reg(tx, MEMORY, id)?.is_some_and(|r| r.deleted) {
        return Ok(Unchanged);
    }
    let now = clock::now_rfc3339();
    tx.prepare_cached(
        "INSERT INTO memory_items (id, user_id, kind, text, confidence, first_seen, last_seen, history, forgotten_at, updated_at)
         VALUES (?1, ?2, ?3, '', 0, ?4, ?4, '[]', ?4, ?4)
         ON CONFLICT (id) DO UPDATE SET text = '', history = '[]', confidence = 0,
             forgotten_at = coalesce(forgotten_at, ?4), updated_at = ?4",
    )?
    .execute(params![id, user, kind, now])?;
    set_reg(tx, MEMORY, id, None, hlc, true, None)?;
    Ok(Deleted)
}

fn run_put(
    tx: &Connection,
    user: &str,
    id: &str,
    skill: &str,
    run: &Value,
    hlc: &Hlc,
) -> Result<Outcome> {
    skill_rows::validate_skill_id(skill)?;
    if stale(tx, PROTOCOL_RUN, id, hlc)? {
        return Ok(Unchanged);
    }
    let field = |name: &str| -> rusqlite::types::Value {
        match run.get(name) {
            Some(Value::String(s)) => rusqlite::types::Value::Text(s.clone()),
            Some(Value::Number(n)) => n.as_i64().map_or(rusqlite::types::Value::Null, Into::into),
            Some(v @ Value::Object(_)) => rusqlite::types::Value::Text(v.to_string()),
            _ => rusqlite::types::Value::Null,
        }
    };
    let claimed = run.get("status").and_then(Value::as_str).unwrap_or("paused").to_string();
    let mut values: Vec<rusqlite::types::Value> = RUN_COLUMNS.iter().map(|c| field(c)).collect();
    // Fixed from the operation, not its body: who, which skill, which run.
    values[0] = id.to_string().into();
    values[1] = user.to_string().into();
    values[2] = skill.to_string().into();
    // Inserted paused: which run is the active one is settled below.
    if claimed == "active" {
        values[5] = "paused".to_string().into();
    }
    let conversation: Option<String> = match &values[10] {
        rusqlite::types::Value::Text(c) => Some(c.clone()),
        _ => None,
    };
    if let Some(c) = conversation {
        let here: bool = tx
            .prepare_cached("SELECT EXISTS (SELECT 1 FROM conversations WHERE id = ?1)")?
            .query_row([&c], |r| r.get(0))?;
        if !here {
            values[10] = rusqlite::types::Value::Null;
        }
    }
    let cols = RUN_COLUMNS.join(", ");
    let marks: Vec<String> = (1..=RUN_COLUMNS.len()).map(|i| format!("?{i}")).collect();
    let updates: Vec<String> =
        RUN_COLUMNS.iter().skip(3).map(|c| format!("{c} = excluded.{c}")).collect();
    tx.prepare_cached(&format!(
        "INSERT INTO protocol_runs ({cols}) VALUES ({}) ON CONFLICT (id) DO UPDATE SET {}",
        marks.join(", "),
        updates.join(", ")
    ))?
    .execute(rusqlite::params_from_iter(values))?;
    set_reg(tx, PROTOCOL_RUN, id, None, hlc, false, Some(&claimed))?;
    settle_active(tx, user, skill)?;
    protocol_runs::refresh_mirror(tx, user, skill)?;
    Ok(Put)
}

/// One active run per skill: of the unfinished runs whose last write claims `active`, the
/// first started (then lowest id) is active, every other is paused and kept.
fn settle_active(tx: &Connection, user: &str, skill: &str) -> Result<()> {
    let claiming: Vec<String> = tx
        .prepare_cached(
            "SELECT p.id FROM protocol_runs p
             LEFT JOIN sync_rows s ON s.kind = 'protocol_run' AND s.key = p.id
             WHERE p.user_id = ?1 AND p.skill = ?2 AND p.status IN ('active', 'paused')
               AND coalesce(s.value, p.status) = 'active'
             ORDER BY p.started_at, p.id",
        )?
        .query_map(params![user, skill], |r| r.get(0))?
        .collect::<rusqlite::Result<_>>()?;
    let winner = claiming.first();
    tx.prepare_cached(
        "UPDATE protocol_runs SET status = 'paused'
         WHERE user_id = ?1 AND skill = ?2 AND status = 'active' AND id IS NOT ?3",
    )?
    .execute(params![user, skill, winner])?;
    if let Some(id) = winner {
        tx.prepare_cached("UPDATE protocol_runs SET status = 'active' WHERE id = ?1")?
            .execute([id])?;
    }
    Ok(())
}

#[cfg(test)]
#[path = "sync_merge_tests.rs"]
mod tests;
