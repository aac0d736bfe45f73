//! What the audit costs a chat turn: appending one turn's events to events.jsonl (one write
//! per event, as the agent loop does), externalizing a large tool output, reading a run back.

use criterion::{Criterion, criterion_group, criterion_main};
use serde_json::json;
use vibe_runlog::{self as audit, RunAudit};
use vibe_wire::{Envelope, Event, Phase, SectionTokens, StopReason, TokenUsage};

/// One turn as the bench in issue 5 shapes it: a write_state call, then a ~200-character
/// answer streamed in 50 deltas.
fn turn_events() -> Vec<Event> {
    let mut events = vec![
        Event::RunStarted {
            conversation_id: "c".into(),
            phase: Phase::Phase2,
            skill: Some("lifecoach".into()),
            user_message: "今天感觉怎么样".into(),
            model: "scripted".into(),
        },
        Event::RoundStarted { round: 1 },
        Event::ModelRequest {
            round: 1,
            phase: Phase::Phase2,
            prompt_tokens: 3000,
            sections: vec![SectionTokens { name: "persona".into(), tokens: 900 }; 8],
            tools: vec!["read_state".into(), "write_state".into(), "update_plan".into()],
            history_messages: 10,
            notices: vec![],
            token_factor: Some(1.2),
            corrected_tokens: Some(3600),
            budget: None,
        },
        Event::ToolCall {
            id: "t1".into(),
            name: "write_state".into(),
            arguments: json!({"section": "mood", "data": {"score": 7}}),
        },
        Event::ToolResult {
            id: "t1".into(),
            name: "write_state".into(),
            result: json!({"status": "ok"}),
            is_error: false,
            file: None,
        },
        Event::Usage {
            usage: TokenUsage { prompt_tokens: 3000, completion_tokens: 20, total_tokens: 3020 },
        },
        Event::RoundStarted { round: 2 },
    ];
    events.extend((0..50).map(|_| Event::AssistantDelta { text: "今天不错".into() }));
    events.push(Event::RunFinished {
        stop_reason: StopReason::Completed,
        usage: TokenUsage::default(),
        rounds: 2,
        tool_calls: 1,
    });
    events
}

fn envelopes() -> Vec<Envelope> {
    turn_events()
        .into_iter()
        .enumerate()
        .map(|(i, event)| Envelope {
            run_id: "bench".into(),
            seq: i as u64,
            ts: "2026-01-01T00:00:00.000Z".into(),
            event,
        })
        .collect()
}

fn bench(c: &mut Criterion) {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let audit = RunAudit::create(dir.path(), "bench").unwrap_or_else(|e| panic!("{e}"));
    let turn = envelopes();
    c.bench_function("audit: one turn (58 events) appended", |b| {
        b.iter(|| turn.iter().for_each(|e| audit.write(e)))
    });
    // turn[1] is `turn_started` (written at once); turn[10] a delta (written with the next
    // line when it follows within 50 ms).
    c.bench_function("audit: one event appended", |b| b.iter(|| audit.write(&turn[1])));
    c.bench_function("audit: one streamed delta appended", |b| b.iter(|| audit.write(&turn[10])));
    let big = json!({"stdout": "x".repeat(64 * 1024)});
    c.bench_function("audit: externalize a 64 KiB output", |b| {
        b.iter(|| audit.externalize("run_script", &big))
    });
    let small = json!({"status": "ok", "data": {"score": 7}});
    c.bench_function("audit: externalize check, small output", |b| {
        b.iter(|| audit.externalize("read_state", &small))
    });

    let read_dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let run = RunAudit::create(read_dir.path(), "r").unwrap_or_else(|e| panic!("{e}"));
    turn.iter().for_each(|e| run.write(e));
    c.bench_function("audit: read back one turn's events", |b| {
        b.iter(|| audit::read_events(read_dir.path(), "r").map(|log| log.events.len()))
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
