//! The wait after failed memory extraction passes (docs/memory.md#when-a-pass-fails): per
//! conversation, how many passes failed in a row, the last error and when the next automatic
//! pass may run. Computing the wait is `vibe_core::memory`'s; a successful pass clears the row
//! inside [`Store::apply_memory`]'s transaction.

use rusqlite::{OptionalExtension, Row, params};
use serde::Serialize;

use crate::Store;
use crate::error::Result;

/// A conversation whose last extraction pass failed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct MemoryBackoff {
    pub conversation_id: String,
    /// Passes that failed in a row.
    pub failures: u32,
    /// Why the last one failed.
    pub last_error: String,
    /// When it failed (RFC 3339).
    pub failed_at: String,
    /// No automatic pass before this time (RFC 3339).
    pub next_try_at: String,
}

fn read(r: &Row<'_>) -> rusqlite::Result<MemoryBackoff> {
    Ok(MemoryBackoff {
        conversation_id: r.get(0)?,
        failures: r.get::<_, i64>(1)?.try_into().unwrap_or(u32::MAX),
        last_error: r.get(2)?,
        failed_at: r.get(3)?,
        next_try_at: r.get(4)?,
    })
}

const COLUMNS: &str = "b.conversation_id, b.failures, b.last_error, b.failed_at, b.next_try_at";

impl Store {
    /// The waits of `user`'s conversations, soonest retry first.
    pub fn memory_backoffs(&self, user: &str) -> Result<Vec<MemoryBackoff>> {
        let conn = self.conn();
        let mut stmt = conn.prepare_cached(&format!(
            "SELECT {COLUMNS} FROM memory_backoff b JOIN conversations c ON c.id = b.conversation_id
             WHERE c.user_id = ?1 ORDER BY b.next_try_at"
        ))?;
        let rows = stmt.query_map([user], read)?.collect::<rusqlite::Result<_>>()?;
        Ok(rows)
    }

    /// The wait of one conversation, if its last pass failed.
    pub fn memory_backoff(&self, conversation_id: &str) -> Result<Option<MemoryBackoff>> {
        let conn = self.conn();
        let row = conn
            .query_row(
                &format!("SELECT {COLUMNS} FROM memory_backoff b WHERE b.conversation_id = ?1"),
                [conversation_id],
                read,
            )
            .optional()?;
        Ok(row)
    }

    /// Count one more failed pass of `conversation_id` and set when the next may run;
    /// `next_try_at` gets the number of failures in a row (this one included) and returns the
    /// time. Returns the updated row.
    pub fn record_memory_failure(
        &self,
        conversation_id: &str,
        error: &str,
        failed_at: &str,
        next_try_at: impl FnOnce(u32) -> String,
    ) -> Result<MemoryBackoff> {
        self.conversation(conversation_id)?;
        self.write_tx(|tx| {
            let before: i64 = tx
                .query_row(
                    "SELECT failures FROM memory_backoff WHERE conversation_id = ?1",
                    [conversation_id],
                    |r| r.get(0),
                )
                .optional()?
                .unwrap_or(0);
            let failures = u32::try_from(before + 1).unwrap_or(u32::MAX);
            let next = next_try_at(failures);
            tx.execute(
                "INSERT INTO memory_backoff (conversation_id, failures, last_error, failed_at, next_try_at)
                 VALUES (?1, ?2, ?3, ?4, ?5)
                 ON CONFLICT (conversation_id) DO UPDATE SET failures = excluded.failures,
                     last_error = excluded.last_error, failed_at = excluded.failed_at,
                     next_try_at = excluded.next_try_at",
                params![conversation_id, i64::from(failures), error, failed_at, next],
            )?;
            Ok(MemoryBackoff {
                conversation_id: conversation_id.to_string(),
                failures,
                last_error: error.to_string(),
                failed_at: failed_at.to_string(),
                next_try_at: next,
            })
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn failures_count_up_and_a_successful_pass_clears_them() {
        let store = Store::open_in_memory().unwrap();
        let c = store.create_conversation(crate::LOCAL_USER, None).unwrap();
        assert_eq!(store.memory_backoff(&c.id).unwrap(), None);
        let first = store
            .record_memory_failure(&c.id, "boom", "2026-01-01T00:00:00Z", |n| format!("t{n}"))
            .unwrap();
        assert_eq!((first.failures, first.next_try_at.as_str()), (1, "t1"));
        let second = store
            .record_memory_failure(&c.id, "again", "2026-01-01T00:10:00Z", |n| format!("t{n}"))
            .unwrap();
        assert_eq!((second.failures, second.last_error.as_str()), (2, "again"));
        assert_eq!(store.memory_backoffs(crate::LOCAL_USER).unwrap(), vec![second]);
        store.apply_memory(crate::LOCAL_USER, &c.id, 0, &[]).unwrap();
        assert_eq!(store.memory_backoff(&c.id).unwrap(), None, "success ends the wait");
    }

    #[test]
    fn an_unknown_conversation_is_refused() {
        let store = Store::open_in_memory().unwrap();
        assert!(store.record_memory_failure("nope", "e", "t", |_| "n".into()).is_err());
    }
}
