use serde_json::json;
use vibe_store::{NewMessage, Role, Store};
use vibe_wire::{RunStatus, StopReason};

#[test]
fn runs_are_recorded_and_listed_newest_first() {
    let store = Store::open_in_memory().unwrap();
    let conv = store.create_conversation("local", Some("t")).unwrap().id;
    store.create_run("r1", Some(&conv)).unwrap();
    store.create_run("r2", Some(&conv)).unwrap();
    store
        .finish_run("r1", RunStatus::Completed, StopReason::Completed, &json!({"total_tokens": 5}))
        .unwrap();
    let r1 = store.run("r1").unwrap().unwrap();
    assert_eq!((r1.status, r1.stop_reason), (RunStatus::Completed, Some(StopReason::Completed)));
    assert_eq!(r1.usage.unwrap()["total_tokens"], 5);
    let listed: Vec<String> =
        store.list_runs(Some(&conv), 10).unwrap().into_iter().map(|r| r.id).collect();
    assert_eq!(listed.len(), 2);
    let err = store.finish_run("r2", RunStatus::Running, StopReason::Completed, &json!({}));
    assert!(err.unwrap_err().to_string().contains("cannot be closed as `running`"));
}

#[test]
fn a_killed_run_is_closed_with_a_valid_history() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(&dir.path().join("vibe.db")).unwrap();
    let conv = store.create_conversation("local", None).unwrap().id;
    store.create_run("r1", Some(&conv)).unwrap();
    let with_run = |m: NewMessage| NewMessage { run_id: Some("r1".into()), ..m };
    store.append_message(&conv, with_run(NewMessage::text(Role::User, "hi"))).unwrap();
    let calls = json!([{"id": "c1", "type": "function", "function": {"name": "read_state", "arguments": "{}"}},
                       {"id": "c2", "type": "function", "function": {"name": "write_state", "arguments": "{}"}}]);
    store
        .append_message(
            &conv,
            with_run(NewMessage {
                tool_calls: Some(calls),
                ..NewMessage::text(Role::Assistant, "")
            }),
        )
        .unwrap();
    store
        .append_message(
            &conv,
            with_run(NewMessage {
                tool_call_id: Some("c1".into()),
                ..NewMessage::text(Role::Tool, "{}")
            }),
        )
        .unwrap();
    let draft = store
        .append_message(
            &conv,
            with_run(NewMessage {
                interrupted: true, ..NewMessage::text(Role::Assistant, "部分")
            }),
        )
        .unwrap();
    drop(store);

    let store = Store::open(&dir.path().join("vibe.db")).unwrap();
    assert!(
        store.close_interrupted_runs(&|_| false).unwrap().runs_closed.is_empty(),
        "live runs are left alone"
    );
    let recovery = store.close_interrupted_runs(&|_| true).unwrap();
    assert_eq!(recovery.runs_closed, vec!["r1".to_string()]);
    assert_eq!(recovery.tool_calls_closed, 1);
    let run = store.run("r1").unwrap().unwrap();
    assert_eq!((run.status, run.stop_reason), (RunStatus::Failed, Some(StopReason::Interrupted)));
    let messages = store.messages(&conv).unwrap();
    let closing = messages.iter().find(|m| m.tool_call_id.as_deref() == Some("c2")).unwrap();
    assert!(closing.interrupted && closing.content.contains("interrupted"));
    let kept = messages.iter().find(|m| m.id == draft.id).unwrap();
    assert!(kept.interrupted && kept.content == "部分");
    // Nothing left to repair the second time.
    assert!(store.close_interrupted_runs(&|_| true).unwrap().runs_closed.is_empty());
}

#[test]
fn a_draft_answer_is_completed_in_place() {
    let store = Store::open_in_memory().unwrap();
    let conv = store.create_conversation("local", None).unwrap().id;
    let draft = store
        .append_message(
            &conv,
            NewMessage { interrupted: true, ..NewMessage::text(Role::Assistant, "写") },
        )
        .unwrap();
    store.update_message(draft.id, "写完了", None, 3, false).unwrap();
    let msg = &store.messages(&conv).unwrap()[0];
    assert_eq!((msg.content.as_str(), msg.interrupted, msg.token_count), ("写完了", false, 3));
    assert!(store.update_message(999, "x", None, 0, false).is_err());
}

#[test]
fn conversation_summary_is_stored() {
    let store = Store::open_in_memory().unwrap();
    let conv = store.create_conversation("local", None).unwrap().id;
    store.set_conversation_summary(&conv, "早前：用户想换工作", 42).unwrap();
    let c = store.conversation(&conv).unwrap();
    assert_eq!(
        (c.summary.as_deref(), c.summary_through_id),
        (Some("早前：用户想换工作"), Some(42))
    );
}

#[test]
fn a_run_starts_with_its_user_message_in_one_transaction() {
    let store = Store::open_in_memory().unwrap();
    let conv = store.create_conversation("local", None).unwrap().id;
    let stored = store
        .start_run("r1", &conv, Some(NewMessage::text(Role::User, "今天好累")))
        .unwrap()
        .unwrap();
    assert_eq!((stored.run_id.as_deref(), stored.content.as_str()), (Some("r1"), "今天好累"));
    assert_eq!(store.run("r1").unwrap().unwrap().status, RunStatus::Running);
    assert_eq!(store.messages(&conv).unwrap(), vec![stored]);

    // A retry starts a run without a new message.
    assert_eq!(store.start_run("r2", &conv, None).unwrap(), None);
    assert_eq!(store.messages(&conv).unwrap().len(), 1);

    // Nothing is written when any part is refused.
    let err = store.start_run("r3", "nope", Some(NewMessage::text(Role::User, "x"))).unwrap_err();
    assert!(err.to_string().contains("no conversation"), "{err}");
    let err =
        store.start_run("r1", &conv, Some(NewMessage::text(Role::User, "again"))).unwrap_err();
    assert!(err.to_string().contains("UNIQUE"), "a run id is used once: {err}");
    let err = store.start_run("r4", &conv, Some(NewMessage::text(Role::Tool, "{}"))).unwrap_err();
    assert!(err.to_string().contains("tool_call_id"), "{err}");
    assert!(store.run("r3").unwrap().is_none() && store.run("r4").unwrap().is_none());
    assert_eq!(store.messages(&conv).unwrap().len(), 1);
}

#[test]
fn the_person_speaking_moves_a_conversation_up_and_a_runs_replies_do_not() {
    let store = Store::open_in_memory().unwrap();
    let older = store.create_conversation("local", Some("older")).unwrap().id;
    std::thread::sleep(std::time::Duration::from_millis(5));
    let newer = store.create_conversation("local", Some("newer")).unwrap().id;
    let order = |s: &Store| -> Vec<String> {
        s.list_conversations("local").unwrap().into_iter().map(|c| c.id).collect()
    };
    assert_eq!(order(&store), vec![newer.clone(), older.clone()]);

    std::thread::sleep(std::time::Duration::from_millis(5));
    store.start_run("r1", &older, Some(NewMessage::text(Role::User, "hi"))).unwrap();
    assert_eq!(order(&store), vec![older.clone(), newer.clone()]);
    let touched = store.conversation(&older).unwrap().updated_at;

    std::thread::sleep(std::time::Duration::from_millis(5));
    let reply =
        NewMessage { run_id: Some("r1".into()), ..NewMessage::text(Role::Assistant, "嗯") };
    store.append_message(&older, reply).unwrap();
    store.set_conversation_summary(&older, "早前", 1).unwrap();
    assert_eq!(store.conversation(&older).unwrap().updated_at, touched);

    // A message outside any run (an import) counts as activity.
    std::thread::sleep(std::time::Duration::from_millis(5));
    store.append_message(&newer, NewMessage::text(Role::Assistant, "imported")).unwrap();
    assert_eq!(order(&store), vec![newer.clone(), older.clone()]);

    let orphan = NewMessage { run_id: Some("nope".into()), ..NewMessage::text(Role::Tool, "{}") };
    let orphan = NewMessage { tool_call_id: Some("c1".into()), ..orphan };
    let err = store.append_message(&newer, orphan).unwrap_err();
    assert!(err.to_string().contains("no run with id \"nope\""), "{err}");
}

#[test]
fn a_run_closes_with_its_last_answer_in_one_commit() {
    let store = Store::open_in_memory().unwrap();
    let conv = store.create_conversation("local", None).unwrap().id;
    store.start_run("r1", &conv, Some(NewMessage::text(Role::User, "hi"))).unwrap();
    let answer = |text: &str| NewMessage {
        run_id: Some("r1".into()),
        token_count: 3,
        ..NewMessage::text(Role::Assistant, text)
    };
    let id = store
        .finish_run_with(
            "r1",
            RunStatus::Completed,
            StopReason::Completed,
            &json!({}),
            Some(vibe_store::RunAnswer { draft_id: None, message: answer("你好") }),
        )
        .unwrap()
        .unwrap();
    let last = store.messages(&conv).unwrap().pop().unwrap();
    assert_eq!((last.id, last.content.as_str(), last.token_count), (id, "你好", 3));
    assert_eq!(store.run("r1").unwrap().unwrap().status, RunStatus::Completed);

    // A draft written while the answer streamed is completed in place.
    store.start_run("r2", &conv, Some(NewMessage::text(Role::User, "再说说"))).unwrap();
    let draft = NewMessage {
        interrupted: true,
        run_id: Some("r2".into()),
        ..NewMessage::text(Role::Assistant, "半")
    };
    let draft = store.append_message(&conv, draft).unwrap();
    let full = NewMessage { run_id: Some("r2".into()), ..answer("半句话说完了") };
    let done = vibe_store::RunAnswer { draft_id: Some(draft.id), message: full };
    store
        .finish_run_with("r2", RunStatus::Completed, StopReason::Completed, &json!({}), Some(done))
        .unwrap();
    let last = store.messages(&conv).unwrap().pop().unwrap();
    assert_eq!(
        (last.id, last.content.as_str(), last.interrupted),
        (draft.id, "半句话说完了", false)
    );

    // A bad draft id changes nothing: the run stays open.
    store.start_run("r3", &conv, Some(NewMessage::text(Role::User, "x"))).unwrap();
    let bad = vibe_store::RunAnswer { draft_id: Some(9_999), message: answer("y") };
    let err = store.finish_run_with(
        "r3",
        RunStatus::Completed,
        StopReason::Completed,
        &json!({}),
        Some(bad),
    );
    assert!(err.unwrap_err().to_string().contains("no message with id 9999"));
    assert_eq!(store.run("r3").unwrap().unwrap().status, RunStatus::Running);
}

/// Recovery at every start takes no write lock when nothing was left running: another
/// process holding the lock (the desktop app mid-write) does not make a start wait or fail.
#[test]
fn recovery_with_nothing_running_does_not_wait_for_another_writer() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("vibe.db");
    let store = Store::open(&path).unwrap();
    let conv = store.create_conversation("local", Some("t")).unwrap().id;
    store.create_run("done", Some(&conv)).unwrap();
    store.finish_run("done", RunStatus::Completed, StopReason::Completed, &json!({})).unwrap();
    // Held until recovery returned (or well past the store's 15 s busy timeout).
    let lock =
        vibe_test_support::WriteLock::take(move || rusqlite::Connection::open(&path).unwrap());
    let recovery = store.close_interrupted_runs(&|_| true);
    lock.release();
    assert!(recovery.unwrap().runs_closed.is_empty());
    assert_eq!(store.run("done").unwrap().unwrap().status, RunStatus::Completed);
}
