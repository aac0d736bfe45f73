//! The one event enum. Serialised as a JSON object with a snake_case `type` tag; an
//! [`Envelope`] adds `run_id`, `seq` and `ts`. The same JSON goes down the Tauri channel, out of
//! `vibe chat --json` and into `events.jsonl`.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::ErrorInfo;
use crate::run::{Phase, Plan, SectionTokens, StopReason, TokenUsage};

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
/// round `turn_started`, `model_request`, deltas, `tool_call` / `approval_*` / `tool_result`
/// and their side events, `usage`; finally exactly one `run_finished`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Event {
    /// The skill registry saw skills added, changed or removed on disk.
    SkillsChanged { changes: Vec<SkillsChange> },

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
    /// A model round began (1-based).
    TurnStarted { round: u32 },
    /// The request about to be sent to the model: phase, and prompt tokens by section.
    ModelRequest {
        round: u32,
        phase: Phase,
        /// System prompt + tool definitions + history, counted with the BPE tokenizer.
        prompt_tokens: u32,
        sections: Vec<SectionTokens>,
        /// Names of the tools offered.
        tools: Vec<String>,
        /// Messages of history included (after the system prompt).
        history_messages: u32,
        /// What was shortened or left out to fit the budget, in words for people.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        notices: Vec<String>,
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
    /// The explicit plan changed (seed 004 §4.2).
    PlanUpdated { plan: Plan },
    /// Something for the person to see that is not chat text (e.g. a chart).
    Display { kind: String, data: Value },
    /// A tool needs the person's approval; the run waits for `approval_resolved`.
    ApprovalRequired { request_id: String, tool: String, args: Value, reason: String },
    /// The decision on an approval request.
    ApprovalResolved {
        request_id: String,
        approved: bool,
        /// `user` or `policy`.
        by: String,
    },
    /// Older turns were folded into a stored summary to fit the budget.
    Compacted { folded_messages: u32, summary_tokens: u32 },
    /// Token counts reported by the model for one round.
    Usage { usage: TokenUsage },
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
            Event::Error { error: ErrorInfo::new("rate_limited", "slow down") },
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
            },
        ];
        for event in events {
            let v = serde_json::to_value(&event).unwrap_or_default();
            let back: Event =
                serde_json::from_value(v.clone()).unwrap_or_else(|e| panic!("{e}: {v}"));
            assert_eq!(back, event);
        }
        let err = serde_json::to_value(Event::Error { error: ErrorInfo::new("auth", "bad key") })
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
}
