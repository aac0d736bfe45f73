//! The request and delta types of the `ChatModel` contract. Plain data with serde; how a
//! provider encodes them on the wire belongs to `request.rs`, how deltas are gathered into a
//! whole answer to `collect.rs`.

use std::sync::Arc;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::errors::LlmError;

/// One message of the conversation sent to the model.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "role", rename_all = "snake_case")]
pub enum Message {
    System {
        content: String,
    },
    User {
        content: String,
    },
    /// A previous model turn: its text and the tool calls it made.
    Assistant {
        #[serde(default)]
        content: String,
        #[serde(default)]
        tool_calls: Vec<ToolCall>,
    },
    /// The result of one tool call, answering the call with the same id.
    Tool {
        tool_call_id: String,
        content: String,
    },
}

impl Message {
    pub fn system(content: impl Into<String>) -> Self {
        Self::System { content: content.into() }
    }
    pub fn user(content: impl Into<String>) -> Self {
        Self::User { content: content.into() }
    }
    pub fn assistant(content: impl Into<String>, tool_calls: Vec<ToolCall>) -> Self {
        Self::Assistant { content: content.into(), tool_calls }
    }
    pub fn tool(tool_call_id: impl Into<String>, content: impl Into<String>) -> Self {
        Self::Tool { tool_call_id: tool_call_id.into(), content: content.into() }
    }
}

/// A complete tool call. `arguments` is the raw JSON text the model produced (it may be
/// invalid JSON; the caller validates it against the tool's schema).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ToolCall {
    pub id: String,
    pub name: String,
    pub arguments: String,
}

/// What a call whose arguments are not a JSON object carries in history: servers parse the
/// arguments of earlier calls (Ollama, chat templates) and refuse a request holding raw
/// invalid text, and the model already got an error observation for that call.
pub const EMPTY_ARGUMENTS: &str = "{}";

impl ToolCall {
    /// The arguments as history may carry them: the model's own text when it is a JSON
    /// object, else [`EMPTY_ARGUMENTS`] (never the raw invalid text).
    pub fn history_arguments(&self) -> &str {
        match serde_json::from_str::<Value>(&self.arguments) {
            Ok(Value::Object(_)) => &self.arguments,
            _ => EMPTY_ARGUMENTS,
        }
    }
}

/// A tool the model may call, described by a JSON schema for its arguments.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ToolDef {
    pub name: String,
    #[serde(default)]
    pub description: String,
    /// JSON schema of the arguments object (shared: a definition is copied into every prompt
    /// and request, and copying a schema cost a measurable share of a turn).
    #[serde(default = "empty_object_schema")]
    pub parameters: Arc<Value>,
}

fn empty_object_schema() -> Arc<Value> {
    Arc::new(serde_json::json!({"type": "object", "properties": {}}))
}

impl ToolDef {
    /// Read an OpenAI `tools` array (`[{"type": "function", "function": {...}}]`). `source`
    /// names where the array came from, for the error message.
    pub fn from_openai_tools(tools: &Value, source: &str) -> Result<Vec<Self>, LlmError> {
        let Some(items) = tools.as_array() else {
            return Err(LlmError::config(format!(
                "{source}: expected a JSON array of tools like [{{\"type\": \"function\", \"function\": {{\"name\": ...}}}}]"
            )));
        };
        items
            .iter()
            .enumerate()
            .map(|(i, item)| {
                let function = item.get("function").unwrap_or(item);
                serde_json::from_value::<ToolDef>(function.clone()).map_err(|e| {
                    LlmError::config(format!(
                        "{source}: tool #{i} is not a function definition ({e}); each item needs function.name and function.parameters"
                    ))
                })
            })
            .collect()
    }
}

/// Sampling and length parameters; `None` leaves the server's default.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Params {
    pub temperature: Option<f32>,
    pub top_p: Option<f32>,
    pub max_tokens: Option<u32>,
    pub stop: Vec<String>,
    pub seed: Option<u64>,
    /// The JSON Schema every answer must match (structured-action mode sets it to the shape
    /// of one action object). A model that can constrain its decoding to it does (the
    /// embedded engine; servers known to accept `response_format`); others ignore it, and
    /// the answer is validated when parsed either way.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub response_schema: Option<Value>,
    /// The conversation this request continues (its id). An engine that keeps its prompt
    /// state across processes files it under this key (the embedded engine's saved states,
    /// docs/local-model.md#saved-states); servers never see it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cache_key: Option<String>,
}

/// One chat request.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct ChatRequest {
    pub messages: Vec<Message>,
    pub tools: Vec<ToolDef>,
    pub params: Params,
}

impl ChatRequest {
    pub fn new(messages: Vec<Message>) -> Self {
        Self { messages, ..Self::default() }
    }

    /// How many tool calls the history already holds; new calls without a server id are
    /// numbered after them (`call_<n>`) so ids stay unique within a conversation.
    pub fn prior_tool_calls(&self) -> usize {
        self.messages
            .iter()
            .map(|m| match m {
                Message::Assistant { tool_calls, .. } => tool_calls.len(),
                _ => 0,
            })
            .sum()
    }
}

/// Token counts the server reported: the wire's one usage type, so the llm layer, events and
/// run totals never convert between look-alikes.
pub use vibe_wire::TokenUsage;

/// One piece of a streamed answer, in arrival order.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Delta {
    /// Answer text.
    Text { text: String },
    /// Reasoning ("thinking") text, kept apart from the answer.
    Reasoning { text: String },
    /// A tool call began; `id` is stable (the server's, or `call_<n>` when it sent none).
    ToolCallStart { index: usize, id: String, name: String },
    /// More argument text for the call at `index`.
    ToolCallArgs { index: usize, fragment: String },
    /// Token counts (usually near the end).
    Usage { usage: TokenUsage },
    /// The answer is complete; `reason` is the last non-empty finish reason, verbatim.
    Finish { reason: Option<String> },
    /// Discard everything received so far for this answer: the model is answering again
    /// (structured mode's repair retry). `reason` says why, for logs.
    Restart { reason: String },
}

/// A model the endpoint offers (`GET /models`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ModelInfo {
    pub id: String,
    #[serde(default)]
    pub owned_by: Option<String>,
}
