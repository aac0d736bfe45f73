//! Memory the person owns (migration 0006, docs/memory.md): the `extracted` items — facts,
//! concerns, goals, patterns, pain points — each with its source messages, first and last
//! seen, confidence and the versions it replaced; forgotten items kept as tombstones (no text)
//! so they never come back from the same messages. Every write is one transaction. What a pass
//! reads and how it is applied is `memory_extraction`'s; deciding what to remember (the model
//! call, the validation of its answer, same meaning) belongs to `vibe_core::memory`.

use rusqlite::{Connection, Row, params};
use serde::{Deserialize, Serialize};
use vibe_wire::command::{MemoryKind, MemoryReplacedBy};

use crate::error::{Result, StoreError};
use crate::{Store, clock};

/// How many replaced versions an item keeps.
pub const HISTORY_KEPT: usize = 5;

/// A version of an item that a contradiction or an edit replaced.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Replaced {
    pub text: String,
    pub confidence: f64,
    pub replaced_at: String,
    /// The person (`edit`) or a later conversation that contradicted it (`extraction`).
    pub by: MemoryReplacedBy,
}

/// A message an item came from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct MemorySource {
    pub conversation_id: String,
    pub message_id: i64,
}

/// One remembered item.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct MemoryItem {
    pub id: String,
    pub kind: MemoryKind,
    pub text: String,
    pub confidence: f64,
    pub first_seen: String,
    pub last_seen: String,
    /// The person edited the text (merges keep it).
    pub edited: bool,
    /// Replaced versions, oldest first.
    pub history: Vec<Replaced>,
    pub sources: Vec<MemorySource>,
    pub updated_at: String,
}

const COLUMNS: &str =
    "id, kind, text, confidence, first_seen, last_seen, edited, history, updated_at";

fn from_row(row: &Row<'_>) -> rusqlite::Result<MemoryItem> {
    let history: String = row.get(7)?;
    // The table's CHECK admits only the kinds, so another name is a damaged row.
    let kind: String = row.get(1)?;
    let kind = MemoryKind::from_name(&kind).ok_or_else(|| {
        rusqlite::Error::FromSqlConversionFailure(
            1,
            rusqlite::types::Type::Text,
            format!("memory kind \"{kind}\" is not one of the kinds").into(),
        )
    })?;
    Ok(MemoryItem {
        id: row.get(0)?,
        kind,
        text: row.get(2)?,
        confidence: row.get(3)?,
        first_seen: row.get(4)?,
        last_seen: row.get(5)?,
        edited: row.get::<_, i64>(6)? == 1,
        history: serde_json::from_str(&history).unwrap_or_default(),
        sources: Vec::new(),
        updated_at: row.get(8)?,
    })
}

pub(crate) fn validate_text(text: &str) -> Result<&str> {
    let text = text.trim();
    if text.is_empty() {
        return Err(StoreError::invalid(
            "a memory item needs text (to remove an item, forget it instead)",
        ));
    }
    Ok(text)
}

pub(crate) fn validate_confidence(confidence: f64) -> Result<f64> {
    if (0.0..=1.0).contains(&confidence) {
        Ok(confidence)
    } else {
        Err(StoreError::invalid(format!("confidence {confidence} is not between 0 and 1")))
    }
}

/// Text compared for "the same words": lower case, no whitespace, no trailing punctuation.
pub fn normalized(text: &str) -> String {
    let lower: String = text.to_lowercase().chars().filter(|c| !c.is_whitespace()).collect();
    lower
        .trim_end_matches(|c: char| c.is_ascii_punctuation() || "。！？，、；：…".contains(c))
        .into()
}

fn sources_of(conn: &Connection, item: &str) -> Result<Vec<MemorySource>> {
    let mut stmt = conn.prepare_cached(
        "SELECT conversation_id, message_id FROM memory_sources WHERE item_id = ?1 ORDER BY message_id",
    )?;
    let rows = stmt
        .query_map([item], |r| {
            Ok(MemorySource { conversation_id: r.get(0)?, message_id: r.get(1)? })
        })?
        .collect::<rusqlite::Result<_>>()?;
    Ok(rows)
}

/// A live item of `user` by id or unique id prefix (at least 4 characters).
pub(crate) fn find_live(conn: &Connection, user: &str, id: &str) -> Result<MemoryItem> {
    let id = id.trim();
    if id.len() < 4 {
        return Err(StoreError::invalid(format!(
            "memory id \"{id}\" is too short: give at least 4 characters of it"
        )));
    }
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT {COLUMNS} FROM memory_items WHERE user_id = ?1 AND forgotten_at IS NULL AND substr(id, 1, length(?2)) = ?2 LIMIT 2"
    ))?;
    let found: Vec<MemoryItem> =
        stmt.query_map(params![user, id], from_row)?.collect::<rusqlite::Result<_>>()?;
    let mut found = found.into_iter();
    match (found.next(), found.next()) {
        (None, _) => Err(StoreError::NoSuchMemoryItem(id.to_string())),
        (Some(mut item), None) => {
            item.sources = sources_of(conn, &item.id)?;
            Ok(item)
        }
        (Some(_), Some(_)) => Err(StoreError::invalid(format!(
            "memory id \"{id}\" matches more than one item; give more of it"
        ))),
    }
}

pub(crate) fn push_history(
    history: &mut Vec<Replaced>,
    old: &MemoryItem,
    by: MemoryReplacedBy,
    now: &str,
) {
    history.push(Replaced {
        text: old.text.clone(),
        confidence: old.confidence,
        replaced_at: now.to_string(),
        by,
    });
    let excess = history.len().saturating_sub(HISTORY_KEPT);
    history.drain(..excess);
}

pub(crate) fn history_json(history: &[Replaced]) -> String {
    serde_json::to_string(history).unwrap_or_else(|_| "[]".into())
}

impl Store {
    /// The live items of `user` (optionally of one kind), newest first (last seen, then
    /// confidence).
    pub fn memory_items(&self, user: &str, kind: Option<MemoryKind>) -> Result<Vec<MemoryItem>> {
        let kind = kind.map(MemoryKind::as_str);
        let conn = self.conn();
        let mut stmt = conn.prepare_cached(&format!(
            "SELECT {COLUMNS} FROM memory_items WHERE user_id = ?1 AND forgotten_at IS NULL AND (?2 IS NULL OR kind = ?2)
             ORDER BY last_seen DESC, confidence DESC, id DESC"
        ))?;
        let mut items: Vec<MemoryItem> =
            stmt.query_map(params![user, kind], from_row)?.collect::<rusqlite::Result<_>>()?;
        drop(stmt);
        for item in &mut items {
            item.sources = sources_of(&conn, &item.id)?;
        }
        Ok(items)
    }

    /// One live item by id or unique id prefix.
    pub fn memory_item(&self, user: &str, id: &str) -> Result<MemoryItem> {
        find_live(&self.conn(), user, id)
    }

    /// The person rewrites an item: the old text goes to its history, and later merges keep
    /// the new words.
    pub fn edit_memory_item(&self, user: &str, id: &str, text: &str) -> Result<MemoryItem> {
        let text = validate_text(text)?.to_string();
        let now = clock::now_rfc3339();
        let full_id = self.write_tx(|tx| {
            let old = find_live(tx, user, id)?;
            if old.text == text {
                return Ok(old.id);
            }
            let mut history = old.history.clone();
            push_history(&mut history, &old, MemoryReplacedBy::Edit, &now);
            tx.execute(
                "UPDATE memory_items SET text = ?2, edited = 1, history = ?3, updated_at = ?4 WHERE id = ?1",
                params![old.id, text, history_json(&history), now],
            )?;
            crate::sync_record::memory(tx, &old.id)?;
            Ok(old.id)
        })?;
        self.memory_item(user, &full_id)
    }

    /// Forget an item for good: its text and history are erased; what is left (kind and
    /// source message ids) only keeps extraction from bringing it back. Returns the full id.
    pub fn forget_memory_item(&self, user: &str, id: &str) -> Result<String> {
        let now = clock::now_rfc3339();
        self.write_tx(|tx| {
            let item = find_live(tx, user, id)?;
            tx.execute(
                "UPDATE memory_items SET text = '', history = '[]', confidence = 0, forgotten_at = ?2, updated_at = ?2 WHERE id = ?1",
                params![item.id, now],
            )?;
            crate::sync_record::memory(tx, &item.id)?;
            Ok(item.id)
        })
    }

    /// How many forgotten items (tombstones) `user` has.
    pub fn forgotten_memory_count(&self, user: &str) -> Result<i64> {
        Ok(self.conn().query_row(
            "SELECT count(*) FROM memory_items WHERE user_id = ?1 AND forgotten_at IS NOT NULL",
            [user],
            |r| r.get(0),
        )?)
    }
}
#[cfg(test)]
#[path = "memory_tests.rs"]
mod tests;
