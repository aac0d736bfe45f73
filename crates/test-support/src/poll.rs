//! Waiting for something another thread or process does (a watcher noticing a file, a late
//! writer finishing): poll a condition until it holds or a generous deadline passes. Tests
//! never assert how long anything takes; the deadline only turns a hang into a failure.

use std::time::{Duration, Instant};

/// How long [`eventually`] waits before failing.
const DEADLINE: Duration = Duration::from_secs(20);

/// Poll `cond` every 20 ms until it holds; panic naming `what` after 20 s.
///
/// # Panics
/// When `cond` still does not hold after the deadline.
pub fn eventually(what: &str, cond: impl FnMut() -> bool) {
    if !within(DEADLINE, cond) {
        panic!("timed out waiting for: {what}");
    }
}

/// Poll `cond` every 20 ms until it holds (true) or `deadline` passed (false), for a caller
/// that says more than [`eventually`] when it fails (a server's log, what it saw last).
pub fn within(deadline: Duration, mut cond: impl FnMut() -> bool) -> bool {
    let end = Instant::now() + deadline;
    while Instant::now() < end {
        if cond() {
            return true;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    cond()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn returns_once_the_condition_holds() {
        let mut calls = 0;
        eventually("the third call", || {
            calls += 1;
            calls == 3
        });
        assert_eq!(calls, 3);
    }
}
