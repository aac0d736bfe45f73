//! Another connection holding a database's write lock, for tests of what must wait for it
//! without blocking anything else: a thread opens the connection, takes the lock (`BEGIN
//! IMMEDIATE`) and keeps it until the test lets go, or for 40 s at most — well past the
//! store's 15 s busy timeout, so code that never lets the test go on fails its assertions
//! instead of hanging the suite.

use std::sync::mpsc;
use std::thread::JoinHandle;
use std::time::Duration;

/// How long the lock is kept when the test never lets go.
const BOUND: Duration = Duration::from_secs(40);

/// The write lock, held on its own thread.
pub struct WriteLock {
    release: mpsc::Sender<()>,
    holder: JoinHandle<bool>,
}

impl WriteLock {
    /// Open a connection with `open` on a new thread and take the write lock; returns once
    /// it is held.
    pub fn take(open: impl FnOnce() -> rusqlite::Connection + Send + 'static) -> WriteLock {
        let (locked_tx, locked_rx) = mpsc::channel::<()>();
        let (release, release_rx) = mpsc::channel::<()>();
        let holder = std::thread::spawn(move || {
            let conn = open();
            conn.execute_batch("BEGIN IMMEDIATE")
                .unwrap_or_else(|e| panic!("write lock: cannot take it: {e}"));
            let _ = locked_tx.send(());
            let asked = release_rx.recv_timeout(BOUND).is_ok();
            conn.execute_batch("COMMIT")
                .unwrap_or_else(|e| panic!("write lock: cannot let it go: {e}"));
            asked
        });
        locked_rx
            .recv()
            .unwrap_or_else(|_| panic!("write lock: the holder failed before taking it"));
        WriteLock { release, holder }
    }

    /// Let the lock go. `true` when this let it go; `false` when it had already been let go
    /// after 40 s (what waited for it was never meant to wait that long).
    pub fn release(self) -> bool {
        let _ = self.release.send(());
        self.holder.join().unwrap_or_else(|_| panic!("write lock: the holder thread panicked"))
    }
}

/// Runs `task` on a one-thread runtime inside a `LocalSet`, as the desktop shell's event loop
/// shares one worker with the turns: a task spawned there (`spawn_local`) runs only while the
/// others wait off the worker — what a test of waiting for a [`WriteLock`] checks.
pub fn on_one_thread<F: std::future::Future>(task: F) -> F::Output {
    #[allow(clippy::expect_used)] // test set-up: a runtime that cannot start fails the test
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a one-thread runtime");
    tokio::task::LocalSet::new().block_on(&rt, task)
}
