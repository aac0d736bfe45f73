//! The chat service waits for the database's write lock off the async worker: on a one-thread
//! runtime, another task still runs while a turn waits for a lock another connection holds
//! (the desktop shell's event loop shares the runtime with the turns) — at the run's start and
//! in the loop's own writes.

use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;

use futures::StreamExt as _;
use futures::future::BoxFuture;
use vibe_llm::{ChatModel, ChatRequest, Delta, DeltaStream, LlmError, ScriptedModel};
use vibe_store::Role;
use vibe_test_support::{WriteLock, on_one_thread};

use super::harness::{Harness, Options, hello_with_write_lock, say};

#[test]
fn a_turn_waiting_for_the_write_lock_lets_another_task_run() {
    // Another connection takes the write lock and keeps it until the other task has run.
    let (h, lock) = hello_with_write_lock();
    let result = on_one_thread(async {
        let turn_harness = Arc::clone(&h);
        // The turn runs first and reaches its first write while the lock is held.
        let turn = tokio::task::spawn_local(async move { turn_harness.turn(say("你好")).await });
        tokio::task::yield_now().await;
        // This only runs if the turn's wait left the one worker thread free.
        let released = lock.release();
        (released, turn.await)
    });
    let (released, result) = result;
    let turn = result.unwrap_or_else(|e| panic!("the turn failed while the lock was held: {e}"));
    assert!(released, "the other task never ran while the turn waited");
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
    // The data dir is known once the harness exists, after the model it holds.
    let dir: Arc<OnceLock<PathBuf>> = Arc::new(OnceLock::new());
    let held: Arc<Mutex<Option<WriteLock>>> = Arc::new(Mutex::new(None));
    let at_end: Arc<dyn Fn() + Send + Sync> = {
        let (dir, held) = (Arc::clone(&dir), Arc::clone(&held));
        Arc::new(move || {
            // The holder is another OS thread: waiting for it needs nothing from the runtime.
            let dir = dir.get().expect("the harness's data dir").clone();
            let lock = WriteLock::take(move || super::harness::raw_connection(&dir));
            *held.lock().unwrap() = Some(lock);
        })
    };
    let model = Gated {
        inner: ScriptedModel::from_yaml(TOOL_THEN_TEXT, "gated").unwrap(),
        calls: AtomicUsize::new(0),
        at_end,
    };
    let h = Arc::new(Harness::new(Arc::new(model), Options::default()));
    dir.set(h.dir.path().to_path_buf()).unwrap();

    let result = on_one_thread(async {
        let turn_harness = Arc::clone(&h);
        let turn = tokio::task::spawn_local(async move { turn_harness.turn(say("开始吧")).await });
        // Runs only when the turn's wait for the lock leaves the one worker thread free.
        let lock = loop {
            if let Some(lock) = held.lock().unwrap().take() {
                break lock;
            }
            tokio::time::sleep(Duration::from_millis(5)).await;
        };
        let released = lock.release();
        (released, turn.await)
    });
    let (released, result) = result;
    let turn = result.unwrap_or_else(|e| panic!("the turn failed while the lock was held: {e}"));
    assert!(released, "the other task never ran while the loop waited");
    assert_eq!(turn.result.text, "好，我们开始。");
    let stored = h.store.messages(&turn.result.conversation_id).unwrap();
    let roles: Vec<_> = stored.iter().map(|m| m.role).collect();
    assert_eq!(roles, [Role::User, Role::Assistant, Role::Tool, Role::Assistant]);
    assert!(stored[1].tool_calls.is_some() && !stored[1].interrupted);
}
