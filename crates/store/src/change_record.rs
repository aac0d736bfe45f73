//! Recording one change in the undo history (`state_history`) and pruning the history as it
//! grows: ordinary changes go after [`HISTORY_DAYS`] or beyond [`HISTORY_ROWS`] per target; a
//! destructive one (it removed the person's data) and every later change of its target stay
//! until the person clears them or [`DESTRUCTIVE_HISTORY_DAYS`] pass, whichever is later
//! (issue 28); clearing the history on the person's request. What a change means is the write
//! paths'; inverting changes is `undo`'s.

use rusqlite::{Connection, OptionalExtension, params};

use super::{
    Before, ChangeBy, DESTRUCTIVE_HISTORY_DAYS, HISTORY_DAYS, HISTORY_ROWS, HistoryTarget,
    PRUNE_EVERY,
};
use crate::clock;
use crate::error::Result;

/// Whether a recorded change removed the person's data (entries dropped from a list, a
/// non-empty list or object replaced or deleted, an undo): such a change is kept for
/// [`DESTRUCTIVE_HISTORY_DAYS`] whatever the row cap. An append that dropped entries is
/// destructive whatever is passed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Removal {
    Ordinary,
    Destructive,
}

impl Removal {
    /// Destructive when `removed` is true.
    pub(crate) fn when(removed: bool) -> Self {
        if removed { Self::Destructive } else { Self::Ordinary }
    }
}

/// Keep `before` (what the change replaces) as one ordinary change (an append that dropped
/// entries is destructive all the same); prune old rows now and then.
pub(crate) fn record(
    tx: &Connection,
    user: &str,
    target: &HistoryTarget,
    path: &str,
    by: &ChangeBy,
    before: &Before,
    summary: &str,
) -> Result<i64> {
    record_as(tx, Removal::Ordinary, (user, target), path, by, before, summary)
}

/// [`record`], saying whether the change removed the person's data.
pub(crate) fn record_as(
    tx: &Connection,
    removal: Removal,
    (user, target): (&str, &HistoryTarget),
    path: &str,
    by: &ChangeBy,
    before: &Before,
    summary: &str,
) -> Result<i64> {
    let dropped = matches!(before, Before::Append { dropped, .. } if !dropped.is_empty());
    let destructive = dropped || removal == Removal::Destructive;
    tx.prepare_cached(
        "INSERT INTO state_history
           (user_id, target, at, path, by, run_id, summary, kind, before, destructive)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)",
    )?
    .execute(params![
        user,
        target.key(),
        clock::now_rfc3339(),
        path,
        by.as_str(),
        by.run_id(),
        summary,
        before.kind(),
        before.to_text(),
        destructive
    ])?;
    let id = tx.last_insert_rowid();
    // Pruning every write would scan a target's rows on every append; every 16th is enough
    // (the cap is exceeded by at most 15 rows).
    if id % PRUNE_EVERY == 0 {
        prune(tx, user, target)?;
    }
    Ok(id)
}

/// Drop the target's rows older than [`HISTORY_DAYS`] or beyond its newest [`HISTORY_ROWS`] —
/// but none from the oldest destructive change still kept on: one the person has not cleared,
/// or one younger than [`DESTRUCTIVE_HISTORY_DAYS`] (kept until both hold: cleared and old).
fn prune(tx: &Connection, user: &str, target: &HistoryTarget) -> Result<()> {
    let now = clock::now();
    let ordinary = clock::stamp(now - chrono::Duration::days(HISTORY_DAYS));
    let destructive = clock::stamp(now - chrono::Duration::days(DESTRUCTIVE_HISTORY_DAYS));
    tx.prepare_cached(
        "DELETE FROM state_history WHERE user_id = ?1 AND target = ?2
           AND id < coalesce((SELECT min(id) FROM state_history WHERE user_id = ?1
                                AND target = ?2 AND destructive = 1
                                AND (cleared = 0 OR at >= ?4)), ?6)
           AND (at < ?3 OR id <= coalesce((SELECT id FROM state_history WHERE user_id = ?1
                                AND target = ?2 ORDER BY id DESC LIMIT 1 OFFSET ?5), -1))",
    )?
    .execute(params![user, target.key(), ordinary, destructive, HISTORY_ROWS, i64::MAX])?;
    Ok(())
}

/// What [`clear`] did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClearedHistory {
    /// Changes removed from the history.
    pub removed: usize,
    /// Changes kept: from the oldest destructive change younger than
    /// [`DESTRUCTIVE_HISTORY_DAYS`] on, so that loss stays undoable until then.
    pub kept: usize,
    /// When the kept changes go (RFC 3339), if any were kept.
    pub kept_until: Option<String>,
}

/// Clear `target`'s history on the person's request: every change goes, except a destructive
/// change younger than [`DESTRUCTIVE_HISTORY_DAYS`] and the changes after it, which stay
/// (marked cleared) until those days pass.
pub(crate) fn clear(tx: &Connection, user: &str, target: &HistoryTarget) -> Result<ClearedHistory> {
    let now = clock::now();
    let young = clock::stamp(now - chrono::Duration::days(DESTRUCTIVE_HISTORY_DAYS));
    let oldest_young: Option<(i64, String)> = tx
        .query_row(
            "SELECT id, at FROM state_history WHERE user_id = ?1 AND target = ?2
               AND destructive = 1 AND at >= ?3 ORDER BY id LIMIT 1",
            params![user, target.key(), young],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .optional()?;
    let keep_from = oldest_young.as_ref().map_or(i64::MAX, |(id, _)| *id);
    let removed = tx.execute(
        "DELETE FROM state_history WHERE user_id = ?1 AND target = ?2 AND id < ?3",
        params![user, target.key(), keep_from],
    )?;
    tx.execute(
        "UPDATE state_history SET cleared = 1 WHERE user_id = ?1 AND target = ?2 AND destructive = 1",
        params![user, target.key()],
    )?;
    let kept: i64 = tx.query_row(
        "SELECT count(*) FROM state_history WHERE user_id = ?1 AND target = ?2",
        params![user, target.key()],
        |r| r.get(0),
    )?;
    let kept_until = oldest_young.and_then(|(_, at)| {
        let at = chrono::DateTime::parse_from_rfc3339(&at).ok()?;
        Some(clock::stamp(at.to_utc() + chrono::Duration::days(DESTRUCTIVE_HISTORY_DAYS)))
    });
    Ok(ClearedHistory { removed, kept: usize::try_from(kept).unwrap_or(0), kept_until })
}
