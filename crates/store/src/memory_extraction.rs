//! The extraction side of memory (docs/memory.md): which messages a pass has still to read
//! (per-conversation watermark, the backlog of conversations) and applying one pass's
//! decided changes — add, merge, replace — with the watermark in one transaction, dropping
//! what a forgotten item came from. Listing and editing items is `memory`'s; deciding what
//! to remember is `vibe_core::memory`'s.

use std::collections::HashSet;

use rusqlite::{Connection, OptionalExtension, params};
use serde::Serialize;
use vibe_wire::command::{MemoryKind, MemoryReplacedBy};

use crate::error::{Result, StoreError};
use crate::memory::{
    MemoryItem, find_live, history_json, normalized, push_history, validate_confidence,
    validate_text,
};
use crate::messages::Role;
use crate::{Store, clock};

/// A message not yet read by extraction.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PendingMessage {
    pub id: i64,
    pub role: Role,
    pub content: String,
    pub run_id: Option<String>,
    /// The wellbeing screen's mark: such a message never reaches memory.
    pub safety: Option<vibe_wire::SafetyRisk>,
    pub created_at: String,
}

/// What extraction has to read in one conversation.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Pending {
    pub conversation_id: String,
    /// Messages up to this id were read before (0: none).
    pub watermark: i64,
    /// Complete user and assistant messages after the watermark, oldest first.
    pub messages: Vec<PendingMessage>,
}

/// A conversation with messages extraction has not read.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Backlog {
    pub conversation_id: String,
    /// The person's messages after the watermark.
    pub user_turns: u32,
    /// When the newest message was written (RFC 3339).
    pub last_message_at: String,
}

/// One change decided by an extraction pass (validated by the caller against the items and
/// the pending messages; the store checks ids again).
#[derive(Debug, Clone, PartialEq)]
pub enum MemoryChange {
    /// A new item.
    Add { kind: MemoryKind, text: String, confidence: f64, sources: Vec<i64> },
    /// Same meaning as item `id`: last seen, sources and confidence are updated, the text kept.
    Merge { id: String, confidence: f64, sources: Vec<i64> },
    /// Contradicts item `id`: the text is replaced and the old version kept in its history.
    Replace { id: String, text: String, confidence: f64, sources: Vec<i64> },
}

/// What [`Store::apply_memory`] did.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Applied {
    pub added: Vec<String>,
    pub merged: Vec<String>,
    pub replaced: Vec<String>,
    /// New items dropped because a forgotten item came from the same messages.
    pub dropped_forgotten: usize,
}

impl Store {
    /// The messages extraction has not read in a conversation (`from_start`: every message,
    /// ignoring the watermark — a re-read, which merges instead of duplicating and never
    /// brings back a forgotten item).
    pub fn memory_pending(&self, conversation_id: &str, from_start: bool) -> Result<Pending> {
        self.conversation(conversation_id)?;
        let conn = self.conn();
        let watermark: i64 = conn
            .query_row(
                "SELECT through_message_id FROM memory_watermarks WHERE conversation_id = ?1",
                [conversation_id],
                |r| r.get(0),
            )
            .optional()?
            .unwrap_or(0);
        let after = if from_start { 0 } else { watermark };
        let mut stmt = conn.prepare_cached(
            "SELECT id, role, content, run_id, safety, created_at FROM messages
             WHERE conversation_id = ?1 AND id > ?2 AND role IN ('user', 'assistant') AND status = 'complete'
             ORDER BY id",
        )?;
        let messages = stmt
            .query_map(params![conversation_id, after], |r| {
                let role: String = r.get(1)?;
                Ok(PendingMessage {
                    id: r.get(0)?,
                    role: if role == "user" { Role::User } else { Role::Assistant },
                    content: r.get(2)?,
                    run_id: r.get(3)?,
                    safety: crate::message_safety::safety_mark(r.get(4)?, None).map(|m| m.risk),
                    created_at: r.get(5)?,
                })
            })?
            .collect::<rusqlite::Result<_>>()?;
        Ok(Pending { conversation_id: conversation_id.to_string(), watermark, messages })
    }

    /// Conversations of `user` with messages of the person that extraction has not read,
    /// most recently active first.
    pub fn memory_backlog(&self, user: &str) -> Result<Vec<Backlog>> {
        let conn = self.conn();
        let mut stmt = conn.prepare_cached(
            // The watermark is joined before the messages (CROSS JOIN fixes the order), so
            // only the unread messages are read: `messages_by_conversation` (conversation_id,
            // id > watermark), not every message of the conversation at every turn's end.
            "SELECT m.conversation_id, count(*), max(m.created_at) FROM conversations c
             LEFT JOIN memory_watermarks w ON w.conversation_id = c.id
             CROSS JOIN messages m
                ON m.conversation_id = c.id AND m.id > coalesce(w.through_message_id, 0)
             WHERE c.user_id = ?1 AND m.role = 'user'
             GROUP BY m.conversation_id ORDER BY max(m.created_at) DESC",
        )?;
        let rows = stmt
            .query_map([user], |r| {
                Ok(Backlog {
                    conversation_id: r.get(0)?,
                    user_turns: r.get::<_, i64>(1)?.try_into().unwrap_or(u32::MAX),
                    last_message_at: r.get(2)?,
                })
            })?
            .collect::<rusqlite::Result<_>>()?;
        Ok(rows)
    }

    /// Apply one extraction pass in one transaction: the changes, then the conversation's
    /// watermark moved to `through` (never back). A change naming an unknown or forgotten
    /// item, empty text, no sources or a bad confidence fails the whole pass and changes nothing.
    /// A new item with the same words as a live item of its kind is merged into it; one whose
    /// sources all lie in a forgotten item of its kind is dropped.
    pub fn apply_memory(
        &self,
        user: &str,
        conversation_id: &str,
        through: i64,
        changes: &[MemoryChange],
    ) -> Result<Applied> {
        self.conversation(conversation_id)?;
        let now = clock::now_rfc3339();
        self.write_tx(|tx| {
            let mut applied = Applied::default();
            for change in changes {
                apply_one(tx, user, conversation_id, change, &now, &mut applied)?;
            }
            for id in applied.added.iter().chain(&applied.merged).chain(&applied.replaced) {
                crate::sync_record::memory(tx, id)?;
            }
            tx.execute(
                "INSERT INTO memory_watermarks (conversation_id, through_message_id, extracted_at) VALUES (?1, ?2, ?3)
                 ON CONFLICT (conversation_id) DO UPDATE SET
                     through_message_id = max(through_message_id, excluded.through_message_id),
                     extracted_at = excluded.extracted_at",
                params![conversation_id, through, now],
            )?;
            // A pass that went through ends any wait left by failed ones.
            tx.execute("DELETE FROM memory_backoff WHERE conversation_id = ?1", [conversation_id])?;
            Ok(applied)
        })
    }
}

/// When the source messages were written: (earliest, latest); `now` for none found.
fn seen_span(tx: &Connection, sources: &[i64], now: &str) -> Result<(String, String)> {
    let mut stmt = tx.prepare_cached("SELECT created_at FROM messages WHERE id = ?1")?;
    let mut times: Vec<String> = Vec::new();
    for id in sources {
        if let Some(t) = stmt.query_row([id], |r| r.get::<_, String>(0)).optional()? {
            times.push(t);
        }
    }
    times.sort();
    match (times.first(), times.last()) {
        (Some(a), Some(b)) => Ok((a.clone(), b.clone())),
        _ => Ok((now.to_string(), now.to_string())),
    }
}

fn add_sources(tx: &Connection, item: &str, conversation_id: &str, sources: &[i64]) -> Result<()> {
    let mut stmt = tx.prepare_cached(
        "INSERT OR IGNORE INTO memory_sources (item_id, conversation_id, message_id) VALUES (?1, ?2, ?3)",
    )?;
    for id in sources {
        stmt.execute(params![item, conversation_id, id])?;
    }
    Ok(())
}

/// Whether a forgotten item of `kind` came from every one of `sources`.
fn blocked_by_tombstone(
    tx: &Connection,
    user: &str,
    kind: MemoryKind,
    sources: &[i64],
) -> Result<bool> {
    let mut stmt = tx.prepare_cached(
        "SELECT s.item_id, s.message_id FROM memory_sources s JOIN memory_items i ON i.id = s.item_id
         WHERE i.user_id = ?1 AND i.kind = ?2 AND i.forgotten_at IS NOT NULL",
    )?;
    let mut by_item: std::collections::HashMap<String, HashSet<i64>> = Default::default();
    for row in
        stmt.query_map(params![user, kind.as_str()], |r| Ok((r.get::<_, String>(0)?, r.get(1)?)))?
    {
        let (item, message) = row?;
        by_item.entry(item).or_default().insert(message);
    }
    Ok(by_item.values().any(|msgs| sources.iter().all(|s| msgs.contains(s))))
}

fn same_words(tx: &Connection, user: &str, kind: MemoryKind, text: &str) -> Result<Option<String>> {
    let mut stmt = tx.prepare_cached(
        "SELECT id, text FROM memory_items WHERE user_id = ?1 AND kind = ?2 AND forgotten_at IS NULL",
    )?;
    let wanted = normalized(text);
    for row in stmt.query_map(params![user, kind.as_str()], |r| {
        Ok((r.get::<_, String>(0)?, r.get::<_, String>(1)?))
    })? {
        let (id, existing) = row?;
        if normalized(&existing) == wanted {
            return Ok(Some(id));
        }
    }
    Ok(None)
}

fn need_sources(sources: &[i64]) -> Result<()> {
    if sources.is_empty() {
        return Err(StoreError::invalid("a memory change needs at least one source message"));
    }
    Ok(())
}

fn live_exact(tx: &Connection, user: &str, id: &str) -> Result<MemoryItem> {
    let item = find_live(tx, user, id)?;
    if item.id != id {
        return Err(StoreError::invalid(format!("no memory item with id \"{id}\"")));
    }
    Ok(item)
}

fn apply_one(
    tx: &Connection,
    user: &str,
    conversation_id: &str,
    change: &MemoryChange,
    now: &str,
    applied: &mut Applied,
) -> Result<()> {
    match change {
        MemoryChange::Add { kind, text, confidence, sources } => {
            let kind = *kind;
            let text = validate_text(text)?;
            let confidence = validate_confidence(*confidence)?;
            need_sources(sources)?;
            if blocked_by_tombstone(tx, user, kind, sources)? {
                applied.dropped_forgotten += 1;
                return Ok(());
            }
            if let Some(id) = same_words(tx, user, kind, text)? {
                let merge = MemoryChange::Merge { id, confidence, sources: sources.clone() };
                return apply_one(tx, user, conversation_id, &merge, now, applied);
            }
            let (first, last) = seen_span(tx, sources, now)?;
            let id = uuid::Uuid::now_v7().to_string();
            tx.execute(
                "INSERT INTO memory_items (id, user_id, kind, text, confidence, first_seen, last_seen, updated_at)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
                params![id, user, kind.as_str(), text, confidence, first, last, now],
            )?;
            add_sources(tx, &id, conversation_id, sources)?;
            applied.added.push(id);
        }
        MemoryChange::Merge { id, confidence, sources } => {
            let confidence = validate_confidence(*confidence)?;
            need_sources(sources)?;
            let item = live_exact(tx, user, id)?;
            let (_, last) = seen_span(tx, sources, now)?;
            tx.execute(
                "UPDATE memory_items SET confidence = max(confidence, ?2), last_seen = max(last_seen, ?3), updated_at = ?4 WHERE id = ?1",
                params![item.id, confidence, last, now],
            )?;
            add_sources(tx, &item.id, conversation_id, sources)?;
            if !applied.merged.contains(&item.id) {
                applied.merged.push(item.id);
            }
        }
        MemoryChange::Replace { id, text, confidence, sources } => {
            let text = validate_text(text)?;
            let confidence = validate_confidence(*confidence)?;
            need_sources(sources)?;
            let item = live_exact(tx, user, id)?;
            let (_, last) = seen_span(tx, sources, now)?;
            let mut history = item.history.clone();
            push_history(&mut history, &item, MemoryReplacedBy::Extraction, now);
            tx.execute(
                "UPDATE memory_items SET text = ?2, confidence = ?3, last_seen = max(last_seen, ?4), edited = 0,
                     history = ?5, updated_at = ?6 WHERE id = ?1",
                params![item.id, text, confidence, last, history_json(&history), now],
            )?;
            add_sources(tx, &item.id, conversation_id, sources)?;
            applied.replaced.push(item.id);
        }
    }
    Ok(())
}
