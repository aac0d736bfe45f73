//! The printer's exact output for a run: reply on stdout, status lines on stderr, JSON lines
//! with `--json`. `tests/all/runs.rs` checks `vibe runs replay` prints these same texts.

use std::io::Write;
use std::sync::{Arc, Mutex};

use serde_json::json;
use vibe_wire::{Envelope, Event, StopReason, TokenUsage};

use super::EventPrinter;

#[derive(Clone, Default)]
struct Buf(Arc<Mutex<Vec<u8>>>);

impl Write for Buf {
    fn write(&mut self, data: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(data);
        Ok(data.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Buf {
    fn text(&self) -> String {
        String::from_utf8(self.0.lock().unwrap().clone()).unwrap()
    }
}

fn print_all(json: bool, reasoning: bool, events: Vec<Event>) -> (String, String) {
    let (out, err) = (Buf::default(), Buf::default());
    let mut printer =
        EventPrinter::with_writers(json, false, Box::new(out.clone()), Box::new(err.clone()))
            .show_reasoning(reasoning);
    for (seq, event) in events.into_iter().enumerate() {
        printer.print(&Envelope {
            run_id: "r1".into(),
            seq: seq as u64,
            ts: "2026-01-01T00:00:00Z".into(),
            event,
        });
    }
    printer.finish();
    (out.text(), err.text())
}

fn finished(stop_reason: StopReason, rounds: u32, tool_calls: u32) -> Event {
    Event::RunFinished { stop_reason, usage: TokenUsage::default(), rounds, tool_calls }
}

fn a_run() -> Vec<Event> {
    let big = json!({"truncated": true});
    vibe_test_support::sample_run(
        "c1",
        TokenUsage::default(),
        big,
        Some("tool-1-run_script.json".into()),
    )
}

#[test]
fn text_mode_streams_the_reply_to_stdout_and_status_to_stderr() {
    let (out, err) = print_all(false, false, a_run());
    assert_eq!(out, "Let me look.\n你的日主是甲木。\n");
    assert_eq!(
        err,
        "→ use_skill {\"skill\":\"bazi\"}\n\
         ← use_skill ok\n\
         ✨ skill activated: bazi\n\
         plan: Read the chart\n  [x] compute\n  [>] explain\n  [ ] advise\n\
         → read_state\n\
         ✗ read_state failed: no such section \"x\"\n\
         ← run_script ok (large output saved as tool-1-run_script.json)\n\
         ? approval needed: run_script {\"script\":\"x.py\"} — runs a script\n\
         ✗ denied by policy\n\
         … folded 12 older messages into a summary (300 tokens; digest: model summaries are off)\n\
         error [budget]: max_rounds reached\n\
         stopped: max_rounds after 10 rounds, 1 tool call\n"
    );
}

#[test]
fn reasoning_is_shown_only_when_asked_and_never_on_stdout() {
    let events = vec![
        Event::ReasoningDelta { text: "step one, ".into() },
        Event::ReasoningDelta { text: "step two".into() },
        Event::AssistantDelta { text: "Answer".into() },
        finished(StopReason::Completed, 1, 0),
    ];
    let (out, err) = print_all(false, true, events.clone());
    assert_eq!((out.as_str(), err.as_str()), ("Answer\n", "step one, step two\n"));
    let (out, err) = print_all(false, false, events);
    assert_eq!((out.as_str(), err.as_str()), ("Answer\n", ""));
}

#[test]
fn a_completed_run_ends_the_reply_line_without_a_summary() {
    let (out, err) = print_all(
        false,
        false,
        vec![
            Event::AssistantDelta { text: "done\n".into() },
            finished(StopReason::Completed, 1, 0),
        ],
    );
    assert_eq!((out.as_str(), err.as_str()), ("done\n", ""));
}

#[test]
fn json_mode_prints_every_event_as_one_line_and_nothing_else() {
    let events = a_run();
    let (out, err) = print_all(true, false, events.clone());
    assert_eq!(err, "");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), events.len());
    for (i, (line, event)) in lines.iter().zip(events).enumerate() {
        let env: Envelope = serde_json::from_str(line).unwrap();
        assert_eq!((env.seq, env.event), (i as u64, event));
    }
}

#[test]
fn long_arguments_and_error_texts_are_cut_to_one_short_line() {
    let long = "x".repeat(500);
    let (_, err) = print_all(
        false,
        false,
        vec![
            Event::ToolCall {
                id: "t".into(),
                name: "write_state".into(),
                arguments: json!({"data": long}),
            },
            Event::ToolResult {
                id: "t".into(),
                name: "write_state".into(),
                result: json!(format!("bad\n{long}")),
                is_error: true,
                file: None,
            },
        ],
    );
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(lines.len(), 2);
    assert!(lines.iter().all(|l| l.ends_with('…') && l.chars().count() < 150), "{lines:?}");
    assert!(lines[1].starts_with("✗ write_state failed: bad x"), "{}", lines[1]);
}

#[test]
fn a_model_written_summary_shows_what_it_cost() {
    let usage = TokenUsage { prompt_tokens: 900, completion_tokens: 30, total_tokens: 930 };
    let events = vec![Event::Compacted {
        folded_messages: 1,
        summary_tokens: 40,
        summary_by: Some(vibe_wire::SummaryBy::Model),
        fallback_reason: None,
        usage: Some(usage),
    }];
    let (_, err) = print_all(false, false, events);
    assert_eq!(
        err,
        "… folded 1 older message into a summary (40 tokens; written by the model for 930 tokens)\n"
    );
}

#[test]
fn a_state_change_is_one_line_naming_the_skill_or_the_profile() {
    let events = vec![
        Event::StateChanged {
            skill: Some("life_coach".into()),
            paths: vec!["goals".into(), "journal".into()],
        },
        Event::StateChanged { skill: None, paths: vec!["birth_info".into()] },
    ];
    let (out, err) = print_all(false, false, events);
    assert_eq!(out, "");
    assert_eq!(err, "✎ saved life_coach: goals, journal\n✎ saved profile: birth_info\n");
}

#[test]
fn text_mode_drops_what_a_terminal_would_act_on_and_json_mode_keeps_it_escaped() {
    let events = || {
        vec![
            Event::ReasoningDelta { text: "think\x1b]0;pwned\x07".into() },
            // An escape sequence split across two deltas.
            Event::AssistantDelta { text: "hi\x1b".into() },
            Event::AssistantDelta { text: "[2J there\u{202E}\n".into() },
            Event::ToolCall {
                id: "t1".into(),
                name: "run_script\x1b[31m".into(),
                arguments: json!({"script": "a\x1b[1Ab.sh"}),
            },
            finished(StopReason::Completed, 1, 1),
        ]
    };
    let (out, err) = print_all(false, true, events());
    assert_eq!(out, "hi[2J there\n");
    assert!(!err.contains('\x1b') && !err.contains('\x07'), "{err:?}");
    assert!(err.contains("think]0;pwned") && err.contains("run_script[31m"), "{err}");
    let (json_out, _) = print_all(true, true, events());
    assert!(json_out.contains(r"hi\u001b"), "{json_out}");
}

#[test]
fn a_model_error_gets_the_cli_s_own_advice_by_its_kind() {
    let error = |kind| Event::Error {
        error: vibe_wire::ErrorInfo::new(kind, "connection refused at http://127.0.0.1:1/v1"),
    };
    let (_, err) = print_all(false, false, vec![error(vibe_wire::ErrorKind::Network)]);
    assert!(err.contains("error [network]: connection refused"), "{err}");
    assert!(err.contains("--base-url / VIBE_LLM_BASE_URL"), "{err}");
    let (_, err) = print_all(false, false, vec![error(vibe_wire::ErrorKind::Auth)]);
    assert!(err.contains("VIBE_LLM_API_KEY"), "{err}");
    let (_, err) = print_all(false, false, vec![error(vibe_wire::ErrorKind::Budget)]);
    assert!(!err.contains("VIBE_"), "{err}");
}
