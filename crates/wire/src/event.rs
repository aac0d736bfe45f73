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
mod tests {
    use super::*;

    #[test]
    fn events_serialise_with_snake_case_type_and_envelope_fields() {
        let env = Envelope {
            run_id: "r1".into(),
            seq: 3,
            ts: "2026-01-01T00:00:00Z".into(),
            event: Event::SkillsChanged {
                changes: vec![SkillsChange {
                    name: "bazi".into(),
                    change: SkillsChangeKind::Changed,
                    problems: vec![],
                }],
            },
        };
        let v = serde_json::to_value(&env).unwrap_or_default();
        assert_eq!(v["type"], "skills_changed");
        assert_eq!(v["run_id"], "r1");
        assert_eq!(v["seq"], 3);
        assert_eq!(v["changes"][0]["name"], "bazi");
        assert_eq!(v["changes"][0]["change"], "changed");
        assert!(v["changes"][0].get("problems").is_none());
        let back: Envelope = serde_json::from_value(v).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(back, env);
    }

    #[test]
    fn run_events_round_trip_with_their_documented_shapes() {
        let events = vec![
            Event::Error { error: ErrorInfo::new(crate::ErrorKind::RateLimited, "slow down") },
            Event::RunFinished {
                stop_reason: StopReason::MaxRounds,
                usage: TokenUsage { prompt_tokens: 1, completion_tokens: 2, total_tokens: 3 },
                rounds: 10,
                tool_calls: 4,
            },
            Event::ModelRequest {
                round: 1,
                phase: Phase::Phase2,
                prompt_tokens: 900,
                sections: vec![SectionTokens { name: "persona".into(), tokens: 300 }],
                tools: vec!["read_state".into()],
                history_messages: 4,
                notices: vec![],
                token_factor: Some(1.25),
                corrected_tokens: Some(1125),
                budget: Some(crate::PromptBudget {
                    context_window: 4096,
                    prompt_budget: 1843,
                    reply_reserve: 1024,
                }),
            },
            Event::Compacted {
                folded_messages: 6,
                summary_tokens: 80,
                summary_by: Some(SummaryBy::Digest),
                fallback_reason: Some("the summarising model call failed".into()),
                usage: Some(TokenUsage {
                    prompt_tokens: 700,
                    completion_tokens: 0,
                    total_tokens: 700,
                }),
            },
        ];
        for event in events {
            let v = serde_json::to_value(&event).unwrap_or_default();
            let back: Event =
                serde_json::from_value(v.clone()).unwrap_or_else(|e| panic!("{e}: {v}"));
            assert_eq!(back, event);
        }
        let err = serde_json::to_value(Event::Error {
            error: ErrorInfo::new(crate::ErrorKind::Auth, "bad key"),
        })
        .unwrap_or_default();
        assert_eq!(err, serde_json::json!({"type": "error", "kind": "auth", "message": "bad key"}));
        let fin = serde_json::to_value(Event::RunFinished {
            stop_reason: StopReason::RepeatedToolFailure,
            usage: TokenUsage::default(),
            rounds: 3,
            tool_calls: 3,
        })
        .unwrap_or_default();
        assert_eq!(fin["stop_reason"], "repeated_tool_failure");
        assert_eq!(fin["type"], "run_finished");
    }

    #[test]
    fn protocol_events_carry_the_seed_fields() {
        let progress = Event::ProtocolProgress {
            protocol_id: "dankoe".into(),
            protocol_run_id: "p1".into(),
            step: 2,
            total_steps: 6,
            step_name: "反愿景".into(),
            phase: Some("morning".into()),
            progress: 1.0 / 6.0,
            step_names: vec!["觉察痛点".into(), "反愿景".into()],
            step_names_en: vec!["Feel the pain".into(), "Anti-vision".into()],
        };
        let v = serde_json::to_value(&progress).unwrap_or_default();
        assert_eq!(v["type"], "protocol_progress");
        for key in ["protocol_id", "step", "total_steps", "step_name", "phase", "progress"] {
            assert!(v.get(key).is_some(), "{key} missing in {v}");
        }
        let back: Event = serde_json::from_value(v).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(back, progress);
        let done = Event::ProtocolCompleted {
            protocol_id: "dankoe".into(),
            protocol_run_id: "p1".into(),
            summary: "s".into(),
        };
        assert_eq!(serde_json::to_value(&done).unwrap_or_default()["type"], "protocol_completed");
    }

    #[test]
    fn events_written_before_the_calibration_and_compaction_fields_still_read() {
        let old = r#"{"type":"model_request","round":1,"phase":"phase1","prompt_tokens":900,"sections":[],"tools":[],"history_messages":0}"#;
        let Event::ModelRequest { token_factor, corrected_tokens, .. } =
            serde_json::from_str(old).unwrap_or_else(|e| panic!("{e}"))
        else {
            panic!("not a model request")
        };
        assert_eq!((token_factor, corrected_tokens), (None, None));
        let old = r#"{"type":"compacted","folded_messages":12,"summary_tokens":300}"#;
        let back: Event = serde_json::from_str(old).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(
            back,
            Event::Compacted {
                folded_messages: 12,
                summary_tokens: 300,
                summary_by: None,
                fallback_reason: None,
                usage: None
            }
        );
    }

    #[test]
    fn a_round_is_written_round_started_and_the_old_turn_started_still_reads() {
        let v = serde_json::to_value(Event::RoundStarted { round: 2 }).unwrap_or_default();
        assert_eq!(v, serde_json::json!({"type": "round_started", "round": 2}));
        let old = r#"{"run_id":"r1","seq":1,"ts":"t","type":"turn_started","round":3}"#;
        let env: Envelope = serde_json::from_str(old).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(env.event, Event::RoundStarted { round: 3 });
    }

    #[test]
    fn safety_notice_is_tagged_and_round_trips() {
        let notice = Event::SafetyNotice {
            risk: SafetyRisk::Acute,
            category: SafetyCategory::Suicide,
            resources: vec![SafetyResource {
                name: "急救".into(),
                number: "120".into(),
                note: None,
            }],
            locale: "zh-CN".into(),
        };
        let v = serde_json::to_value(&notice).unwrap_or_default();
        assert_eq!(v["type"], "safety_notice");
        assert_eq!(v["resources"][0], serde_json::json!({"name": "急救", "number": "120"}));
        let back: Event =
            serde_json::from_value(v).unwrap_or(Event::SkillsChanged { changes: vec![] });
        assert_eq!(back, notice);
    }
}
