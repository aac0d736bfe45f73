//! Messages of a conversation: role, content, tool calls (JSON array), tool call id, token
//! count, run id, status. Each message is written in its own transaction as soon as it is
//! complete, so a crash never loses what was said before it.

use rusqlite::{OptionalExtension, Row, params};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::error::{Result, StoreError};
use crate::message_safety::{SafetyMark, safety_mark};
use crate::{Store, clock};

/// Who said it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Role {
    System,
    User,
    Assistant,
    Tool,
}

impl Role {
    pub fn as_str(self) -> &'static str {
        match self {
            Role::System => "system",
            Role::User => "user",
            Role::Assistant => "assistant",
            Role::Tool => "tool",
        }
    }

    fn parse(s: &str) -> Option<Self> {
        Some(match s {
            "system" => Role::System,
            "user" => Role::User,
            "assistant" => Role::Assistant,
            "tool" => Role::Tool,
            _ => return None,
        })
    }
}

/// A message to store.
#[derive(Debug, Clone, PartialEq)]
pub struct NewMessage {
    pub role: Role,
    pub content: String,
    /// For an assistant message: the OpenAI-style `tool_calls` array (`[{id, type, function}]`
    /// or `[{id, name, arguments}]`; each needs an `id`).
    pub tool_calls: Option<Value>,
    /// For a tool message: the id of the call it answers.
    pub tool_call_id: Option<String>,
    pub token_count: u32,
    pub run_id: Option<String>,
    /// `true` when the message was cut short (a killed run).
    pub interrupted: bool,
}

impl NewMessage {
    /// A plain text message.
    pub fn text(role: Role, content: impl Into<String>) -> Self {
        Self {
            role,
            content: content.into(),
            tool_calls: None,
            tool_call_id: None,
            token_count: 0,
            run_id: None,
            interrupted: false,
        }
    }
}

/// A stored message.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Message {
    pub id: i64,
    pub conversation_id: String,
    pub role: Role,
    pub content: String,
    pub tool_calls: Option<Value>,
    pub tool_call_id: Option<String>,
    pub token_count: u32,
    pub run_id: Option<String>,
    pub interrupted: bool,
    pub created_at: String,
    /// The wellbeing screen's (or the coach's) mark on a message of the person: memory never
    /// takes it in, and the conversation shows its notice again when opened.
    pub safety: Option<SafetyMark>,
}

impl Message {
    /// Ids of the tool calls this assistant message makes.
    pub fn tool_call_ids(&self) -> Vec<&str> {
        self.tool_calls
            .as_ref()
            .and_then(Value::as_array)
            .map(|calls| calls.iter().filter_map(|c| c.get("id").and_then(Value::as_str)).collect())
            .unwrap_or_default()
    }
}

/// Insert `msg` inside `tx` (validated by the caller) and move the conversation's
/// `updated_at` when the message marks activity; returns the new id. A missing conversation
/// or run is named in the error.
pub(crate) fn insert_message(
    tx: &rusqlite::Connection,
    conversation_id: &str,
    msg: &NewMessage,
    now: &str,
) -> Result<i64> {
    let inserted = tx
        .prepare_cached(
            "INSERT INTO messages (conversation_id, role, content, tool_calls, tool_call_id, token_count, run_id, status, created_at)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
        )?
        .execute(params![
            conversation_id,
            msg.role.as_str(),
            msg.content,
            msg.tool_calls.as_ref().map(Value::to_string),
            msg.tool_call_id,
            msg.token_count,
            msg.run_id,
            if msg.interrupted { "interrupted" } else { "complete" },
            now
        ]);
    match inserted {
        Ok(_) => {}
        Err(rusqlite::Error::SqliteFailure(e, _))
            if e.extended_code == rusqlite::ffi::SQLITE_CONSTRAINT_FOREIGNKEY =>
        {
            let known: bool = tx
                .prepare_cached("SELECT EXISTS (SELECT 1 FROM conversations WHERE id = ?1)")?
                .query_row([conversation_id], |r| r.get(0))?;
            return Err(if known {
                StoreError::invalid(format!(
                    "no run with id \"{}\" to attach the message to",
                    msg.run_id.as_deref().unwrap_or_default()
                ))
            } else {
                StoreError::NoSuchConversation(conversation_id.to_string())
            });
        }
        Err(e) => return Err(e.into()),
    }
    let id = tx.last_insert_rowid();
    if msg.role == Role::User || msg.run_id.is_none() {
        tx.prepare_cached("UPDATE conversations SET updated_at = ?2 WHERE id = ?1")?
            .execute(params![conversation_id, now])?;
    }
    crate::sync_record::message_inserted(tx, id)?;
    Ok(id)
}

/// Rewrite the text, tool calls, token count and status of message `id` inside `tx`;
/// returns how many rows changed (0: no such message).
pub(crate) fn rewrite_message(
    tx: &rusqlite::Connection,
    id: i64,
    msg: &NewMessage,
) -> Result<usize> {
    let n = tx
        .prepare_cached(
            "UPDATE messages SET content = ?2, tool_calls = ?3, token_count = ?4, status = ?5 WHERE id = ?1",
        )?
        .execute(params![
            id,
            msg.content,
            msg.tool_calls.as_ref().map(Value::to_string),
            msg.token_count,
            if msg.interrupted { "interrupted" } else { "complete" }
        ])?;
    if n > 0 {
        crate::sync_record::message(tx, id)?;
    }
    Ok(n)
}

/// The stored form of `msg` once it has its id.
pub(crate) fn stored(id: i64, conversation_id: &str, msg: NewMessage, now: String) -> Message {
    Message {
        id,
        conversation_id: conversation_id.to_string(),
        role: msg.role,
        content: msg.content,
        tool_calls: msg.tool_calls,
        tool_call_id: msg.tool_call_id,
        token_count: msg.token_count,
        run_id: msg.run_id,
        interrupted: msg.interrupted,
        created_at: now,
        safety: None,
    }
}

/// The columns [`from_row`] reads, in its order.
pub(crate) const COLUMNS: &str = "id, conversation_id, role, content, tool_calls, tool_call_id, token_count, run_id, status, created_at, safety, safety_category";

pub(crate) fn from_row(row: &Row<'_>) -> rusqlite::Result<Message> {
    let role: String = row.get(2)?;
    let tool_calls: Option<String> = row.get(4)?;
    let status: String = row.get(8)?;
    Ok(Message {
        id: row.get(0)?,
        conversation_id: row.get(1)?,
        role: Role::parse(&role).unwrap_or(Role::User),
        content: row.get(3)?,
        tool_calls: tool_calls.and_then(|t| serde_json::from_str(&t).ok()),
        tool_call_id: row.get(5)?,
        token_count: row.get(6)?,
        run_id: row.get(7)?,
        interrupted: status == "interrupted",
        created_at: row.get(9)?,
        safety: safety_mark(row.get(10)?, row.get(11)?),
    })
}

pub(crate) fn validate(msg: &NewMessage) -> Result<()> {
    if let Some(calls) = &msg.tool_calls {
        let Some(list) = calls.as_array() else {
            return Err(StoreError::invalid("tool_calls must be a JSON array"));
        };
        if msg.role != Role::Assistant {
            return Err(StoreError::invalid("only assistant messages carry tool_calls"));
        }
        if list.iter().any(|c| c.get("id").and_then(Value::as_str).is_none_or(str::is_empty)) {
            return Err(StoreError::invalid("every tool call needs a non-empty \"id\""));
        }
    }
    if msg.role == Role::Tool && msg.tool_call_id.as_deref().is_none_or(str::is_empty) {
        return Err(StoreError::invalid("a tool message needs the tool_call_id it answers"));
    }
    Ok(())
}

impl Store {
    /// Store one message. The conversation's `updated_at` (its place in the list) moves when
    /// the person speaks, or for a message outside any run (an import); what a run adds after
    /// the person's message leaves it alone, so a turn does not rewrite the conversation row
    /// for every reply and tool result.
    pub fn append_message(&self, conversation_id: &str, msg: NewMessage) -> Result<Message> {
        validate(&msg)?;
        let now = clock::now_rfc3339();
        let id = self.write_tx(|tx| insert_message(tx, conversation_id, &msg, &now))?;
        Ok(stored(id, conversation_id, msg, now))
    }

    /// Store a tool result with what belongs in its transaction: the answer that made the
    /// call when it is not stored yet (stored first, in place of its draft row if it has one,
    /// so the call comes before its result), and the state write the call made ready (applied
    /// before the result that reports it). All of it is stored or none of it; an error leaves
    /// the file as it was.
    pub fn append_tool_result(
        &self,
        conversation_id: &str,
        answer: Option<&RunAnswer>,
        write: Option<&crate::StateWrite>,
        msg: NewMessage,
    ) -> Result<Message> {
        validate(&msg)?;
        if let Some(answer) = answer {
            validate(&answer.message)?;
        }
        let now = clock::now_rfc3339();
        let id = self.write_tx(|tx| {
            if let Some(answer) = answer {
                store_answer(tx, answer, &now, || Ok(conversation_id.to_string()))?;
            }
            if let Some(write) = write {
                write.apply(tx)?;
            }
            insert_message(tx, conversation_id, &msg, &now)
        })?;
        Ok(stored(id, conversation_id, msg, now))
    }

    /// Rewrite a stored message in place: the streaming draft of an assistant answer is stored
    /// early as `interrupted` and completed here, so a crash keeps the partial text.
    pub fn update_message(
        &self,
        id: i64,
        content: &str,
        tool_calls: Option<&Value>,
        token_count: u32,
        interrupted: bool,
    ) -> Result<()> {
        let message = NewMessage {
            tool_calls: tool_calls.cloned(),
            token_count,
            interrupted,
            ..NewMessage::text(Role::Assistant, content)
        };
        validate(&message)?;
        let n = self.write_tx(|tx| rewrite_message(tx, id, &message))?;
        if n == 0 {
            return Err(StoreError::invalid(format!("no message with id {id}")));
        }
        Ok(())
    }

    /// Every message of a conversation, oldest first.
    pub fn messages(&self, conversation_id: &str) -> Result<Vec<Message>> {
        self.conversation(conversation_id)?;
        let conn = self.conn();
        let mut stmt = conn.prepare_cached(&format!(
            "SELECT {COLUMNS} FROM messages WHERE conversation_id = ?1 ORDER BY id"
        ))?;
        let rows = stmt.query_map([conversation_id], from_row)?.collect::<rusqlite::Result<_>>()?;
        Ok(rows)
    }

    /// The conversation's newest message from the person (what a retry answers again), read
    /// from the end of the conversation, not the whole of it.
    pub fn last_user_message(&self, conversation_id: &str) -> Result<Option<Message>> {
        self.conversation(conversation_id)?;
        let conn = self.conn();
        let mut stmt = conn.prepare_cached(&format!(
            "SELECT {COLUMNS} FROM messages WHERE conversation_id = ?1 AND role = 'user' ORDER BY id DESC LIMIT 1"
        ))?;
        Ok(stmt.query_row([conversation_id], from_row).optional()?)
    }

    /// The newest `limit` messages, oldest first (for history selection without a full scan).
    pub(crate) fn newest_messages(
        &self,
        conversation_id: &str,
        limit: usize,
    ) -> Result<Vec<Message>> {
        let mut rows: Vec<Message> = {
            let conn = self.conn();
            let mut stmt = conn.prepare_cached(&format!(
                "SELECT {COLUMNS} FROM messages WHERE conversation_id = ?1 ORDER BY id DESC LIMIT ?2"
            ))?;
            stmt.query_map(params![conversation_id, limit as i64], from_row)?
                .collect::<rusqlite::Result<_>>()?
        };
        if rows.is_empty() {
            // Tell an empty conversation from a missing one.
            self.conversation(conversation_id)?;
        }
        rows.reverse();
        Ok(rows)
    }

    /// The messages with `after < id < before`, oldest first (what compaction folds); an
    /// unknown conversation is an error.
    pub fn messages_between(
        &self,
        conversation_id: &str,
        after: i64,
        before: i64,
    ) -> Result<Vec<Message>> {
        let conn = self.conn();
        let mut stmt = conn.prepare_cached(&format!(
            "SELECT {COLUMNS} FROM messages WHERE conversation_id = ?1 AND id > ?2 AND id < ?3 ORDER BY id"
        ))?;
        let rows: Vec<Message> = stmt
            .query_map(params![conversation_id, after, before], from_row)?
            .collect::<rusqlite::Result<_>>()?;
        drop(stmt);
        drop(conn);
        if rows.is_empty() {
            self.conversation(conversation_id)?;
        }
        Ok(rows)
    }

    /// Whether any message with `after < id < before` exists (without reading it); false for
    /// an unknown conversation.
    pub fn has_messages_between(
        &self,
        conversation_id: &str,
        after: i64,
        before: i64,
    ) -> Result<bool> {
        let conn = self.conn();
        let mut stmt = conn.prepare_cached(
            "SELECT EXISTS (SELECT 1 FROM messages WHERE conversation_id = ?1 AND id > ?2 AND id < ?3)",
        )?;
        Ok(stmt.query_row(params![conversation_id, after, before], |r| r.get(0))?)
    }
}

/// The last answer of a run, stored when the run is closed.
#[derive(Debug, Clone, PartialEq)]
pub struct RunAnswer {
    /// The draft row written while the answer streamed, if any.
    pub draft_id: Option<i64>,
    /// The answer (an assistant message of the run).
    pub message: NewMessage,
}

/// Store a run's answer in `tx`: in place of its draft row when one was written while it
/// streamed, else as a new message of the conversation `conversation` names. Returns its id.
pub(crate) fn store_answer(
    tx: &rusqlite::Connection,
    answer: &RunAnswer,
    now: &str,
    conversation: impl FnOnce() -> Result<String>,
) -> Result<i64> {
    match answer.draft_id {
        Some(draft) => {
            if rewrite_message(tx, draft, &answer.message)? == 0 {
                return Err(StoreError::invalid(format!("no message with id {draft}")));
            }
            Ok(draft)
        }
        None => insert_message(tx, &conversation()?, &answer.message, now),
    }
}
