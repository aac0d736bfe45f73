//! The wellbeing-safety mark of a message (migrations 0005 and 0016, docs/safety.md): a
//! person's message the safety screen (or the coach) rated `concern` or `acute` is marked with
//! the risk and its category, so that memory never takes it in and the conversation shows its
//! notice again when opened. A mark is never lowered — not here, not by a synced device's
//! write — and it travels with the message when sync is set up. What counts as a risk is
//! decided in the agent's safety screen, not here.

use rusqlite::{Connection, OptionalExtension, params};
use serde::Serialize;
use vibe_wire::{SafetyCategory, SafetyRisk};

use crate::Store;
use crate::error::{Result, StoreError};

/// A message's safety mark. `category` is `None` only for marks made before migration 0016.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct SafetyMark {
    pub risk: SafetyRisk,
    pub category: Option<SafetyCategory>,
}

impl Store {
    /// Mark message `id` with the risk and category found. A higher mark already there stays
    /// (`acute` is not turned into `concern`); the same risk keeps the category it was first
    /// given.
    pub fn mark_message_safety(
        &self,
        id: i64,
        risk: SafetyRisk,
        category: SafetyCategory,
    ) -> Result<()> {
        self.write_tx(|tx| {
            let exists: Option<i64> = tx
                .prepare_cached("SELECT id FROM messages WHERE id = ?1")?
                .query_row([id], |r| r.get(0))
                .optional()?;
            if exists.is_none() {
                return Err(StoreError::invalid(format!("no message with id {id}")));
            }
            if raise_mark(tx, id, risk, Some(category))? {
                crate::sync_record::message(tx, id)?;
            }
            Ok(())
        })
    }

    /// The safety mark of message `id` (`None`: not marked). Memory must skip marked messages.
    pub fn message_safety(&self, id: i64) -> Result<Option<SafetyMark>> {
        let conn = self.conn();
        let mark: Option<(Option<String>, Option<String>)> = conn
            .query_row(
                "SELECT safety, safety_category FROM messages WHERE id = ?1",
                params![id],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .optional()?;
        let (risk, category) =
            mark.ok_or_else(|| StoreError::invalid(format!("no message with id {id}")))?;
        Ok(safety_mark(risk, category))
    }
}

/// Set the mark of message `rowid` inside `tx` unless it already holds a higher one (or the
/// same risk with a category). Whether the row changed.
pub(crate) fn raise_mark(
    tx: &Connection,
    rowid: i64,
    risk: SafetyRisk,
    category: Option<SafetyCategory>,
) -> Result<bool> {
    let n = tx
        .prepare_cached(
            "UPDATE messages SET safety = ?2, safety_category = ?3 WHERE id = ?1 AND (
                 safety IS NULL
                 OR (safety = 'concern' AND ?2 = 'acute')
                 OR (safety = ?2 AND safety_category IS NULL AND ?3 IS NOT NULL))",
        )?
        .execute(params![rowid, risk.as_str(), category.map(SafetyCategory::as_str)])?;
    Ok(n > 0)
}

/// A stored mark (the columns' `CHECK`s admit only the risks and the categories).
pub(crate) fn safety_mark(risk: Option<String>, category: Option<String>) -> Option<SafetyMark> {
    let risk = SafetyRisk::parse(risk.as_deref()?)?;
    Some(SafetyMark { risk, category: category.as_deref().and_then(SafetyCategory::parse) })
}

#[cfg(test)]
mod tests {
    use vibe_wire::{SafetyCategory, SafetyRisk};

    use super::SafetyMark;
    use crate::{LOCAL_USER, NewMessage, Role, Store};

    #[test]
    fn a_mark_is_stored_with_its_category_and_a_missing_message_is_refused() {
        let store = Store::open_in_memory().unwrap();
        let conv = store.create_conversation(LOCAL_USER, None).unwrap();
        let msg = store.append_message(&conv.id, NewMessage::text(Role::User, "hi")).unwrap();
        assert_eq!(store.message_safety(msg.id).unwrap(), None);
        store.mark_message_safety(msg.id, SafetyRisk::Acute, SafetyCategory::Medical).unwrap();
        let mark = SafetyMark { risk: SafetyRisk::Acute, category: Some(SafetyCategory::Medical) };
        assert_eq!(store.message_safety(msg.id).unwrap(), Some(mark));
        assert_eq!(store.messages(&conv.id).unwrap()[0].safety, Some(mark));
        let err = store.mark_message_safety(9999, SafetyRisk::Acute, SafetyCategory::Suicide);
        assert!(err.unwrap_err().to_string().contains("no message with id 9999"));
    }

    #[test]
    fn a_mark_is_never_lowered_and_a_higher_one_replaces_it() {
        let store = Store::open_in_memory().unwrap();
        let conv = store.create_conversation(LOCAL_USER, None).unwrap();
        let msg = store.append_message(&conv.id, NewMessage::text(Role::User, "hi")).unwrap();
        let mark = |risk, category| SafetyMark { risk, category: Some(category) };
        store.mark_message_safety(msg.id, SafetyRisk::Concern, SafetyCategory::Suicide).unwrap();
        store.mark_message_safety(msg.id, SafetyRisk::Concern, SafetyCategory::Abuse).unwrap();
        assert_eq!(
            store.message_safety(msg.id).unwrap(),
            Some(mark(SafetyRisk::Concern, SafetyCategory::Suicide))
        );
        store.mark_message_safety(msg.id, SafetyRisk::Acute, SafetyCategory::SelfHarm).unwrap();
        store.mark_message_safety(msg.id, SafetyRisk::Concern, SafetyCategory::Suicide).unwrap();
        assert_eq!(
            store.message_safety(msg.id).unwrap(),
            Some(mark(SafetyRisk::Acute, SafetyCategory::SelfHarm))
        );
    }
}
