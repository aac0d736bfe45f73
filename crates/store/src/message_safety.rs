//! The wellbeing-safety mark of a message (migration 0005, docs/safety.md): a person's message
//! the safety screen rated `concern` or `acute` is marked so that memory never takes it in.
//! What counts as a risk is decided in `vibe_core::safety`, not here.

use rusqlite::{OptionalExtension, params};

use crate::Store;
use crate::error::{Result, StoreError};

/// The marks a message can carry.
const MARKS: [&str; 2] = ["concern", "acute"];

impl Store {
    /// Mark message `id` with the risk the safety screen found (`concern` or `acute`).
    pub fn mark_message_safety(&self, id: i64, risk: &str) -> Result<()> {
        if !MARKS.contains(&risk) {
            return Err(StoreError::invalid(format!(
                "safety mark \"{risk}\" is not one of: {}",
                MARKS.join(", ")
            )));
        }
        let n = self.write_tx(|tx| {
            Ok(tx.execute("UPDATE messages SET safety = ?1 WHERE id = ?2", params![risk, id])?)
        })?;
        if n == 0 {
            return Err(StoreError::invalid(format!("no message with id {id}")));
        }
        Ok(())
    }

    /// The safety mark of message `id` (`None`: not marked). Memory must skip marked messages.
    pub fn message_safety(&self, id: i64) -> Result<Option<String>> {
        let conn = self.conn();
        let mark: Option<Option<String>> = conn
            .query_row("SELECT safety FROM messages WHERE id = ?1", params![id], |r| r.get(0))
            .optional()?;
        mark.ok_or_else(|| StoreError::invalid(format!("no message with id {id}")))
    }
}

#[cfg(test)]
mod tests {
    use crate::{LOCAL_USER, NewMessage, Role, Store};

    #[test]
    fn a_mark_is_stored_and_a_bad_one_is_refused() {
        let store = Store::open_in_memory().unwrap();
        let conv = store.create_conversation(LOCAL_USER, None).unwrap();
        let msg = store.append_message(&conv.id, NewMessage::text(Role::User, "hi")).unwrap();
        assert_eq!(store.message_safety(msg.id).unwrap(), None);
        store.mark_message_safety(msg.id, "acute").unwrap();
        assert_eq!(store.message_safety(msg.id).unwrap().as_deref(), Some("acute"));
        let err = store.mark_message_safety(msg.id, "high").unwrap_err();
        assert!(err.to_string().contains("not one of"), "{err}");
        assert_eq!(store.message_safety(msg.id).unwrap().as_deref(), Some("acute"));
        assert!(store.mark_message_safety(9999, "acute").is_err());
    }
}
