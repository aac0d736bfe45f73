//! Opening SQLite connections only once SQLite and SQLCipher are both set up in this process.
//!
//! SQLite runs SQLCipher's set-up (`SQLITE_EXTRA_INIT`) after it has marked itself initialised
//! and outside its own mutex. A second thread opening a database in that moment is told SQLite
//! is ready, keys its connection before SQLCipher is, and `PRAGMA key` fails with SQLCipher's
//! "An error occurred with PRAGMA key or rekey" (seen when two stores open at once in a fresh
//! process). SQLCipher registers `sqlcipher_export` last, for connections opened after it.
//! Every connection of the store opens through here: the first caller probes until a new
//! in-memory connection can be keyed and knows `sqlcipher_export`, the others wait for it. Owns
//! only that wait; it must not open or touch any file.

use std::path::Path;
use std::sync::Once;
use std::time::Duration;

use rusqlite::{Connection, OpenFlags};

/// How long to wait for another thread to finish SQLCipher's set-up. It takes microseconds;
/// a set-up that failed outright is reported by the first real `PRAGMA key` instead.
const PROBES: u32 = 2_000;
const PROBE_PAUSE: Duration = Duration::from_millis(1);

/// Wait until SQLite and SQLCipher are set up in this process. Cheap after the first call.
/// Public for code (tests, tools) that opens connections with `rusqlite` directly beside the
/// store.
pub fn sqlite_ready() {
    static READY: Once = Once::new();
    READY.call_once(|| {
        for _ in 0..PROBES {
            if sqlcipher_is_set_up().is_ok() {
                return;
            }
            std::thread::sleep(PROBE_PAUSE);
        }
    });
}

/// A new connection to an in-memory database, keyed with a throwaway raw key (no key
/// derivation), that knows `sqlcipher_export`: it fails only while SQLCipher is not set up.
/// No file is read or written; the export is prepared, never run.
fn sqlcipher_is_set_up() -> rusqlite::Result<()> {
    let conn = Connection::open_in_memory()?;
    conn.pragma_update(None, "key", PROBE_KEY)?;
    conn.prepare("SELECT sqlcipher_export('main')").map(drop)
}

const PROBE_KEY: &str = "x'0000000000000000000000000000000000000000000000000000000000000000'";

/// [`Connection::open`] once SQLite and SQLCipher are set up.
pub(crate) fn open(path: &Path) -> rusqlite::Result<Connection> {
    sqlite_ready();
    Connection::open(path)
}

/// [`Connection::open_with_flags`] once SQLite and SQLCipher are set up.
pub(crate) fn open_with_flags(path: &str, flags: OpenFlags) -> rusqlite::Result<Connection> {
    sqlite_ready();
    Connection::open_with_flags(path, flags)
}

/// [`Connection::open_in_memory`] once SQLite and SQLCipher are set up.
pub(crate) fn open_in_memory() -> rusqlite::Result<Connection> {
    sqlite_ready();
    Connection::open_in_memory()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_probe_succeeds_once_ready_so_the_first_open_does_not_wait_out_the_probes() {
        sqlite_ready();
        sqlcipher_is_set_up().unwrap();
    }
}
