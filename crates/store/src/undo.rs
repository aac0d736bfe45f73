//! Undo of the person's data (docs/design.md#undo): before every change to a skill's state or to
//! the profile's own sections, what the change replaces is kept in `state_history` (`change`:
//! the whole previous value, the previous values of the top-level keys a write touches, or for
//! an append only the entries it trimmed, so an append stays O(1)). Here the changes are listed
//! newest first; an undo inverts them newest first back to the one named
//! and puts the result in place in one transaction, itself recorded (so an undo can be undone).
//! Bounded: rows older than [`HISTORY_DAYS`] and beyond [`HISTORY_ROWS`] per target are pruned,
//! except that a destructive change (one that removed the person's data, see
//! [`Removal`]) and every later change of its target are kept for [`DESTRUCTIVE_HISTORY_DAYS`]
//! whatever the row cap, so the loss stays undoable (an undo inverts the changes after it too).
//! It must not decide what a change means (the write paths in `state` and `profile` do) nor
//! who may undo (the front ends do).

use rusqlite::{Connection, OptionalExtension, params};
use serde::Serialize;
use serde_json::{Map, Value};

use crate::change::{
    Before, ChangeBy, ClearedHistory, DESTRUCTIVE_HISTORY_DAYS, HISTORY_DAYS, HISTORY_ROWS,
    HistoryTarget, Removal, clear_history, describe, record_as, skill_snapshot,
};
use crate::error::{Result, StoreError};
use crate::{Store, profile, skill_rows, sync_existing, sync_record};

/// One recorded change.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct StateChange {
    pub id: i64,
    /// RFC 3339 time of the change.
    pub at: String,
    /// The dotted path changed (relative to the skill, or the profile root); `*` for an undo.
    pub path: String,
    pub by: ChangeBy,
    /// A short "before → after".
    pub summary: String,
}

/// What an undo did.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Undone {
    /// The change reverted back to (its previous value is now in place).
    pub reverted_to: i64,
    /// How many recorded changes were reverted (the one named and every later one).
    pub changes_reverted: usize,
    /// The record of this undo itself (undo it to redo).
    pub recorded_as: i64,
    /// The target's value now (`{}` when nothing is stored).
    pub value: Value,
}

/// The target's whole current value.
fn snapshot(tx: &Connection, user: &str, target: &HistoryTarget) -> Result<Option<Value>> {
    match target {
        HistoryTarget::Skill(skill) => skill_snapshot(tx, user, skill),
        HistoryTarget::Profile => profile::root_snapshot(tx, user),
    }
}

/// The target's stored object row as sync sees it (a skill's lists not in it).
fn sync_view(tx: &Connection, user: &str, target: &HistoryTarget) -> Result<Value> {
    match target {
        HistoryTarget::Skill(skill) => skill_rows::load_doc(tx, user, skill),
        HistoryTarget::Profile => Ok(profile::root_snapshot(tx, user)?.unwrap_or(Value::Null)),
    }
}

/// Put `value` back as the target's whole value (`None`: nothing stored).
fn restore(
    tx: &Connection,
    user: &str,
    target: &HistoryTarget,
    value: Option<Value>,
) -> Result<()> {
    match target {
        HistoryTarget::Skill(skill) => {
            skill_rows::delete_skill(tx, user, skill)?;
            match value {
                Some(doc) => skill_rows::save_doc(tx, user, skill, &doc),
                None => Ok(()),
            }
        }
        HistoryTarget::Profile => profile::restore_root(tx, user, value),
    }
}

fn validate(target: &HistoryTarget) -> Result<()> {
    match target {
        HistoryTarget::Skill(skill) => skill_rows::validate_skill_id(skill),
        HistoryTarget::Profile => Ok(()),
    }
}

impl Store {
    /// The recorded changes of `target`, newest first, at most `limit`.
    pub fn state_history(
        &self,
        user: &str,
        target: &HistoryTarget,
        limit: usize,
    ) -> Result<Vec<StateChange>> {
        validate(target)?;
        let conn = self.conn();
        let mut stmt = conn.prepare_cached(
            "SELECT id, at, path, by, run_id, summary FROM state_history
             WHERE user_id = ?1 AND target = ?2 ORDER BY id DESC LIMIT ?3",
        )?;
        let limit = i64::try_from(limit).unwrap_or(i64::MAX);
        let rows = stmt
            .query_map(params![user, target.key(), limit], |r| {
                Ok(StateChange {
                    id: r.get(0)?,
                    at: r.get(1)?,
                    path: r.get(2)?,
                    by: ChangeBy::from_row(&r.get::<_, String>(3)?, r.get(4)?),
                    summary: r.get(5)?,
                })
            })?
            .collect::<rusqlite::Result<_>>()?;
        Ok(rows)
    }

    /// Clear `target`'s history on the person's request, in one transaction: a destructive
    /// change younger than [`DESTRUCTIVE_HISTORY_DAYS`] and the changes after it stay until
    /// those days pass; everything else goes.
    pub fn clear_history(&self, user: &str, target: &HistoryTarget) -> Result<ClearedHistory> {
        validate(target)?;
        self.write_tx(|tx| clear_history(tx, user, target))
    }

    /// Revert `target` to its value before change `to` (default: its newest change), in one
    /// transaction; the undo is recorded as a change of its own.
    pub fn undo(
        &self,
        user: &str,
        target: &HistoryTarget,
        to: Option<i64>,
        by: &ChangeBy,
    ) -> Result<Undone> {
        validate(target)?;
        let undone = self.write_tx(|tx| {
            let newest: Option<i64> = tx
                .prepare_cached(
                    "SELECT max(id) FROM state_history WHERE user_id = ?1 AND target = ?2",
                )?
                .query_row(params![user, target.key()], |r| r.get(0))?;
            let Some(newest) = newest else {
                return Err(StoreError::NoHistory(format!(
                    "{} has no recorded changes to undo",
                    target.shown()
                )));
            };
            let to = to.unwrap_or(newest);
            let known: Option<i64> = tx
                .prepare_cached(
                    "SELECT id FROM state_history WHERE id = ?1 AND user_id = ?2 AND target = ?3",
                )?
                .query_row(params![to, user, target.key()], |r| r.get(0))
                .optional()?;
            if known.is_none() {
                return Err(StoreError::NoHistory(format!(
                    "{} has no recorded change #{to} (the history keeps {HISTORY_DAYS} days and \
                     {HISTORY_ROWS} changes, {DESTRUCTIVE_HISTORY_DAYS} days from a change that \
                     removed data; list the ids that exist with the history command)",
                    target.shown()
                )));
            }
            let inverses: Vec<(i64, String, Option<String>)> = tx
                .prepare_cached(
                    "SELECT id, kind, before FROM state_history
                     WHERE user_id = ?1 AND target = ?2 AND id >= ?3 ORDER BY id DESC",
                )?
                .query_map(params![user, target.key(), to], |r| {
                    Ok((r.get(0)?, r.get(1)?, r.get(2)?))
                })?
                .collect::<rusqlite::Result<_>>()?;
            let reverted = inverses.len();
            let current = snapshot(tx, user, target)?;
            let mut before = current.clone();
            for (id, kind, text) in inverses {
                let inverse =
                    Before::from_row(&kind, text).map_err(|source| StoreError::CorruptJson {
                        what: format!("history entry #{id} of {}", target.shown()),
                        source,
                    })?;
                inverse.invert(&mut before);
            }
            let text = format!(
                "undo back to before #{to}: {} → {}",
                describe(current.as_ref()),
                describe(before.as_ref())
            );
            // An undo throws away what came after: it stays undoable (redo) as a removal.
            let whole = Before::Whole(current);
            let recorded_as =
                record_as(tx, Removal::Destructive, (user, target), "*", by, &whole, &text)?;
            let old = sync_view(tx, user, target)?;
            if let HistoryTarget::Skill(skill) = target {
                sync_record::lists_dropped(tx, user, skill)?;
            }
            restore(tx, user, target, before.clone())?;
            let new = sync_view(tx, user, target)?;
            let skill = match target {
                HistoryTarget::Skill(skill) => Some(skill.as_str()),
                HistoryTarget::Profile => None,
            };
            sync_existing::restored(tx, user, skill, &old, &new)?;
            Ok(Undone {
                reverted_to: to,
                changes_reverted: reverted,
                recorded_as,
                value: before.unwrap_or_else(|| Value::Object(Map::new())),
            })
        })?;
        Ok(undone)
    }
}

#[cfg(test)]
#[path = "undo_tests.rs"]
mod tests;
