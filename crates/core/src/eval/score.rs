//! Scoring one turn from its events (pure: events and final state in, checks out).

use serde::Serialize;
use serde_json::Value;
use vibe_wire::{Envelope, Event};

use crate::eval::scenario::Expect;

/// One expectation and whether it held.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Check {
    pub name: String,
    pub passed: bool,
    /// What was seen, for people.
    pub detail: String,
}

fn check(name: &str, passed: bool, detail: String) -> Check {
    Check { name: name.into(), passed, detail }
}

/// What one run did, read from its events.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Observed {
    pub tool_calls: Vec<String>,
    pub stop_reason: String,
    pub start_phase: String,
    pub rounds: u32,
    pub guardrail_hits: u32,
    pub reply: String,
    pub event_types: Vec<String>,
}

pub fn observe(events: &[Envelope]) -> Observed {
    let mut o = Observed::default();
    for env in events {
        let ty = serde_json::to_value(&env.event)
            .ok()
            .and_then(|v| v.get("type").and_then(Value::as_str).map(str::to_string))
            .unwrap_or_default();
        if !o.event_types.contains(&ty) {
            o.event_types.push(ty);
        }
        match &env.event {
            Event::ToolCall { name, .. } => o.tool_calls.push(name.clone()),
            Event::RunStarted { phase, .. } => {
                o.start_phase = serde_json::to_value(phase)
                    .ok()
                    .and_then(|v| v.as_str().map(str::to_string))
                    .unwrap_or_default();
            }
            Event::ToolResult { is_error: true, .. } => o.guardrail_hits += 1,
            Event::ApprovalResolved { approved: false, .. } => o.guardrail_hits += 1,
            Event::AssistantDelta { text } => o.reply.push_str(text),
            Event::AssistantRestart { .. } => o.reply.clear(),
            Event::RoundStarted { .. } => o.reply.clear(),
            Event::RunFinished { stop_reason, rounds, .. } => {
                o.stop_reason = stop_reason.as_str().to_string();
                o.rounds = *rounds;
            }
            _ => {}
        }
    }
    o
}

/// Score one turn. `active_skill` and `profile` are read after the turn.
pub fn score_turn(
    expect: &Expect,
    events: &[Envelope],
    active_skill: Option<&str>,
    profile: &Value,
) -> (Observed, Vec<Check>) {
    let o = observe(events);
    let mut checks = Vec::new();
    if let Some(want) = &expect.tool_calls {
        checks.push(check(
            "tool_calls",
            &o.tool_calls == want,
            format!("called {:?}, expected {:?}", o.tool_calls, want),
        ));
    }
    for [a, b] in expect.order.iter().flatten() {
        let first_a = o.tool_calls.iter().position(|n| n == a);
        let ok = o
            .tool_calls
            .iter()
            .enumerate()
            .filter(|(_, n)| *n == b)
            .all(|(i, _)| first_a.is_some_and(|fa| fa < i));
        checks.push(check(&format!("order {a} < {b}"), ok, format!("calls {:?}", o.tool_calls)));
    }
    if let Some(want) = &expect.stop_reason {
        checks.push(check(
            "stop_reason",
            &o.stop_reason == want,
            format!("stopped with {}", o.stop_reason),
        ));
    }
    if let Some(want) = &expect.start_phase {
        checks.push(check(
            "start_phase",
            &o.start_phase == want,
            format!("started in {}", o.start_phase),
        ));
    }
    if let Some(want) = &expect.active_skill {
        let got = active_skill.unwrap_or("none");
        checks.push(check("active_skill", got == want, format!("active skill {got}")));
    }
    for phrase in expect.reply_contains.iter().flatten() {
        checks.push(check(
            &format!("reply contains \"{phrase}\""),
            o.reply.contains(phrase.as_str()),
            short(&o.reply),
        ));
    }
    for phrase in expect.reply_not_contains.iter().flatten() {
        checks.push(check(
            &format!("reply avoids \"{phrase}\""),
            !o.reply.contains(phrase.as_str()),
            short(&o.reply),
        ));
    }
    if let Some(max) = expect.max_rounds {
        checks.push(check("max_rounds", o.rounds <= max, format!("{} rounds", o.rounds)));
    }
    if let Some(max) = expect.max_tool_calls {
        let n = o.tool_calls.len() as u32;
        checks.push(check("max_tool_calls", n <= max, format!("{n} tool calls")));
    }
    if let Some(max) = expect.max_guardrail_hits {
        checks.push(check(
            "max_guardrail_hits",
            o.guardrail_hits <= max,
            format!("{} guardrail hits", o.guardrail_hits),
        ));
    }
    for ty in expect.events.iter().flatten() {
        checks.push(check(
            &format!("event {ty}"),
            o.event_types.contains(ty),
            format!("saw {:?}", o.event_types),
        ));
    }
    for (path, want) in expect.state.iter().flatten() {
        let pointer = format!("/{}", path.replace('.', "/"));
        let got = profile.pointer(&pointer).cloned().unwrap_or(Value::Null);
        checks.push(check(&format!("state {path}"), &got == want, format!("{path} = {got}")));
    }
    (o, checks)
}

fn short(text: &str) -> String {
    let cut: String = text.chars().take(120).collect();
    if cut.len() < text.len() { format!("reply: {cut}…") } else { format!("reply: {cut}") }
}

#[cfg(test)]
mod tests {
    use vibe_wire::{StopReason, TokenUsage};

    use super::*;

    fn env(event: Event) -> Envelope {
        Envelope { run_id: "r".into(), seq: 0, ts: String::new(), event }
    }

    #[test]
    fn checks_follow_the_events() {
        let events = vec![
            env(Event::RoundStarted { round: 1 }),
            env(Event::ToolCall {
                id: "1".into(),
                name: "use_skill".into(),
                arguments: Value::Null,
            }),
            env(Event::ToolCall {
                id: "2".into(),
                name: "load_resource".into(),
                arguments: Value::Null,
            }),
            env(Event::ToolResult {
                id: "2".into(),
                name: "load_resource".into(),
                result: Value::Null,
                is_error: true,
                file: None,
            }),
            env(Event::RoundStarted { round: 2 }),
            env(Event::AssistantDelta { text: "你好，".into() }),
            env(Event::AssistantDelta { text: "我们开始吧".into() }),
            env(Event::RunFinished {
                stop_reason: StopReason::Completed,
                usage: TokenUsage::default(),
                rounds: 2,
                tool_calls: 2,
            }),
        ];
        let expect = Expect {
            tool_calls: Some(vec!["use_skill".into(), "load_resource".into()]),
            order: Some(vec![
                ["use_skill".into(), "load_resource".into()],
                ["load_resource".into(), "use_skill".into()],
            ]),
            stop_reason: Some("completed".into()),
            reply_contains: Some(vec!["开始".into()]),
            reply_not_contains: Some(vec!["保证".into()]),
            max_rounds: Some(1),
            max_guardrail_hits: Some(0),
            ..Expect::default()
        };
        let (_, checks) = score_turn(&expect, &events, None, &Value::Null);
        let verdicts: Vec<(String, bool)> =
            checks.into_iter().map(|c| (c.name, c.passed)).collect();
        assert_eq!(
            verdicts,
            vec![
                ("tool_calls".into(), true),
                ("order use_skill < load_resource".into(), true),
                ("order load_resource < use_skill".into(), false),
                ("stop_reason".into(), true),
                ("reply contains \"开始\"".into(), true),
                ("reply avoids \"保证\"".into(), true),
                ("max_rounds".into(), false),
                ("max_guardrail_hits".into(), false),
            ]
        );
    }
}
