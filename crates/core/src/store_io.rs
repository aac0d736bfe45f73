//! Synchronous store work run off the async workers. A write waits up to the store's busy
//! timeout (15 s) for another connection's lock; that wait happens on tokio's blocking pool,
//! so the runtime's other tasks (the desktop shell's event loop shares it) keep running. Only
//! the calling convention lives here, no store logic.

use std::sync::Arc;

use vibe_store::{Store, StoreError};

use crate::CoreError;

/// Runs `f` with the store on the blocking pool and waits for it without holding the current
/// worker. A panic inside `f` is passed on unchanged.
pub(crate) async fn blocking<T, F>(store: &Arc<Store>, f: F) -> Result<T, CoreError>
where
    T: Send + 'static,
    F: FnOnce(&Store) -> Result<T, StoreError> + Send + 'static,
{
    let store = Arc::clone(store);
    match tokio::task::spawn_blocking(move || f(&store)).await {
        Ok(result) => Ok(result?),
        Err(e) if e.is_panic() => std::panic::resume_unwind(e.into_panic()),
        Err(_) => Err(CoreError::ShuttingDown),
    }
}

/// Runs `f` — synchronous work that reaches the store through another owner (the context
/// builder's calibration, the protocol engine, the safety marks) — on the blocking pool, like
/// [`blocking`]. A panic inside `f` is passed on unchanged.
pub(crate) async fn off_worker<T, F>(f: F) -> Result<T, CoreError>
where
    T: Send + 'static,
    F: FnOnce() -> T + Send + 'static,
{
    match tokio::task::spawn_blocking(f).await {
        Ok(value) => Ok(value),
        Err(e) if e.is_panic() => std::panic::resume_unwind(e.into_panic()),
        Err(_) => Err(CoreError::ShuttingDown),
    }
}
