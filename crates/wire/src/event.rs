//! The one event enum. Serialised as a JSON object with a snake_case `type` tag; an
//! [`Envelope`] adds `run_id`, `seq` and `ts`. The same JSON goes down the Tauri channel, out of
//! `vibe chat --json` and into `events.jsonl`.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::{ApprovalSource, DisplayKind, ErrorInfo, ProtocolChoice, SafetyCategory, SafetyRisk};

use crate::run::{Phase, Plan, SectionTokens, StopReason, SummaryBy, TokenUsage};

/// An event with its place in a run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct Envelope {
    /// The run this event belongs to (empty for notices outside any run).
    pub run_id: String,
    /// Increasing within a run, starting at 0.
    pub seq: u64,
    /// RFC 3339 UTC timestamp.
    pub ts: String,
    #[serde(flatten)]
    pub event: Event,
}

/// Every event the core emits. Run events come in this order: `run_started`, then per model
/// round `round_started`, `model_request`, deltas, `tool_call` / `approval_*` / `tool_result`
/// and their side events, `usage`; finally exactly one `run_finished`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Event {
    /// The skill registry saw skills added, changed or removed on disk.
    SkillsChanged { changes: Vec<SkillsChange> },

    /// A model download (`pull_model`) advanced: `received` of `total` bytes are in the
    /// partial file (a resumed download starts above 0). Outside any run (`run_id` empty).
    ModelDownloadProgress { id: String, received: u64, total: u64 },
    /// A model download finished: verified and in place.
    ModelDownloadFinished { id: String, size_bytes: u64, sha256: String },
    /// A model download stopped: cancelled (`cancelled`), a network error (pulling again
    /// resumes), no room, a wrong checksum (the partial file was removed).
    ModelDownloadFailed { id: String, error: ErrorInfo },
    /// Sync's status changed: a run began or ended (in the background or asked for), or it
    /// was set up, joined, paused or resumed. Outside any run (`run_id` empty).
    SyncChanged { status: crate::command::SyncStatusView },
    /// A run (one request → one agent run) began.
    RunStarted {
        conversation_id: String,
        phase: Phase,
        /// The active skill at the start (restored from the conversation).
        #[serde(default)]
        skill: Option<String>,
        /// The user message this run answers.
        #[serde(default)]
        user_message: String,
        /// The model requests are sent for.
        #[serde(default)]
        model: String,
    },
    /// A model round (one model call) began, 1-based; the closing call after a budget stop is
    /// a round of its own. Written as `turn_started` before the turn/round naming was settled;
    /// that name still reads.
    #[serde(alias = "turn_started")]
    RoundStarted { round: u32 },
    /// The request about to be sent to the model: phase, and prompt tokens by section.
    ModelRequest {
        round: u32,
        phase: Phase,
        /// System prompt + tool definitions + history, counted with the BPE tokenizer
        /// (`o200k_base`): the estimate, before the model's correction.
        prompt_tokens: u32,
        /// The model's token correction: its reported prompt tokens per estimated token,
        /// learnt from earlier requests (bounded and smoothed, docs/context.md). Absent until
        /// the model has reported usage once (and in events written before it existed).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        token_factor: Option<f64>,
        /// `prompt_tokens` corrected with `token_factor`: the size the budgets were checked
        /// against. Absent with `token_factor`.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        corrected_tokens: Option<u32>,
        sections: Vec<SectionTokens>,
        /// Names of the tools offered.
        tools: Vec<String>,
        /// Messages of history included (after the system prompt).
        history_messages: u32,
        /// What was shortened or left out to fit the budget, in words for people.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        notices: Vec<String>,
        /// The budget the request was fitted to: the model's context window, the phase's
        /// prompt budget and the reply reserve. Absent in events written before it existed
        /// (and for requests outside the chat loop, such as memory extraction).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        budget: Option<crate::PromptBudget>,
    },
    /// Answer text as it streams.
    AssistantDelta { text: String },
    /// Reasoning text as it streams (kept apart from the answer).
    ReasoningDelta { text: String },
    /// The model discarded what it streamed this round and answers again (repair retry).
    AssistantRestart { reason: String },
    /// A complete tool call the model made.
    ToolCall {
        id: String,
        name: String,
        /// The arguments as parsed JSON, or the raw text when they were not valid JSON.
        arguments: Value,
    },
    /// The result of a tool call, as given back to the model.
    ToolResult {
        id: String,
        name: String,
        /// The observation (truncated when it was stored in `file`).
        result: Value,
        #[serde(default)]
        is_error: bool,
        /// A file beside events.jsonl holding the whole output, when it was large.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        file: Option<String>,
    },
    /// `use_skill` activated a skill; the next model call uses its phase-2 prompt.
    SkillActivated {
        skill: String,
        #[serde(default)]
        scenario: Option<String>,
    },
    /// A tool changed stored data (skill state or the person's profile): a front end showing
    /// it refreshes exactly these paths. Emitted after the write committed.
    StateChanged {
        /// The skill whose state changed; absent for the person's profile.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        skill: Option<String>,
        /// Dotted paths that changed, relative to the skill's state (`goals`,
        /// `progress.milestones`) or to the profile (`birth_info`).
        paths: Vec<String>,
    },
    /// The explicit plan changed (docs/design.md#the-agent-loop).
    PlanUpdated { plan: Plan },
    /// Something for the person to see that is not chat text (e.g. a chart).
    Display { kind: DisplayKind, data: Value },
    /// A tool needs the person's approval; the run waits for `approval_resolved`.
    ApprovalRequired {
        request_id: String,
        tool: String,
        args: Value,
        reason: String,
        /// Set when the tool is a connected MCP server's: which server, and what the server
        /// says of the tool (hints, not guarantees); the person may answer "always allow".
        #[serde(default, skip_serializing_if = "Option::is_none")]
        connection: Option<ApprovalConnection>,
    },
    /// The decision on an approval request.
    ApprovalResolved { request_id: String, approved: bool, by: ApprovalSource },
    /// Older turns were folded into a stored summary to fit the budget.
    Compacted {
        folded_messages: u32,
        summary_tokens: u32,
        /// Who wrote the summary (absent in events written before it was recorded).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        summary_by: Option<SummaryBy>,
        /// Why the digest was used instead of the model (model summaries off, the call
        /// failed, it answered nothing).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        fallback_reason: Option<String>,
        /// Tokens the summarising model call cost (as the model reported them, else counted);
        /// they count in the run's usage. Absent when no model call was made.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        usage: Option<TokenUsage>,
    },
    /// Token counts reported by the model for one round.
    Usage { usage: TokenUsage },
    /// The reply shown so far could not be saved (the disk is full, the data folder is
    /// read-only, a permission is missing): it will not be in the conversation's history.
    /// Followed by the `error` event with the cause; the run ends failed, not interrupted.
    ReplyUnsaved { message: String },
    /// Something failed; the run may still finish gracefully.
    Error {
        #[serde(flatten)]
        error: ErrorInfo,
    },
    /// The run ended. Always the last event of a run.
    RunFinished {
        stop_reason: StopReason,
        /// Totals over the run.
        usage: TokenUsage,
        rounds: u32,
        tool_calls: u32,
    },
    /// The coach invites the person to a protocol (`show_protocol_invitation`); the person
    /// answers with one of `actions` (`start` / `later`), from the UI or `vibe protocol`.
    ProtocolInvitation {
        skill: String,
        protocol_id: String,
        title: String,
        description: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        estimated_time: Option<String>,
        actions: Vec<ProtocolAction>,
        /// The protocol file's English title, description and time, for an English UI (absent
        /// where the file has none, or where the coach worded that part itself).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        title_en: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        description_en: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        estimated_time_en: Option<String>,
    },
    /// The person's next message after an invitation was not an agreement (nor a button), so
    /// the invitation lapsed: nothing started, the card shows it as lapsed, and the coach may
    /// offer it again later.
    ProtocolInvitationLapsed { skill: String, protocol_id: String },
    /// A protocol run started, resumed or moved to another step.
    ProtocolProgress {
        protocol_id: String,
        /// The protocol run (see `vibe protocol status`).
        protocol_run_id: String,
        /// The current step, 1-based.
        step: u32,
        total_steps: u32,
        step_name: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        phase: Option<String>,
        /// Share of steps done, 0–1.
        progress: f64,
        /// Every step's name, in order, so a progress bar can show the steps ahead (absent in
        /// logs written before it was added).
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        step_names: Vec<String>,
        /// The same names in English (a step without an English title keeps its Chinese one),
        /// when the protocol has English titles; empty otherwise.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        step_names_en: Vec<String>,
    },
    /// The last step was saved; the completion mapping is in the skill state.
    ProtocolCompleted { protocol_id: String, protocol_run_id: String, summary: String },
    /// The run was cancelled; its data is kept.
    ProtocolCancelled {
        protocol_id: String,
        protocol_run_id: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        reason: Option<String>,
    },
    /// The run was paused because another protocol of the same skill started; it stays
    /// resumable (`vibe protocol resume RUN_ID`).
    ProtocolPaused { protocol_id: String, protocol_run_id: String, step: u32, total_steps: u32 },
    /// The safety rules were unsure about the person's message, so the configured model was
    /// asked to rate it: one small call before the coach's (docs/safety.md). `risk` is what
    /// stands after the check (absent: no risk), `rule` is `model` when the model's rating
    /// decided. With `fallback_reason` the model's answer could not be used (the call failed,
    /// it was not the expected JSON) and the rules' verdict stands. The call's tokens count in
    /// the run's usage. Comes before any `safety_notice` of the turn.
    SafetyCheck {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        risk: Option<SafetyRisk>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        category: Option<SafetyCategory>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        rule: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        fallback_reason: Option<String>,
        /// Tokens the call cost (as the model reported them, else counted).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        usage: Option<TokenUsage>,
    },
    /// The person's message reads as a wellbeing risk (docs/safety.md): the crisis resources
    /// for their locale, shown before the coach's answer.
    SafetyNotice {
        risk: SafetyRisk,
        category: SafetyCategory,
        resources: Vec<SafetyResource>,
        /// The locale the resources were chosen for (`generic` when none is known).
        locale: String,
    },
}

/// One crisis contact in a safety notice.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct SafetyResource {
    pub name: String,
    pub number: String,
    /// Opening hours or a web address.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// The connected MCP server an approval request's tool belongs to, and what the server says
/// of the tool (its annotations: hints, not guarantees; absent when it says nothing).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct ApprovalConnection {
    /// The server's name in the settings (`mcp.servers.NAME`).
    pub server: String,
    /// The tool's own name on the server.
    pub tool: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub read_only: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub destructive: Option<bool>,
    /// It reaches beyond the computer (the web, other people's services).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub open_world: Option<bool>,
}

/// One choice offered with a protocol invitation.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct ProtocolAction {
    /// What the person sees, e.g. `开始重置`.
    pub label: String,
    /// What choosing it does.
    pub value: ProtocolChoice,
}

/// One change the skill registry noticed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct SkillsChange {
    /// Skill name (folder name).
    pub name: String,
    /// What happened to it.
    pub change: SkillsChangeKind,
    /// For `invalid`: the findings as `path:line:col: message` lines.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub problems: Vec<String>,
}

/// The kind of a [`SkillsChange`], serialised as `added`, `changed`, `removed` or `invalid`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum SkillsChangeKind {
    /// A new skill is usable.
    Added,
    /// A usable skill's files changed (frontmatter, body or a part), or it is valid again.
    Changed,
    /// The skill is gone (or no longer usable and no earlier version is kept).
    Removed,
    /// The skill's SKILL.md or a part is broken; the last good version (if any) stays in use.
    Invalid,
}

#[cfg(test)]
#[path = "event_tests.rs"]
mod tests;
