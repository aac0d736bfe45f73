//! The run's id is minted by the caller (issue 29 §3): the front end (checked fresh) or
//! `send_message` makes it, and the run is registered under it before the turn starts, so a
//! turn can be stopped before any event names it — here while it waits for the database's
//! write lock, before its conversation or run is even stored.

use std::sync::Arc;

use tokio_util::sync::CancellationToken;
use vibe_agent::agent::ApprovalPolicy;
use vibe_test_support::on_one_thread;
use vibe_wire::command::{CancelRunRequest, SendMessageRequest};

use super::harness::{HELLO, Harness, hello_with_write_lock};

#[test]
fn a_turn_waiting_for_the_database_can_be_stopped_under_the_id_it_will_have() {
    let (h, lock) = hello_with_write_lock();
    let (listed, cancelled, released, reply) = on_one_thread(async {
        let sender = Arc::clone(&h);
        let send = tokio::task::spawn_local(async move {
            sender
                .app
                .send_message_with(
                    SendMessageRequest::say(None, "你好"),
                    Vec::new(),
                    Arc::new(ApprovalPolicy::DenyAll),
                    CancellationToken::new(),
                )
                .await
        });
        // The turn is waiting for the lock: its id is known all the same (without it, the
        // turn gives up on the lock and ends with nothing listed).
        let listed = loop {
            if let Some(id) = h.app.running().into_iter().next() {
                break Some(id);
            }
            if send.is_finished() {
                break None;
            }
            tokio::task::yield_now().await;
        };
        let cancelled = listed
            .as_ref()
            .is_some_and(|id| h.app.cancel_run(&CancelRunRequest { run_id: id.clone() }).cancelled);
        let released = lock.release();
        (listed, cancelled, released, send.await.unwrap())
    });
    let listed = listed.expect("the waiting turn was listed under its id");
    assert!(cancelled, "cancel_run found the waiting turn");
    assert!(released);
    let reply = reply.unwrap();
    assert_eq!(reply.run_id, listed, "the run has the id it was listed under");
    assert!(h.app.running().is_empty(), "forgotten once over");
}

/// A front end mints the id itself (the app's UI does, so Stop works from the first moment):
/// the run is registered, cancelled and recorded under exactly that id.
#[test]
fn a_caller_minted_id_is_the_runs_id_and_stops_it_before_any_event() {
    let (h, lock) = hello_with_write_lock();
    let minted = uuid::Uuid::now_v7().to_string();
    let (cancelled, released, reply) = on_one_thread(async {
        let sender = Arc::clone(&h);
        let mut request = SendMessageRequest::say(None, "你好");
        request.run_id = Some(minted.clone());
        let send = tokio::task::spawn_local(async move {
            sender
                .app
                .send_message_with(
                    request,
                    Vec::new(),
                    Arc::new(ApprovalPolicy::DenyAll),
                    CancellationToken::new(),
                )
                .await
        });
        while !h.app.running().contains(&minted) && !send.is_finished() {
            tokio::task::yield_now().await;
        }
        let cancelled = h.app.cancel_run(&CancelRunRequest { run_id: minted.clone() }).cancelled;
        let released = lock.release();
        (cancelled, released, send.await.unwrap())
    });
    assert!(cancelled, "cancel_run found the turn under the caller's id");
    assert!(released);
    assert_eq!(reply.unwrap().run_id, minted);
}

#[test]
fn a_caller_minted_id_that_is_not_a_uuid_or_was_used_before_is_refused_and_nothing_is_stored() {
    let h = Harness::scripted(HELLO);
    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    let send = |run_id: &str| {
        let mut request = SendMessageRequest::say(None, "你好");
        request.run_id = Some(run_id.to_string());
        rt.block_on(h.app.send_message_with(
            request,
            Vec::new(),
            Arc::new(ApprovalPolicy::DenyAll),
            CancellationToken::new(),
        ))
    };

    let err = send("../elsewhere").unwrap_err();
    assert!(err.to_string().contains("is not a UUID"), "{err}");
    assert!(h.app.list_conversations().unwrap().conversations.is_empty(), "nothing stored");

    let first = send(&uuid::Uuid::now_v7().to_string()).unwrap();
    let log = h.dir.path().join("runs").join(&first.run_id).join("events.jsonl");
    let before = std::fs::read(&log).unwrap();
    let err = send(&first.run_id).unwrap_err();
    assert!(err.to_string().contains("was used by an earlier run"), "{err}");
    assert_eq!(std::fs::read(&log).unwrap(), before, "the earlier run's log is untouched");
    assert_eq!(h.app.list_conversations().unwrap().conversations.len(), 1, "no new conversation");
}
