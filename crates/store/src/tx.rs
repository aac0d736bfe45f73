//! [`Tx`]: one transaction on one connection with cached `BEGIN`/`COMMIT`/`ROLLBACK` statements.
//! It owns nothing else; `Store::write_tx`/`read_tx` decide when to use one.

use rusqlite::Connection;

use crate::Result;

/// A transaction on one connection, begun and ended with cached statements (rusqlite's
/// `Transaction` parses its `BEGIN` and `COMMIT` text every time, a noticeable share of a
/// chat turn's six transactions). Rolled back when dropped without [`Tx::commit`].
pub(crate) struct Tx<'c> {
    conn: &'c Connection,
    done: bool,
}

impl<'c> Tx<'c> {
    /// `BEGIN IMMEDIATE` (take the write lock now) or a deferred `BEGIN` (for reads that must
    /// see one snapshot).
    pub(crate) fn begin(conn: &'c Connection, immediate: bool) -> Result<Self> {
        let sql = if immediate { "BEGIN IMMEDIATE" } else { "BEGIN" };
        conn.prepare_cached(sql)?.execute([])?;
        Ok(Self { conn, done: false })
    }

    pub(crate) fn commit(mut self) -> Result<()> {
        self.conn.prepare_cached("COMMIT")?.execute([])?;
        self.done = true;
        Ok(())
    }
}

impl std::ops::Deref for Tx<'_> {
    type Target = Connection;

    fn deref(&self) -> &Connection {
        self.conn
    }
}

impl Drop for Tx<'_> {
    fn drop(&mut self) {
        if !self.done {
            // Nothing to report from a failed rollback: SQLite rolls back on its own when
            // the connection is next used or closed.
            let _ = self.conn.prepare_cached("ROLLBACK").and_then(|mut s| s.execute([]));
        }
    }
}
