//! A reply that cannot be saved (the disk is full) is said to be unsaved, the run ends failed
//! with the storage error, and recovery never takes such a run for a crash.

use std::sync::Arc;

use vibe_agent::agent::ApprovalPolicy;
use vibe_agent::chat::recover_runs;
use vibe_store::{LOCAL_USER, Role};
use vibe_wire::Event;

use crate::harness::{Harness, say};

#[tokio::test]
async fn a_reply_the_full_disk_cannot_hold_is_said_to_be_unsaved_and_the_run_fails() {
    let long = "今天的计划：晨跑、写作、早睡。".repeat(8_000);
    let script = format!("mode: matched\nresponses:\n  - text: \"{long}\"\n");
    let h = Harness::scripted(&script);
    // Room for the person's message and the run, not for a 200 KB reply.
    h.store.cap_growth(16).unwrap();
    let turn = {
        let sink = Arc::new(vibe_runlog::emit::CollectSink::default());
        let sinks: Vec<Arc<dyn vibe_runlog::emit::EventSink>> = vec![sink.clone()];
        let result = h
            .service
            .run_turn(
                say("帮我规划今天"),
                sinks,
                Arc::new(ApprovalPolicy::DenyAll),
                Default::default(),
            )
            .await;
        (result, sink.events())
    };
    let (result, events) = turn;
    let err = result.expect_err("the turn fails");
    assert_eq!(err.kind().as_str(), "storage", "{err}");
    let unsaved = events.iter().find_map(|e| match &e.event {
        Event::ReplyUnsaved { message } => Some(message.clone()),
        _ => None,
    });
    let unsaved = unsaved.unwrap_or_else(|| {
        panic!(
            "no reply_unsaved event: {err}; {:?}",
            events
                .iter()
                .map(|e| serde_json::to_value(&e.event).unwrap()["type"].clone())
                .collect::<Vec<_>>()
        )
    });
    assert!(
        unsaved.contains("could not be saved") && unsaved.contains("the disk is full"),
        "{unsaved}"
    );
    let types: Vec<String> = events
        .iter()
        .map(|e| serde_json::to_value(&e.event).unwrap()["type"].as_str().unwrap().to_string())
        .collect();
    let at =
        |t: &str| types.iter().position(|x| x == t).unwrap_or_else(|| panic!("{t} in {types:?}"));
    assert!(at("reply_unsaved") < at("error") && at("error") < at("run_finished"), "{types:?}");

    // The person's message is kept; no assistant reply was stored for it.
    let conversations = h.store.list_conversations(LOCAL_USER).unwrap();
    for c in &conversations {
        let messages = h.store.messages(&c.id).unwrap();
        assert!(messages.iter().any(|m| m.role == Role::User));
        assert!(messages.iter().all(|m| m.role != Role::Assistant), "{messages:?}");
    }

    // Recovery later (space freed) does not call these runs interrupted.
    let recovered = recover_runs(&h.store, Some(h.dir.path())).unwrap();
    let runs = h.store.list_runs(None, 10).unwrap();
    assert!(!runs.is_empty());
    for run in &runs {
        let reason = run.stop_reason.map(|r| r.as_str().to_string());
        assert_eq!(reason.as_deref(), Some("failed"), "{run:?} ({recovered:?})");
    }
}

#[test]
fn recovery_closes_a_run_whose_reply_was_unsaved_as_failed_and_a_killed_one_as_interrupted() {
    let dir = tempfile::tempdir().unwrap();
    let store = vibe_store::Store::open(&dir.path().join("vibe.db")).unwrap();
    let conv = store.create_conversation(LOCAL_USER, None).unwrap().id;
    for (run, unsaved) in [("r-unsaved", true), ("r-killed", false)] {
        store.create_run(run, Some(&conv)).unwrap();
        // A run folder whose process is gone: its events file is not locked by anyone.
        let run_dir = dir.path().join("runs").join(run);
        std::fs::create_dir_all(&run_dir).unwrap();
        std::fs::write(run_dir.join("events.jsonl"), b"").unwrap();
        if unsaved {
            std::fs::write(run_dir.join("unsaved"), b"cannot save: the disk is full").unwrap();
        }
    }
    let recovery = recover_runs(&store, Some(dir.path())).unwrap();
    assert_eq!(recovery.runs_closed.len(), 2, "{recovery:?}");
    let reason =
        |id: &str| store.run(id).unwrap().unwrap().stop_reason.unwrap().as_str().to_string();
    assert_eq!(reason("r-unsaved"), "failed", "not taken for a crash");
    assert_eq!(reason("r-killed"), "interrupted");
}
