//! The late writer: one thread per process that writes an audit log's waiting lines when no
//! later line took them out in time (`writer.rs` keeps lines in memory for at most
//! `DELTA_FLUSH`, so a fast turn is one write instead of one per event). It holds the logs
//! weakly — a log that was closed (and flushed when dropped) is forgotten — and takes a log's
//! lock only when that log is due. It must not decide what waits or for how long: that is the
//! writer's rule, asked through [`Waiting`].

use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::sync::mpsc::{self, RecvTimeoutError, Sender};
use std::sync::{Mutex, OnceLock, Weak};
use std::time::{Duration, Instant};

/// A log with lines waiting in memory.
pub(super) trait Waiting: Send + Sync {
    /// Write the lines that have waited long enough; when lines are still waiting, the time
    /// to come back.
    fn write_due(&self, now: Instant) -> Option<Instant>;
    /// Write every waiting line now.
    fn write_now(&self);
}

/// A log to look at `at`.
struct Due {
    at: Instant,
    log: Weak<dyn Waiting>,
}

/// What the thread is asked.
enum Ask {
    Visit(Due),
    /// Write every waiting line of every booked log now, then answer.
    WriteAll(mpsc::Sender<()>),
}

impl PartialEq for Due {
    fn eq(&self, other: &Self) -> bool {
        self.at == other.at
    }
}
impl Eq for Due {}
impl PartialOrd for Due {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Due {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.at.cmp(&other.at)
    }
}

/// Ask the late writer to look at `log` at `at`. `false` when its thread could not be started
/// (the caller then writes at once).
pub(super) fn schedule(log: Weak<dyn Waiting>, at: Instant) -> bool {
    send(Ask::Visit(Due { at, log }))
}

/// Write every line still waiting in this process's open logs, before the process ends without
/// closing them (`std::process::exit`). Waits for the late writer for at most `limit`.
pub fn write_waiting(limit: Duration) {
    let (tx, rx) = mpsc::channel();
    if send(Ask::WriteAll(tx)) {
        let _ = rx.recv_timeout(limit);
    }
}

/// Hand `ask` to the thread, starting it on first use; `false` when it cannot be started.
fn send(ask: Ask) -> bool {
    static QUEUE: OnceLock<Option<Mutex<Sender<Ask>>>> = OnceLock::new();
    let queue = QUEUE.get_or_init(|| {
        let (tx, rx) = mpsc::channel::<Ask>();
        std::thread::Builder::new()
            .name("audit-writer".into())
            .spawn(move || run(&rx))
            .map_err(|e| {
                tracing::warn!("audit: cannot start the late writer ({e}); writing at once")
            })
            .ok()
            .map(|_| Mutex::new(tx))
    });
    let Some(queue) = queue else { return false };
    queue.lock().unwrap_or_else(|p| p.into_inner()).send(ask).is_ok()
}

/// The thread: wait for the earliest due log (or a new one), write what is due, repeat.
fn run(rx: &mpsc::Receiver<Ask>) {
    let mut due: BinaryHeap<Reverse<Due>> = BinaryHeap::new();
    loop {
        let received = match due.peek() {
            None => rx.recv().map_err(|_| RecvTimeoutError::Disconnected),
            Some(Reverse(next)) => {
                rx.recv_timeout(next.at.saturating_duration_since(Instant::now()))
            }
        };
        match received {
            Ok(Ask::Visit(entry)) => due.push(Reverse(entry)),
            Ok(Ask::WriteAll(done)) => {
                for Reverse(entry) in due.iter() {
                    if let Some(log) = entry.log.upgrade() {
                        log.write_now();
                    }
                }
                let _ = done.send(());
            }
            Err(RecvTimeoutError::Timeout) => {}
            Err(RecvTimeoutError::Disconnected) => return,
        }
        let now = Instant::now();
        while due.peek().is_some_and(|Reverse(next)| next.at <= now) {
            let Some(Reverse(entry)) = due.pop() else { break };
            let Some(log) = entry.log.upgrade() else { continue };
            if let Some(at) = log.write_due(now) {
                due.push(Reverse(Due { at, log: entry.log }));
            }
        }
    }
}
