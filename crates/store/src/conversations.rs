//! Conversations: create, get, list, set the active skill / scenario / voice mode
//! (docs/design.md#restoring-the-skill: the skill chosen by `use_skill` survives to the next
//! request), delete (its messages and runs go with it).

use rusqlite::{OptionalExtension, Row, params};
use serde::Serialize;
use vibe_wire::VoiceMode;

use crate::error::{Result, StoreError};
use crate::{Store, clock, sync_record};

/// One conversation row.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Conversation {
    pub id: String,
    pub user_id: String,
    pub title: Option<String>,
    pub skill: Option<String>,
    pub scenario: Option<String>,
    /// A stored name that is not a voice mode (older versions wrote any text) reads as none.
    pub voice_mode: Option<VoiceMode>,
    /// Older turns folded into a summary (compaction), and the last message id it covers.
    pub summary: Option<String>,
    pub summary_through_id: Option<i64>,
    pub created_at: String,
    pub updated_at: String,
}

const COLUMNS: &str = "id, user_id, title, skill, scenario, voice_mode, summary, summary_through_id, created_at, updated_at";

fn from_row(row: &Row<'_>) -> rusqlite::Result<Conversation> {
    Ok(Conversation {
        id: row.get(0)?,
        user_id: row.get(1)?,
        title: row.get(2)?,
        skill: row.get(3)?,
        scenario: row.get(4)?,
        voice_mode: voice_mode(row.get(5)?),
        summary: row.get(6)?,
        summary_through_id: row.get(7)?,
        created_at: row.get(8)?,
        updated_at: row.get(9)?,
    })
}

/// A stored voice mode: a name that is not one (written before the kind was closed) is
/// dropped with a warning, so the profile's preference applies.
fn voice_mode(stored: Option<String>) -> Option<VoiceMode> {
    let text = stored?;
    let mode = VoiceMode::parse(&text);
    if mode.is_none() {
        tracing::warn!(voice_mode = %text, "stored voice mode is unknown; ignored");
    }
    mode
}

impl Store {
    /// Start a new conversation.
    pub fn create_conversation(&self, user: &str, title: Option<&str>) -> Result<Conversation> {
        let now = clock::now_rfc3339();
        let id = uuid::Uuid::now_v7().to_string();
        self.write_tx(|tx| {
            tx.prepare_cached(
                "INSERT INTO conversations (id, user_id, title, created_at, updated_at) VALUES (?1, ?2, ?3, ?4, ?4)",
            )?
            .execute(params![id, user, title, now])?;
            sync_record::conversation(tx, &id)
        })?;
        self.conversation(&id)
    }

    /// One conversation, or [`StoreError::NoSuchConversation`].
    pub fn conversation(&self, id: &str) -> Result<Conversation> {
        self.conn()
            .prepare_cached(&format!("SELECT {COLUMNS} FROM conversations WHERE id = ?1"))?
            .query_row([id], from_row)
            .optional()?
            .ok_or_else(|| StoreError::NoSuchConversation(id.to_string()))
    }

    /// A user's conversations, most recently active first.
    pub fn list_conversations(&self, user: &str) -> Result<Vec<Conversation>> {
        let conn = self.conn();
        let mut stmt = conn.prepare(&format!(
            "SELECT {COLUMNS} FROM conversations WHERE user_id = ?1 ORDER BY updated_at DESC, id DESC"
        ))?;
        let rows = stmt.query_map([user], from_row)?.collect::<rusqlite::Result<_>>()?;
        Ok(rows)
    }

    /// A user's conversations whose title or messages contain `query` (ASCII letters match
    /// in any case), most recently active first. An empty query finds nothing.
    pub fn search_conversations(&self, user: &str, query: &str) -> Result<Vec<Conversation>> {
        let query = query.trim();
        if query.is_empty() {
            return Ok(Vec::new());
        }
        let escaped = query.replace('\\', "\\\\").replace('%', "\\%").replace('_', "\\_");
        let pattern = format!("%{escaped}%");
        let conn = self.conn();
        let mut stmt = conn.prepare(&format!(
            "SELECT {COLUMNS} FROM conversations c WHERE user_id = ?1 AND (title LIKE ?2 ESCAPE '\\' \
             OR EXISTS (SELECT 1 FROM messages m WHERE m.conversation_id = c.id \
             AND m.role IN ('user', 'assistant') AND m.content LIKE ?2 ESCAPE '\\')) \
             ORDER BY updated_at DESC, id DESC"
        ))?;
        let rows =
            stmt.query_map(params![user, pattern], from_row)?.collect::<rusqlite::Result<_>>()?;
        Ok(rows)
    }

    /// Record the active skill and scenario of a conversation (`None` clears them).
    pub fn set_conversation_skill(
        &self,
        id: &str,
        skill: Option<&str>,
        scenario: Option<&str>,
    ) -> Result<()> {
        self.update_conversation(id, "skill = ?2, scenario = ?3", params![id, skill, scenario])
    }

    /// Record the voice mode of a conversation.
    pub fn set_conversation_voice_mode(
        &self,
        id: &str,
        voice_mode: Option<VoiceMode>,
    ) -> Result<()> {
        self.update_conversation(
            id,
            "voice_mode = ?2",
            params![id, voice_mode.map(VoiceMode::as_str)],
        )
    }

    /// Store the compaction summary covering messages up to `through_id` (bookkeeping, not
    /// activity: the conversation keeps its place in the list).
    pub fn set_conversation_summary(&self, id: &str, summary: &str, through_id: i64) -> Result<()> {
        let changed = self.write_tx(|tx| {
            Ok(tx
                .prepare_cached(
                    "UPDATE conversations SET summary = ?2, summary_through_id = ?3 WHERE id = ?1",
                )?
                .execute(params![id, summary, through_id])?)
        })?;
        if changed == 0 {
            return Err(StoreError::NoSuchConversation(id.to_string()));
        }
        Ok(())
    }

    /// Rename a conversation.
    pub fn set_conversation_title(&self, id: &str, title: Option<&str>) -> Result<()> {
        self.update_conversation(id, "title = ?2", params![id, title])
    }

    fn update_conversation(
        &self,
        id: &str,
        set: &str,
        params: &[&dyn rusqlite::ToSql],
    ) -> Result<()> {
        let now = clock::now_rfc3339();
        let changed = self.write_tx(|tx| {
            let n = tx
                .prepare_cached(&format!("UPDATE conversations SET {set} WHERE id = ?1"))?
                .execute(params)?;
            tx.prepare_cached("UPDATE conversations SET updated_at = ?2 WHERE id = ?1")?
                .execute(params![id, now])?;
            if n > 0 {
                sync_record::conversation(tx, id)?;
            }
            Ok(n)
        })?;
        if changed == 0 {
            return Err(StoreError::NoSuchConversation(id.to_string()));
        }
        Ok(())
    }

    /// Delete a conversation with its messages and run rows, in one transaction. Answers the
    /// ids of the runs deleted with it, so the caller can remove their folders afterwards
    /// (rows first: a crash in between leaves folders no row points to, never rows pointing
    /// at missing folders).
    pub fn delete_conversation(&self, id: &str) -> Result<Vec<String>> {
        let (n, runs) = self.write_tx(|tx| {
            let runs = tx
                .prepare_cached("SELECT id FROM runs WHERE conversation_id = ?1 ORDER BY id")?
                .query_map([id], |r| r.get::<_, String>(0))?
                .collect::<rusqlite::Result<Vec<_>>>()?;
            let n = tx.execute("DELETE FROM conversations WHERE id = ?1", [id])?;
            if n > 0 {
                sync_record::conversation_deleted(tx, id)?;
            }
            Ok((n, runs))
        })?;
        if n == 0 {
            return Err(StoreError::NoSuchConversation(id.to_string()));
        }
        Ok(runs)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_voice_mode_written_as_free_text_by_an_older_version_reads_as_none() {
        let store = Store::open_in_memory().unwrap();
        let conv = store.create_conversation("u", None).unwrap();
        store.set_conversation_voice_mode(&conv.id, Some(VoiceMode::Direct)).unwrap();
        assert_eq!(store.conversation(&conv.id).unwrap().voice_mode, Some(VoiceMode::Direct));
        store
            .conn()
            .execute("UPDATE conversations SET voice_mode = 'shouty' WHERE id = ?1", [&conv.id])
            .unwrap();
        assert_eq!(store.conversation(&conv.id).unwrap().voice_mode, None);
    }
}
