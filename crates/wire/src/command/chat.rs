//! Commands of a turn: send a message (or retry the last one), cancel a running turn, and
//! resolve an approval the turn is waiting for.

use serde::{Deserialize, Serialize};

use crate::{ProtocolChoice, StopReason, TokenUsage, VoiceMode};

/// What the person asks for in a turn.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum TurnInput {
    /// A new message.
    Say { text: String },
    /// Answer the conversation's last message again (needs a conversation).
    Retry,
    /// A button of a protocol invitation pressed (`protocol_invitation`'s actions): the turn
    /// starts the protocol (or puts it off) in this conversation and the coach answers at
    /// once. `label` is what the button said, kept as the person's message.
    Choose { protocol_id: String, choice: ProtocolChoice, label: String },
}

/// `send_message`: one turn. The turn's events stream to the caller's event sink while it
/// runs; the response comes when the run has ended.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct SendMessageRequest {
    /// Continue this conversation; absent starts a new one.
    #[serde(default)]
    pub conversation_id: Option<String>,
    pub input: TurnInput,
    /// Activate this skill before the turn (the person picked it).
    #[serde(default)]
    pub skill: Option<String>,
    #[serde(default)]
    pub scenario: Option<String>,
    #[serde(default)]
    pub voice_mode: Option<VoiceMode>,
    /// The run's id, minted by the caller (a UUID, e.g. v7) so it can stop the run before any
    /// event names it. Absent, the app mints one. An id in use or used before is refused.
    #[serde(default)]
    pub run_id: Option<String>,
}

impl SendMessageRequest {
    /// A new message, optionally in an existing conversation.
    pub fn say(conversation_id: Option<String>, text: impl Into<String>) -> Self {
        Self {
            conversation_id,
            input: TurnInput::Say { text: text.into() },
            skill: None,
            scenario: None,
            voice_mode: None,
            run_id: None,
        }
    }

    /// Answer the last message of `conversation_id` again.
    pub fn retry(conversation_id: impl Into<String>) -> Self {
        Self {
            conversation_id: Some(conversation_id.into()),
            input: TurnInput::Retry,
            skill: None,
            scenario: None,
            voice_mode: None,
            run_id: None,
        }
    }
}

/// How a turn ended.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct SendMessageResponse {
    pub run_id: String,
    pub conversation_id: String,
    pub stop_reason: StopReason,
    /// The final answer's text (empty when the run ended without one).
    pub text: String,
    pub usage: TokenUsage,
    /// The active skill at the end of the turn.
    pub skill: Option<String>,
}

/// `cancel_run`: stop a running turn (from any task).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct CancelRunRequest {
    pub run_id: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct CancelRunResponse {
    /// False when no such run is running in this app (it ended, or never ran here).
    pub cancelled: bool,
}

/// `resolve_approval`: the person's answer to an `approval_required` event.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct ResolveApprovalRequest {
    /// The `request_id` of the `approval_required` event.
    pub request_id: String,
    pub approved: bool,
    /// With `approved`: always allow this tool of its connection from now on (written to
    /// `mcp.servers.SERVER.always_allow`); only for a request that names a connection.
    #[serde(default)]
    pub always: bool,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct ResolveApprovalResponse {
    /// False when nothing waits for this request any more (answered, or its run ended).
    pub resolved: bool,
}
