//! Synchronous store work run off the async workers. A write waits up to the store's busy
//! timeout (15 s) for another connection's lock; that wait never holds a worker, so the
//! runtime's other tasks (the desktop shell's event loop shares it) keep running. On a
//! multi-thread runtime (the CLI's, the desktop app's) the calling task's thread lends itself
//! to the call (`block_in_place`: the worker's other tasks move to another thread meanwhile),
//! which spares the two thread hand-offs of a trip to the blocking pool on every store call
//! of a turn (docs/performance.md, "How the turn got here"); the calling task itself, and any
//! future it polls alongside (a cancel branch), waits for the call. On a current-thread
//! runtime (unit tests) the call goes to the blocking pool. Only the calling convention lives
//! here, no store logic; it is the store's so that every crate above (the context builder,
//! `vibe-core`) calls the store from async code the same way.

use std::sync::Arc;

use crate::{Store, StoreError};

/// Runs `f` with the store without holding an async worker (see the module docs) and waits
/// for it. A panic inside `f` is passed on unchanged.
pub async fn blocking<T, F>(store: &Arc<Store>, f: F) -> Result<T, StoreError>
where
    T: Send + 'static,
    F: FnOnce(&Store) -> Result<T, StoreError> + Send + 'static,
{
    let store = Arc::clone(store);
    off_worker(move || f(&store)).await?
}

/// Whether this thread may lend itself to blocking work: inside a multi-thread runtime
/// (`block_in_place` panics on a current-thread one).
fn lends_thread() -> bool {
    tokio::runtime::Handle::try_current()
        .is_ok_and(|h| h.runtime_flavor() == tokio::runtime::RuntimeFlavor::MultiThread)
}

/// Runs `f` — synchronous work that reaches the store, directly or through another owner (the
/// context builder's calibration, the protocol engine, the safety marks) — without holding an
/// async worker, like [`blocking`]. A panic inside `f` is passed on unchanged.
pub async fn off_worker<T, F>(f: F) -> Result<T, StoreError>
where
    T: Send + 'static,
    F: FnOnce() -> T + Send + 'static,
{
    if lends_thread() {
        return Ok(tokio::task::block_in_place(f));
    }
    match tokio::task::spawn_blocking(f).await {
        Ok(value) => Ok(value),
        Err(e) if e.is_panic() => std::panic::resume_unwind(e.into_panic()),
        Err(_) => Err(StoreError::ShuttingDown),
    }
}

#[cfg(test)]
mod tests {
    use vibe_test_support::WriteLock;

    use super::*;
    use crate::{LOCAL_USER, NewMessage, Role};

    /// A write waiting for another connection's write lock holds no worker: on a runtime with
    /// one worker, a task spawned while the write waits still runs. The holder keeps the lock
    /// until that task has run (or gives up after 40 s, well past the store's 15 s busy
    /// timeout, and the write fails).
    fn a_write_waiting_for_the_lock_lets_another_task_run(runtime: tokio::runtime::Runtime) {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("vibe.db");
        let store = Arc::new(Store::open(&path).unwrap());
        let conversation = store.create_conversation(LOCAL_USER, None).unwrap().id;
        let lock = WriteLock::take(move || rusqlite::Connection::open(&path).unwrap());
        let (released, written) = runtime.block_on(async {
            let (waiting_tx, waiting_rx) = tokio::sync::oneshot::channel::<()>();
            let (store, conversation) = (store.clone(), conversation.clone());
            let write = tokio::spawn(async move {
                blocking(&store, move |s| {
                    let _ = waiting_tx.send(());
                    s.append_message(&conversation, NewMessage::text(Role::User, "晚安"))
                })
                .await
            });
            waiting_rx.await.unwrap();
            // Another task lets the lock go: it runs only if the waiting write left it room.
            let released = tokio::spawn(async move { lock.release() }).await.unwrap();
            (released, write.await.unwrap())
        });
        assert!(released, "the other task never ran while the write waited");
        written.unwrap_or_else(|e| panic!("the write failed: {e}"));
        assert_eq!(store.messages(&conversation).unwrap().len(), 1);
    }

    #[test]
    fn a_multi_thread_runtime_lends_the_thread_and_keeps_its_worker_free() {
        let one_worker = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .enable_all()
            .build()
            .unwrap();
        a_write_waiting_for_the_lock_lets_another_task_run(one_worker);
    }

    #[test]
    fn a_current_thread_runtime_waits_on_the_blocking_pool() {
        let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
        a_write_waiting_for_the_lock_lets_another_task_run(runtime);
    }
}
