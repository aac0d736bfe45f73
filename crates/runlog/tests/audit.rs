//! The run audit on a real folder: events written through an `Emitter` read back equal, a last
//! line cut by a kill is tolerated with a notice, large outputs go to a file the event names,
//! and IO failures are reported instead of panicking or stopping the run.

#![allow(clippy::unwrap_used)] // test helpers outside #[test] fns unwrap too

use std::io::Write;
use std::path::Path;
use std::sync::Arc;

use serde_json::{Value, json};
use vibe_runlog::RunLogError;
use vibe_runlog::emit::{CollectSink, Emitter};
use vibe_runlog::{self as audit, EXTERNALIZE_THRESHOLD, PREVIEW_CHARS, RunAudit};
use vibe_wire::{ErrorInfo, Event, Phase, Plan, PlanStep, StopReason, TokenUsage};

fn sample_run(emitter: &Emitter) {
    emitter.emit(Event::RunStarted {
        conversation_id: "c1".into(),
        phase: Phase::Phase1,
        skill: None,
        user_message: "我最近压力很大".into(),
        model: "scripted".into(),
    });
    emitter.emit(Event::RoundStarted { round: 1 });
    emitter.emit(Event::ToolCall {
        id: "t1".into(),
        name: "use_skill".into(),
        arguments: json!({"skill": "lifecoach"}),
    });
    emitter.emit(Event::ToolResult {
        id: "t1".into(),
        name: "use_skill".into(),
        result: json!({"status": "activated", "skill": "lifecoach"}),
        is_error: false,
        file: None,
    });
    emitter.emit(Event::SkillActivated { skill: "lifecoach".into(), scenario: None });
    emitter.emit(Event::PlanUpdated {
        plan: Plan {
            goal: "减压".into(),
            steps: vec![PlanStep {
                title: "聊聊来源".into(),
                status: vibe_wire::PlanStepStatus::InProgress,
            }],
        },
    });
    emitter.emit(Event::RoundStarted { round: 2 });
    emitter.emit(Event::AssistantDelta { text: "先深呼吸，".into() });
    emitter.emit(Event::AssistantDelta { text: "我们一起看看。".into() });
    emitter.emit(Event::Error { error: ErrorInfo::new(vibe_wire::ErrorKind::ToolFailed, "x") });
    emitter.emit(Event::RunFinished {
        stop_reason: StopReason::Completed,
        usage: TokenUsage { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
        rounds: 2,
        tool_calls: 1,
    });
}

fn write_sample(data_dir: &Path, run_id: &str) -> Vec<vibe_wire::Envelope> {
    let audit = Arc::new(RunAudit::create(data_dir, run_id).unwrap());
    let seen = Arc::new(CollectSink::default());
    sample_run(&Emitter::new(run_id, vec![audit.clone(), seen.clone()]));
    assert!(audit.error().is_none(), "{:?}", audit.error());
    seen.events()
}

#[test]
fn events_written_during_a_run_read_back_equal_and_in_order() {
    let dir = tempfile::tempdir().unwrap();
    let emitted = write_sample(dir.path(), "run-1");
    let log = audit::read_events(dir.path(), "run-1").unwrap();
    assert_eq!(log.events, emitted);
    assert_eq!(log.lines.len(), emitted.len());
    for (line, env) in log.lines.iter().zip(&emitted) {
        assert_eq!(
            serde_json::from_str::<Value>(line).unwrap(),
            serde_json::to_value(env).unwrap()
        );
    }
    assert!(log.is_finished() && log.is_intact() && log.notices().is_empty());
    let summary = log.summary();
    assert_eq!(summary.rounds, 2);
    assert_eq!(summary.tool_calls, 1);
    assert_eq!(summary.by_type["assistant_delta"], 2);
    assert_eq!(summary.stop_reason, Some(StopReason::Completed));
    assert_eq!(audit::list_runs_on_disk(dir.path()).unwrap(), vec!["run-1".to_string()]);
    // Each line is the envelope as JSON, `type` and all.
    let first: Value = serde_json::from_str(&log.lines[0]).unwrap();
    assert_eq!(
        (first["type"].as_str(), first["run_id"].as_str(), first["seq"].as_u64()),
        (Some("run_started"), Some("run-1"), Some(0))
    );
}

#[test]
fn a_last_line_cut_by_a_kill_is_a_notice_and_every_earlier_event_survives() {
    let dir = tempfile::tempdir().unwrap();
    let emitted = write_sample(dir.path(), "killed");
    let path = dir.path().join("runs/killed/events.jsonl");
    let mut f = std::fs::OpenOptions::new().append(true).open(&path).unwrap();
    let cut = r#"{"run_id":"killed","seq":11,"ts":"2026-01-01T00:00:00Z","type":"assistant_delta","text":"半句"#;
    f.write_all(cut.as_bytes()).unwrap();
    let log = audit::read_events(dir.path(), "killed").unwrap();
    assert_eq!(log.events, emitted);
    assert_eq!(log.truncated_line, Some(emitted.len() + 1));
    let notices = log.notices();
    assert_eq!(notices.len(), 1);
    assert!(notices[0].contains("events.jsonl:12: the last line is cut short"), "{notices:?}");
    assert!(notices[0].contains("the 11 events before it are intact"), "{notices:?}");
}

#[test]
fn a_damaged_line_in_the_middle_is_skipped_with_its_line_number() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("runs/r/events.jsonl");
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    let good = r#"{"run_id":"r","seq":0,"ts":"t","type":"turn_started","round":1}"#;
    let future = r#"{"run_id":"r","seq":1,"ts":"t","type":"from_the_future"}"#;
    // The last line has no newline but is whole: it counts.
    std::fs::write(&path, format!("{good}\nnot json\n{future}\n\n{good}")).unwrap();
    let log = audit::read_events(dir.path(), "r").unwrap();
    assert_eq!(log.events.len(), 2);
    assert_eq!(log.skipped.iter().map(|s| s.line).collect::<Vec<_>>(), vec![2, 3]);
    assert_eq!(log.truncated_line, None);
    assert!(!log.is_finished());
    assert!(log.notices()[0].contains("events.jsonl:2: skipped"), "{:?}", log.notices());
}

#[test]
fn a_large_tool_output_goes_to_a_file_the_event_references() {
    let dir = tempfile::tempdir().unwrap();
    let audit = RunAudit::create(dir.path(), "big").unwrap();
    let big = json!({"stdout": "月".repeat(EXTERNALIZE_THRESHOLD)});
    let (shown, file) = audit.externalize("run_script", &big);
    let file = file.unwrap();
    assert_eq!(file, "tool-1-run_script.json");
    let stored: Value =
        serde_json::from_slice(&std::fs::read(audit.dir().join(&file)).unwrap()).unwrap();
    assert_eq!(stored, big);
    assert_eq!(shown["truncated"], true);
    assert_eq!(shown["file"], file.as_str());
    assert_eq!(shown["preview"].as_str().unwrap().chars().count(), PREVIEW_CHARS);
    assert!(serde_json::to_string(&shown).unwrap().len() < EXTERNALIZE_THRESHOLD / 2);

    let small = json!({"ok": true});
    assert_eq!(audit.externalize("read_state", &small), (small.clone(), None));

    std::fs::write(audit.dir().join(".lock"), "").unwrap();
    let files: Vec<String> =
        audit::run_files(dir.path(), "big").unwrap().into_iter().map(|f| f.name).collect();
    assert_eq!(files, vec!["events.jsonl".to_string(), file]);
    let (_, second) = audit.externalize("run_script", &big);
    assert_eq!(second.as_deref(), Some("tool-2-run_script.json"));
}

#[test]
fn io_failures_during_a_run_are_remembered_and_the_run_goes_on() {
    let dir = tempfile::tempdir().unwrap();
    let audit = Arc::new(RunAudit::create(dir.path(), "gone").unwrap());
    // The run folder disappears and a file takes its place: large outputs cannot be written.
    std::fs::remove_dir_all(audit.dir()).unwrap();
    std::fs::write(audit.dir(), "not a folder").unwrap();
    let big = Value::String("x".repeat(EXTERNALIZE_THRESHOLD + 1));
    let (shown, file) = audit.externalize("load_resource", &big);
    assert_eq!((shown, file), (big, None), "the whole value is kept when it cannot be saved");
    let err = audit.error().unwrap();
    assert!(
        err.starts_with("cannot create ") && err.contains("tool-1-load_resource.json"),
        "{err}"
    );
    // Events still flow to the other sinks.
    let seen = Arc::new(CollectSink::default());
    sample_run(&Emitter::new("gone", vec![audit.clone(), seen.clone()]));
    assert_eq!(seen.events().len(), 11);
}

#[test]
fn reading_errors_name_the_path_and_the_fix() {
    let dir = tempfile::tempdir().unwrap();
    let err = audit::read_events(dir.path(), "nope").unwrap_err();
    assert!(matches!(err, RunLogError::RunNotFound { .. }));
    let msg = err.to_string();
    assert!(msg.contains("runs/nope/events.jsonl"), "{msg}");
    assert!(!msg.contains("vibe "), "a library error names no CLI command: {msg}");
    assert_eq!(err.kind().as_str(), "not_found");
    let err = audit::read_events(dir.path(), "../etc").unwrap_err();
    assert_eq!(err.kind().as_str(), "invalid_input");
    assert!(audit::list_runs_on_disk(dir.path()).unwrap().is_empty());

    // A data dir that is a file cannot hold runs.
    let file = dir.path().join("file");
    std::fs::write(&file, "").unwrap();
    let err = RunAudit::create(&file, "r").err().unwrap();
    assert!(
        err.to_string().starts_with(&format!("cannot create {}", file.join("runs/r").display())),
        "{err}"
    );
}
