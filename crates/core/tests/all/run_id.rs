//! The run's id is minted by the caller (issue 29 §3): `send_message` makes it and registers the
//! run under it before the turn starts, so a turn can be stopped before any event names it —
//! here while it waits for the database's write lock, before its conversation or run is even
//! stored.

use std::sync::Arc;

use tokio_util::sync::CancellationToken;
use vibe_agent::agent::ApprovalPolicy;
use vibe_test_support::on_one_thread;
use vibe_wire::command::{CancelRunRequest, SendMessageRequest};

use super::harness::hello_with_write_lock;

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
