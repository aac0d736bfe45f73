//! Writing the run's messages as they complete (seed 003): the assistant answer is stored as a
//! draft flagged `interrupted` while it streams (at most every [`DRAFT_EVERY`]) and completed in
//! place, so a killed process leaves the partial text; tool results are stored one by one.

use std::time::{Duration, Instant};

use serde_json::Value;
use vibe_llm::ToolCall;
use vibe_store::{NewMessage, Role, Store};

use crate::CoreError;

/// How often a streaming answer's draft is written.
pub const DRAFT_EVERY: Duration = Duration::from_millis(300);

/// Stored form of tool calls: `[{"id", "name", "arguments"}]`, arguments as raw JSON text.
pub fn tool_calls_json(calls: &[ToolCall]) -> Option<Value> {
    if calls.is_empty() { None } else { serde_json::to_value(calls).ok() }
}

/// The assistant message of one model round.
pub struct Draft {
    conversation_id: String,
    run_id: String,
    id: Option<i64>,
    last_write: Instant,
    written_len: usize,
}

impl Draft {
    pub fn new(conversation_id: &str, run_id: &str) -> Self {
        Self {
            conversation_id: conversation_id.into(),
            run_id: run_id.into(),
            id: None,
            last_write: Instant::now(),
            written_len: 0,
        }
    }

    /// Write the partial text when it grew and the last write is old enough.
    pub fn maybe_write(&mut self, store: &Store, text: &str) -> Result<(), CoreError> {
        if text.len() == self.written_len || self.last_write.elapsed() < DRAFT_EVERY {
            return Ok(());
        }
        self.write(store, text, None, 0, true)
    }

    /// Store the final (or, with `interrupted`, the partial) message.
    pub fn write(
        &mut self,
        store: &Store,
        text: &str,
        tool_calls: Option<&Value>,
        token_count: u32,
        interrupted: bool,
    ) -> Result<(), CoreError> {
        match self.id {
            Some(id) => store.update_message(id, text, tool_calls, token_count, interrupted)?,
            None => {
                let msg = store.append_message(
                    &self.conversation_id,
                    NewMessage {
                        role: Role::Assistant,
                        content: text.to_string(),
                        tool_calls: tool_calls.cloned(),
                        tool_call_id: None,
                        token_count,
                        run_id: Some(self.run_id.clone()),
                        interrupted,
                    },
                )?;
                self.id = Some(msg.id);
            }
        }
        self.last_write = Instant::now();
        self.written_len = text.len();
        Ok(())
    }

    /// The row written so far, if any.
    pub fn id(&self) -> Option<i64> {
        self.id
    }

    pub fn is_written(&self) -> bool {
        self.id.is_some()
    }
}

/// Store one tool result.
pub fn tool_message(
    store: &Store,
    conversation_id: &str,
    run_id: &str,
    call_id: &str,
    content: &str,
    token_count: u32,
    interrupted: bool,
) -> Result<(), CoreError> {
    store.append_message(
        conversation_id,
        NewMessage {
            role: Role::Tool,
            content: content.to_string(),
            tool_calls: None,
            tool_call_id: Some(call_id.to_string()),
            token_count,
            run_id: Some(run_id.to_string()),
            interrupted,
        },
    )?;
    Ok(())
}
