//! The wellbeing-safety mark of a message (migration 0005, docs/safety.md): a person's message
//! the safety screen rated `concern` or `acute` is marked so that memory never takes it in.
//! What counts as a risk is decided in `vibe_core::safety`, not here.

use rusqlite::{OptionalExtension, params};
use vibe_wire::SafetyRisk;

use crate::Store;
use crate::error::{Result, StoreError};

impl Store {
    /// Mark message `id` with the risk the safety screen found.
    pub fn mark_message_safety(&self, id: i64, risk: SafetyRisk) -> Result<()> {
        let n = self.write_tx(|tx| {
            Ok(tx.execute(
                "UPDATE messages SET safety = ?1 WHERE id = ?2",
                params![risk.as_str(), id],
            )?)
        })?;
        if n == 0 {
            return Err(StoreError::invalid(format!("no message with id {id}")));
        }
        Ok(())
    }

    /// The safety mark of message `id` (`None`: not marked). Memory must skip marked messages.
    pub fn message_safety(&self, id: i64) -> Result<Option<SafetyRisk>> {
        let conn = self.conn();
        let mark: Option<Option<String>> = conn
            .query_row("SELECT safety FROM messages WHERE id = ?1", params![id], |r| r.get(0))
            .optional()?;
        let mark = mark.ok_or_else(|| StoreError::invalid(format!("no message with id {id}")))?;
        Ok(mark.as_deref().and_then(safety_mark))
    }
}

/// A stored mark (the column's `CHECK` admits only the risks).
pub(crate) fn safety_mark(text: &str) -> Option<SafetyRisk> {
    SafetyRisk::parse(text)
}

#[cfg(test)]
mod tests {
    use vibe_wire::SafetyRisk;

    use crate::{LOCAL_USER, NewMessage, Role, Store};

    #[test]
    fn a_mark_is_stored_and_a_missing_message_is_refused() {
        let store = Store::open_in_memory().unwrap();
        let conv = store.create_conversation(LOCAL_USER, None).unwrap();
        let msg = store.append_message(&conv.id, NewMessage::text(Role::User, "hi")).unwrap();
        assert_eq!(store.message_safety(msg.id).unwrap(), None);
        store.mark_message_safety(msg.id, SafetyRisk::Acute).unwrap();
        assert_eq!(store.message_safety(msg.id).unwrap(), Some(SafetyRisk::Acute));
        assert!(store.mark_message_safety(9999, SafetyRisk::Acute).is_err());
    }
}
