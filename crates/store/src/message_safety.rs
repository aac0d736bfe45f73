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
            if raise_mark(tx, id, risk, Some(category))? {
                return crate::sync_record::message(tx, id);
            }
            // Nothing changed: a higher mark is there already, or there is no such message.
            let exists: Option<i64> = tx
                .prepare_cached("SELECT id FROM messages WHERE id = ?1")?
                .query_row([id], |r| r.get(0))
                .optional()?;
            match exists {
                Some(_) => Ok(()),
                None => Err(StoreError::invalid(format!("no message with id {id}"))),
            }
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

/// The schema version from which marks travel with their messages (migration 0016).
const MARKS_TRAVEL_FROM: i64 = 16;

impl Store {
    /// After an upgrade from a schema whose marks did not travel: with sync set up, every
    /// marked message is recorded again, so the devices that already hold it learn its mark
    /// (and their memory skips it). Nothing happens without sync. The count recorded.
    pub(crate) fn share_marks_older_than_sync(&self, upgraded_from: i64) -> Result<usize> {
        if upgraded_from >= MARKS_TRAVEL_FROM {
            return Ok(0);
        }
        self.write_tx(|tx| {
            let ids: Vec<i64> = tx
                .prepare("SELECT id FROM messages WHERE safety IS NOT NULL ORDER BY id")?
                .query_map([], |r| r.get(0))?
                .collect::<rusqlite::Result<_>>()?;
            for &id in &ids {
                crate::sync_record::message(tx, id)?;
            }
            Ok(ids.len())
        })
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

    /// A folder synced before marks travelled: the upgrade records its marked messages again,
    /// so the other devices learn the marks; unmarked messages are not sent again.
    #[test]
    fn an_upgrade_from_before_marks_travelled_sends_the_marked_messages_again() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("vibe.db");
        let conv = {
            let store = Store::open(&path).unwrap();
            store.sync_enable("me").unwrap();
            let conv = store.create_conversation(LOCAL_USER, None).unwrap().id;
            let marked =
                store.append_message(&conv, NewMessage::text(Role::User, "我想自杀")).unwrap();
            store.append_message(&conv, NewMessage::text(Role::User, "hello")).unwrap();
            let conn = store.conn();
            conn.execute("UPDATE messages SET safety = 'acute' WHERE id = ?1", [marked.id])
                .unwrap();
            conn.execute_batch(
                "ALTER TABLE messages DROP COLUMN safety_category; PRAGMA user_version = 15;",
            )
            .unwrap();
            drop(conn);
            store.sync_seal().unwrap();
            conv
        };
        let store = Store::open(&path).unwrap();
        assert_eq!(store.upgraded().map(|u| (u.from, u.to)), Some((15, 16)));
        let sealed = store.sync_seal().unwrap();
        let last = sealed.last().unwrap();
        let puts: Vec<(Option<String>, String)> = last
            .ops
            .iter()
            .filter_map(|o| match &o.op {
                crate::SyncOp::MessagePut { safety, content, conversation, .. } => {
                    assert_eq!(conversation, &conv);
                    Some((safety.clone(), content.clone()))
                }
                _ => None,
            })
            .collect();
        assert_eq!(puts, vec![(Some("acute".to_string()), "我想自杀".to_string())]);
        assert_eq!(store.share_marks_older_than_sync(16).unwrap(), 0, "once, at the upgrade");
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
