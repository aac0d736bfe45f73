//! Writing the run's messages as they complete (docs/design.md#history): the assistant answer is
//! stored as a draft flagged `interrupted` while it streams (at most every [`DRAFT_EVERY`]) and
//! completed in place, so a killed process leaves the partial text (an answer with tool calls is
//! completed in the commit of its first result, `agent/tool_round.rs`); the "cancelled" results
//! of a cancel are stored one by one. Every write waits for the database on a blocking thread
//! (`store_io`), never on an async worker.

use std::sync::Arc;
use std::time::{Duration, Instant};

use serde_json::Value;
use vibe_llm::ToolCall;
use vibe_store::{NewMessage, Role, Store};

use crate::CoreError;
use crate::store_io::blocking;

/// How often a streaming answer's draft is written.
pub const DRAFT_EVERY: Duration = Duration::from_millis(300);

/// Stored form of tool calls: `[{"id", "name", "arguments"}]`, arguments as JSON text. A call
/// whose arguments are not a JSON object (never executed: the model got an error observation
/// for it) is stored with `{}` (`vibe_llm::EMPTY_ARGUMENTS`), so history never carries the raw
/// invalid text back to a server.
pub fn tool_calls_json(calls: &[ToolCall]) -> Option<Value> {
    if calls.is_empty() {
        return None;
    }
    let stored: Vec<ToolCall> = calls
        .iter()
        .map(|c| ToolCall { arguments: c.history_arguments().to_string(), ..c.clone() })
        .collect();
    serde_json::to_value(stored).ok()
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
    pub async fn maybe_write(&mut self, store: &Arc<Store>, text: &str) -> Result<(), CoreError> {
        if text.len() == self.written_len || self.last_write.elapsed() < DRAFT_EVERY {
            return Ok(());
        }
        self.write(store, text, None, 0, true).await
    }

    /// Store the final (or, with `interrupted`, the partial) message. The write waits for
    /// the database off the async worker (`store_io`).
    pub async fn write(
        &mut self,
        store: &Arc<Store>,
        text: &str,
        tool_calls: Option<&Value>,
        token_count: u32,
        interrupted: bool,
    ) -> Result<(), CoreError> {
        let (content, tool_calls) = (text.to_string(), tool_calls.cloned());
        match self.id {
            Some(id) => {
                blocking(store, move |s| {
                    s.update_message(id, &content, tool_calls.as_ref(), token_count, interrupted)
                })
                .await?;
            }
            None => {
                let conversation_id = self.conversation_id.clone();
                let message = NewMessage {
                    role: Role::Assistant,
                    content,
                    tool_calls,
                    tool_call_id: None,
                    token_count,
                    run_id: Some(self.run_id.clone()),
                    interrupted,
                };
                let msg =
                    blocking(store, move |s| s.append_message(&conversation_id, message)).await?;
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

/// Store one tool result (off the async worker, `store_io`).
pub async fn tool_message(
    store: &Arc<Store>,
    conversation_id: &str,
    run_id: &str,
    call_id: &str,
    content: &str,
    token_count: u32,
    interrupted: bool,
) -> Result<(), CoreError> {
    let conversation_id = conversation_id.to_string();
    let message = NewMessage {
        role: Role::Tool,
        content: content.to_string(),
        tool_calls: None,
        tool_call_id: Some(call_id.to_string()),
        token_count,
        run_id: Some(run_id.to_string()),
        interrupted,
    };
    blocking(store, move |s| s.append_message(&conversation_id, message)).await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn calls_with_arguments_that_are_not_an_object_are_stored_with_an_empty_object() {
        let call = |arguments: &str| ToolCall {
            id: "c".into(),
            name: "f".into(),
            arguments: arguments.into(),
        };
        let stored = tool_calls_json(&[call("{\"a\":1}{\"b\":2}"), call("{\"a\":1}")]);
        let args: Vec<_> = stored
            .iter()
            .flat_map(|v| v.as_array().into_iter().flatten())
            .map(|c| c["arguments"].clone())
            .collect();
        assert_eq!(args, [Value::from("{}"), Value::from("{\"a\":1}")]);
    }
}
