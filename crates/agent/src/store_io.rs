//! Store work from async code, as `vibe_store::blocking` and `vibe_store::off_worker` run it
//! (off the async workers: the calling thread lent, or the blocking pool), answering
//! [`CoreError`]. Only the error mapping lives here; the calling convention is the store's.

use std::sync::Arc;

use vibe_store::{Store, StoreError};

use crate::CoreError;

/// [`vibe_store::blocking`], its errors as [`CoreError`].
pub async fn blocking<T, F>(store: &Arc<Store>, f: F) -> Result<T, CoreError>
where
    T: Send + 'static,
    F: FnOnce(&Store) -> Result<T, StoreError> + Send + 'static,
{
    vibe_store::blocking(store, f).await.map_err(core_error)
}

/// [`vibe_store::off_worker`]: `f` reaches the store directly or through another owner (the
/// context builder's calibration, the protocol engine, the safety marks).
pub async fn off_worker<T, F>(f: F) -> Result<T, CoreError>
where
    T: Send + 'static,
    F: FnOnce() -> T + Send + 'static,
{
    vibe_store::off_worker(f).await.map_err(core_error)
}

fn core_error(e: StoreError) -> CoreError {
    match e {
        StoreError::ShuttingDown => CoreError::ShuttingDown,
        e => CoreError::Store(e),
    }
}
