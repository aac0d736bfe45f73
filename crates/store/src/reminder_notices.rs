//! Which protocol reminders were already shown as notifications (`reminder_notices`): a claim
//! is one `INSERT OR IGNORE` in its own transaction, so a reminder is claimed once, even by two
//! processes at the same minute. Choosing which reminder to notify is `vibe-protocol`'s.

use rusqlite::params;

use crate::Store;
use crate::error::Result;

impl Store {
    /// Record that the reminder at `at` of step `step` of run `run_id` is notified now. True
    /// when this call recorded it, false when it was recorded before.
    pub fn claim_reminder_notice(&self, run_id: &str, step: u32, at: &str) -> Result<bool> {
        let now = crate::clock::now_rfc3339();
        self.write_tx(|tx| {
            let added = tx.execute(
                "INSERT OR IGNORE INTO reminder_notices (run_id, step, at, notified_at)
                 VALUES (?1, ?2, ?3, ?4)",
                params![run_id, step, at, now],
            )?;
            Ok(added == 1)
        })
    }

    /// Whether the reminder at `at` of step `step` of run `run_id` was notified.
    pub fn reminder_notified(&self, run_id: &str, step: u32, at: &str) -> Result<bool> {
        let conn = self.conn();
        let mut stmt = conn.prepare_cached(
            "SELECT EXISTS (SELECT 1 FROM reminder_notices WHERE run_id = ?1 AND step = ?2 AND at = ?3)",
        )?;
        Ok(stmt.query_row(params![run_id, step, at], |r| r.get(0))?)
    }
}

#[cfg(test)]
#[path = "reminder_notices_tests.rs"]
mod tests;
