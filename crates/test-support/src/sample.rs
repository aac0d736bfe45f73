//! A sample run's events touching every kind the printer shows: reasoning, reply deltas, tool
//! calls and results (an error, one kept in a file), a skill activation, a plan, an approval
//! denied, a compaction, usage, an error and a budget stop. The CLI's printer tests and its
//! replay tests use the same run, so replay is checked against the very texts the printer
//! tests assert.

use serde_json::{Value, json};
use vibe_wire::{
    ApprovalSource, ErrorInfo, ErrorKind, Event, Phase, Plan, PlanStep, PlanStepStatus, StopReason,
    SummaryBy, TokenUsage,
};

/// The sample run in `conversation_id`, with `usage` reported, and the third tool result
/// `big_result` (kept in `big_file` when the audit put it in a file).
pub fn sample_run(
    conversation_id: &str,
    usage: TokenUsage,
    big_result: Value,
    big_file: Option<String>,
) -> Vec<Event> {
    vec![
        Event::RunStarted {
            conversation_id: conversation_id.to_string(),
            phase: Phase::Phase1,
            skill: None,
            user_message: "hi".into(),
            model: "m".into(),
        },
        Event::RoundStarted { round: 1 },
        Event::ReasoningDelta { text: "thinking".into() },
        Event::AssistantDelta { text: "Let me look.".into() },
        Event::ToolCall {
            id: "t1".into(),
            name: "use_skill".into(),
            arguments: json!({"skill": "bazi"}),
        },
        Event::ToolResult {
            id: "t1".into(),
            name: "use_skill".into(),
            result: json!({"status": "activated"}),
            is_error: false,
            file: None,
        },
        Event::SkillActivated { skill: "bazi".into(), scenario: None },
        Event::PlanUpdated {
            plan: Plan {
                goal: "Read the chart".into(),
                steps: vec![
                    PlanStep { title: "compute".into(), status: PlanStepStatus::Done },
                    PlanStep { title: "explain".into(), status: PlanStepStatus::InProgress },
                    PlanStep { title: "advise".into(), status: PlanStepStatus::Pending },
                ],
            },
        },
        Event::ToolCall { id: "t2".into(), name: "read_state".into(), arguments: json!({}) },
        Event::ToolResult {
            id: "t2".into(),
            name: "read_state".into(),
            result: json!({"error": "no such section \"x\""}),
            is_error: true,
            file: None,
        },
        Event::ToolResult {
            id: "t3".into(),
            name: "run_script".into(),
            result: big_result,
            is_error: false,
            file: big_file,
        },
        Event::ApprovalRequired {
            request_id: "a1".into(),
            tool: "run_script".into(),
            args: json!({"script": "x.py"}),
            reason: "runs a script".into(),
            connection: None,
        },
        Event::ApprovalResolved {
            request_id: "a1".into(),
            approved: false,
            by: ApprovalSource::Policy,
        },
        Event::Compacted {
            folded_messages: 12,
            summary_tokens: 300,
            summary_by: Some(SummaryBy::Digest),
            fallback_reason: Some("model summaries are off".into()),
            usage: None,
        },
        Event::RoundStarted { round: 2 },
        Event::AssistantDelta { text: "你的日主".into() },
        Event::AssistantDelta { text: "是甲木。".into() },
        Event::Usage { usage },
        Event::Error { error: ErrorInfo::new(ErrorKind::Budget, "max_rounds reached") },
        Event::RunFinished { stop_reason: StopReason::MaxRounds, usage, rounds: 10, tool_calls: 1 },
    ]
}
