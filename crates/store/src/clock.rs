//! Timestamps the store writes: RFC 3339 UTC with millisecond precision (`...Z`), so they sort
//! as text in the order they were made. The time comes from the system clock, or from the
//! clock a store was given ([`crate::Store::set_clock`]) while one of its write transactions
//! runs on this thread (tests move time on without sleeping: undo history pruning).

use std::cell::RefCell;
use std::sync::Arc;

use chrono::{DateTime, SecondsFormat, Utc};

/// A source of the current time.
pub type StoreClock = Arc<dyn Fn() -> DateTime<Utc> + Send + Sync>;

thread_local! {
    /// The clock of the store whose write transaction runs on this thread, if it has one.
    static CURRENT: RefCell<Option<StoreClock>> = const { RefCell::new(None) };
}

/// The current time: the running transaction's store clock, else the system's.
pub(crate) fn now() -> DateTime<Utc> {
    CURRENT.with(|c| c.borrow().as_ref().map(|clock| clock())).unwrap_or_else(Utc::now)
}

/// The current UTC time as stored in documents and rows.
pub fn now_rfc3339() -> String {
    stamp(now())
}

/// `at` as stored in documents and rows.
pub(crate) fn stamp(at: DateTime<Utc>) -> String {
    at.to_rfc3339_opts(SecondsFormat::Millis, true)
}

/// Makes `clock` this thread's clock until the guard is dropped (then the previous one again).
pub(crate) fn enter(clock: Option<StoreClock>) -> Entered {
    Entered(CURRENT.with(|c| c.replace(clock)))
}

/// Restores the previous clock when dropped.
pub(crate) struct Entered(Option<StoreClock>);

impl Drop for Entered {
    fn drop(&mut self) {
        let previous = self.0.take();
        CURRENT.with(|c| *c.borrow_mut() = previous);
    }
}
