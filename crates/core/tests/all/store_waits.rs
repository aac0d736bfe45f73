//! The chat service waits for the database's write lock off the async worker: on a one-thread
//! runtime, another task still runs while a turn waits for a lock another connection holds
//! (the desktop shell's event loop shares the runtime with the turns) — at the run's start and
//! in the loop's own writes.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, mpsc};
use std::time::Duration;

use futures::StreamExt as _;
use futures::future::BoxFuture;
use vibe_llm::{ChatModel, ChatRequest, Delta, DeltaStream, LlmError, ScriptedModel};
use vibe_store::Role;

use super::harness::{Harness, Options, say};

const REPLY: &str = r#"
mode: matched
responses:
  - text: "你好，我在。"
"#;

#[test]
fn a_turn_waiting_for_the_write_lock_lets_another_task_run() {
    let h = Arc::new(Harness::scripted(REPLY));
    let dir = h.dir.path().to_path_buf();
    let (locked_tx, locked_rx) = mpsc::channel::<()>();
    let (ran_tx, ran_rx) = mpsc::channel::<()>();
    // Another connection takes the write lock and keeps it until the other task has run
    // (giving up, well after the store's 15 s busy timeout, if it never does).
    let holder = std::thread::spawn(move || {
        let conn = super::harness::raw_connection(&dir);
        conn.execute_batch("BEGIN IMMEDIATE").unwrap();
        locked_tx.send(()).unwrap();
        let other_ran = ran_rx.recv_timeout(Duration::from_secs(40)).is_ok();
        conn.execute_batch("COMMIT").unwrap();
        other_ran
    });
    locked_rx.recv().unwrap();

    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    let local = tokio::task::LocalSet::new();
    let result = local.block_on(&rt, async {
        let turn_harness = Arc::clone(&h);
        // The turn runs first and reaches its first write while the lock is held.
        let turn = tokio::task::spawn_local(async move { turn_harness.turn(say("你好")).await });
        tokio::task::yield_now().await;
        // This only runs if the turn's wait left the one worker thread free.
        ran_tx.send(()).unwrap();
        turn.await
    });
    let turn = result.unwrap_or_else(|e| panic!("the turn failed while the lock was held: {e}"));
    assert!(holder.join().unwrap(), "the other task never ran while the turn waited");
    assert_eq!(turn.result.text, "你好，我在。");
}

const TOOL_THEN_TEXT: &str = r#"
mode: matched
responses:
  - when: {tool_result: "activated"}
    text: "好，我们开始。"
  - tool_calls: [{name: use_skill, arguments: {skill: lifecoach}}]
"#;

/// A scripted model that runs `at_end` when its first answer has been streamed whole: the
/// loop's next step is to store that answer.
struct Gated {
    inner: ScriptedModel,
    calls: AtomicUsize,
    at_end: Arc<dyn Fn() + Send + Sync>,
}

impl ChatModel for Gated {
    fn stream(&self, request: ChatRequest) -> DeltaStream {
        let inner = self.inner.stream(request);
        if self.calls.fetch_add(1, Ordering::SeqCst) > 0 {
            return inner;
        }
        let at_end = Arc::clone(&self.at_end);
        let end = futures::stream::once(async move { at_end() })
            .filter_map(|()| async { None::<Result<Delta, LlmError>> });
        Box::pin(inner.chain(end))
    }
    fn list_models(&self) -> BoxFuture<'_, Result<Vec<vibe_llm::ModelInfo>, LlmError>> {
        self.inner.list_models()
    }
    fn model_name(&self) -> &str {
        self.inner.model_name()
    }
}

/// The lock is taken the moment the model's answer (a tool call) is complete, so the loop's
/// next write waits for it (the `use_skill` call's, then the answer with its result); the other
/// task of the one-thread runtime must still run (it lets the lock go), and the answer, its
/// tool result and the reply are all stored, the call done once.
#[test]
fn the_loop_waiting_to_store_an_answer_lets_another_task_run() {
    let (take_tx, take_rx) = mpsc::channel::<()>();
    let (locked_tx, locked_rx) = mpsc::channel::<()>();
    let (ran_tx, ran_rx) = mpsc::channel::<()>();
    let locked = Arc::new(AtomicBool::new(false));
    let at_end: Arc<dyn Fn() + Send + Sync> = {
        let (take_tx, locked) = (std::sync::Mutex::new(take_tx), Arc::clone(&locked));
        let locked_rx = std::sync::Mutex::new(locked_rx);
        Arc::new(move || {
            take_tx.lock().unwrap().send(()).unwrap();
            // The holder is another OS thread: this wait needs nothing from the runtime.
            // (Bounded: a holder that failed must fail the test, not hang it.)
            locked_rx.lock().unwrap().recv_timeout(Duration::from_secs(60)).unwrap();
            locked.store(true, Ordering::SeqCst);
        })
    };
    let model = Gated {
        inner: ScriptedModel::from_yaml(TOOL_THEN_TEXT, "gated").unwrap(),
        calls: AtomicUsize::new(0),
        at_end,
    };
    let h = Arc::new(Harness::new(Arc::new(model), Options::default()));
    let dir = h.dir.path().to_path_buf();
    let holder = std::thread::spawn(move || {
        take_rx.recv().unwrap();
        let conn = super::harness::raw_connection(&dir);
        conn.execute_batch("BEGIN IMMEDIATE").unwrap();
        locked_tx.send(()).unwrap();
        let other_ran = ran_rx.recv_timeout(Duration::from_secs(40)).is_ok();
        conn.execute_batch("COMMIT").unwrap();
        other_ran
    });

    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    let local = tokio::task::LocalSet::new();
    let result = local.block_on(&rt, async {
        let turn_harness = Arc::clone(&h);
        let turn = tokio::task::spawn_local(async move { turn_harness.turn(say("开始吧")).await });
        // Runs only when the turn's wait for the lock leaves the one worker thread free.
        while !locked.load(Ordering::SeqCst) {
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
        ran_tx.send(()).unwrap();
        turn.await
    });
    let turn = result.unwrap_or_else(|e| panic!("the turn failed while the lock was held: {e}"));
    assert!(holder.join().unwrap(), "the other task never ran while the loop waited");
    assert_eq!(turn.result.text, "好，我们开始。");
    let stored = h.store.messages(&turn.result.conversation_id).unwrap();
    let roles: Vec<_> = stored.iter().map(|m| m.role).collect();
    assert_eq!(roles, [Role::User, Role::Assistant, Role::Tool, Role::Assistant]);
    assert!(stored[1].tool_calls.is_some() && !stored[1].interrupted);
}
