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
pub fn eventually(what: &str, mut cond: impl FnMut() -> bool) {
    let deadline = Instant::now() + DEADLINE;
    while Instant::now() < deadline {
        if cond() {
            return;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    panic!("timed out waiting for: {what}");
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
