//! Conversation commands: list, get (with messages), rename, delete, search.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::{SafetyCategory, SafetyResource, SafetyRisk, VoiceMode};

/// One conversation in a list.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct ConversationSummary {
    pub id: String,
    pub title: Option<String>,
    /// The active skill, if any.
    pub skill: Option<String>,
    pub scenario: Option<String>,
    pub voice_mode: Option<VoiceMode>,
    /// RFC 3339 UTC.
    pub created_at: String,
    pub updated_at: String,
}

/// Who wrote a message.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum MessageRole {
    System,
    User,
    Assistant,
    Tool,
}

/// One stored message.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct ChatMessage {
    pub id: i64,
    pub role: MessageRole,
    pub content: String,
    /// An assistant message's tool calls (OpenAI shape), absent otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool_calls: Option<Value>,
    /// A tool message answers this call.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool_call_id: Option<String>,
    /// The run that wrote it.
    pub run_id: Option<String>,
    /// The reply was cut short (a stop or a crash) and kept as far as it came.
    pub interrupted: bool,
    pub created_at: String,
    /// A message of the person the wellbeing screen or the coach found at risk
    /// (docs/safety.md): memory never takes it in.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub safety: Option<MessageSafety>,
}

/// The safety mark of a stored message.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct MessageSafety {
    pub risk: SafetyRisk,
    /// Absent only on marks made before the category was kept (schema 16).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub category: Option<SafetyCategory>,
}

/// The crisis contacts a conversation with a marked message shows again when opened: those of
/// the person's locale now (the data folder's override applied), as a new notice would.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct CrisisResources {
    pub resources: Vec<SafetyResource>,
    /// The locale they were chosen for (`generic` when none is known).
    pub locale: String,
}

/// `list_conversations` and `search_conversations`: newest first.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct ConversationList {
    pub conversations: Vec<ConversationSummary>,
}

/// `get_conversation`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct GetConversationRequest {
    pub id: String,
}

/// A conversation with its messages, oldest first.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct ConversationDetail {
    pub conversation: ConversationSummary,
    pub messages: Vec<ChatMessage>,
    /// Present when one of the messages carries a safety mark.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub crisis_resources: Option<CrisisResources>,
}

/// `rename_conversation`; an empty title clears it. Answers the renamed summary.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct RenameConversationRequest {
    pub id: String,
    pub title: String,
}

/// `delete_conversation`: the conversation with its messages and runs.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct DeleteConversationRequest {
    pub id: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct DeleteConversationResponse {
    pub deleted: String,
    /// The runs deleted with it (their rows and their `runs/<id>/` folders).
    #[serde(default)]
    pub runs_removed: Vec<String>,
}

/// `search_conversations`: conversations whose title or messages contain `query`
/// (case-insensitive for ASCII letters).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct SearchConversationsRequest {
    pub query: String,
}
