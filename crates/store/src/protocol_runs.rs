//! Protocol runs (migration 0004): one row per run of a coaching protocol with every step's data,
//! and the mirror of a skill's current run at `skills.<skill>.protocol` (docs/design.md#protocols,
//! with `version`, `status`, `last_activity_at`). Every change is one IMMEDIATE transaction that
//! updates the row, writes any completion leaves into the skill state and refreshes the mirror
//! together. What a step means, validation and events belong to the protocol engine in `vibe-core`;
//! times are passed in by it (it owns the clock).

use rusqlite::{Connection, OptionalExtension, Row, params};
use serde::Serialize;
use serde_json::{Map, Value, json};

use crate::Store;
use crate::change::ChangeBy;
use crate::error::{Result, StoreError};
use crate::skill_rows::validate_skill_id;
use crate::state::set_in_skill;

/// Where a run stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ProtocolStatus {
    Active,
    Paused,
    Completed,
    Cancelled,
}

impl ProtocolStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Active => "active",
            Self::Paused => "paused",
            Self::Completed => "completed",
            Self::Cancelled => "cancelled",
        }
    }

    fn parse(text: &str) -> Self {
        match text {
            "paused" => Self::Paused,
            "completed" => Self::Completed,
            "cancelled" => Self::Cancelled,
            _ => Self::Active,
        }
    }

    /// Completed and cancelled runs never change again.
    pub fn is_finished(self) -> bool {
        matches!(self, Self::Completed | Self::Cancelled)
    }
}

/// One protocol run.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ProtocolRun {
    pub id: String,
    pub user_id: String,
    pub skill: String,
    pub protocol_id: String,
    pub protocol_version: u32,
    pub status: ProtocolStatus,
    /// The current step, 1-based.
    pub step: u32,
    pub total_steps: u32,
    /// `{"step_1": {...}, ...}`.
    pub data: Value,
    /// `{"step_1": "summary", ...}`.
    pub summaries: Value,
    pub conversation_id: Option<String>,
    pub model: Option<String>,
    pub cancel_reason: Option<String>,
    pub started_at: String,
    pub last_activity_at: String,
    pub completed_at: Option<String>,
}

/// What a new run starts with.
#[derive(Debug, Clone, PartialEq)]
pub struct NewProtocolRun<'a> {
    pub id: &'a str,
    pub user: &'a str,
    pub skill: &'a str,
    pub protocol_id: &'a str,
    pub protocol_version: u32,
    pub total_steps: u32,
    pub conversation_id: Option<&'a str>,
    pub model: Option<&'a str>,
    pub now: &'a str,
}

/// A value written into the skill state when a run changes (the completion mapping):
/// the path under `skills.<skill>` and the value.
pub type StateLeaf = (Vec<String>, Value);

const COLUMNS: &str = "id, user_id, skill, protocol_id, protocol_version, status, step, total_steps, \
     data, summaries, conversation_id, model, cancel_reason, started_at, last_activity_at, completed_at";

fn json_col(row: &Row<'_>, i: usize) -> rusqlite::Result<Value> {
    let text: String = row.get(i)?;
    serde_json::from_str(&text).map_err(|e| {
        rusqlite::Error::FromSqlConversionFailure(i, rusqlite::types::Type::Text, Box::new(e))
    })
}

fn from_row(row: &Row<'_>) -> rusqlite::Result<ProtocolRun> {
    Ok(ProtocolRun {
        id: row.get(0)?,
        user_id: row.get(1)?,
        skill: row.get(2)?,
        protocol_id: row.get(3)?,
        protocol_version: row.get(4)?,
        status: ProtocolStatus::parse(&row.get::<_, String>(5)?),
        step: row.get(6)?,
        total_steps: row.get(7)?,
        data: json_col(row, 8)?,
        summaries: json_col(row, 9)?,
        conversation_id: row.get(10)?,
        model: row.get(11)?,
        cancel_reason: row.get(12)?,
        started_at: row.get(13)?,
        last_activity_at: row.get(14)?,
        completed_at: row.get(15)?,
    })
}

fn load(tx: &Connection, id: &str) -> Result<ProtocolRun> {
    tx.prepare_cached(&format!("SELECT {COLUMNS} FROM protocol_runs WHERE id = ?1"))?
        .query_row([id], from_row)
        .optional()?
        .ok_or_else(|| StoreError::NoSuchProtocolRun(id.to_string()))
}

fn active_of(tx: &Connection, user: &str, skill: &str) -> Result<Option<ProtocolRun>> {
    Ok(tx
        .prepare_cached(&format!(
            "SELECT {COLUMNS} FROM protocol_runs WHERE user_id = ?1 AND skill = ?2 AND status = 'active'"
        ))?
        .query_row(params![user, skill], from_row)
        .optional()?)
}

fn save(tx: &Connection, run: &ProtocolRun) -> Result<()> {
    tx.prepare_cached(
        "UPDATE protocol_runs SET status = ?2, step = ?3, data = ?4, summaries = ?5, model = ?6,
             cancel_reason = ?7, last_activity_at = ?8, completed_at = ?9 WHERE id = ?1",
    )?
    .execute(params![
        run.id,
        run.status.as_str(),
        run.step,
        run.data.to_string(),
        run.summaries.to_string(),
        run.model,
        run.cancel_reason,
        run.last_activity_at,
        run.completed_at,
    ])?;
    crate::sync_record::protocol_run(tx, &run.id)
}

/// The mirror at `skills.<skill>.protocol` (docs/design.md#protocols): the run's state.
pub fn mirror_of(run: &ProtocolRun) -> Value {
    json!({
        "id": run.protocol_id,
        "version": run.protocol_version,
        "step": run.step,
        "total_steps": run.total_steps,
        "started_at": run.started_at,
        "data": run.data,
        "completed": run.status == ProtocolStatus::Completed,
        "status": run.status.as_str(),
        "last_activity_at": run.last_activity_at,
    })
}

/// Refresh the mirror: the skill's active run if it has one, else `changed`.
fn mirror(tx: &Connection, changed: &ProtocolRun) -> Result<()> {
    let shown = match active_of(tx, &changed.user_id, &changed.skill)? {
        Some(active) => active,
        None => changed.clone(),
    };
    let path = format!("skills.{}.protocol", changed.skill);
    set_in_skill(
        tx,
        &changed.user_id,
        &changed.skill,
        &["protocol"],
        &path,
        mirror_of(&shown),
        &ChangeBy::App,
    )
}

/// Refresh the mirror after a peer's change, the same on every device: the skill's active run,
/// else its most recently active one (not recorded for sync: every device derives it).
pub(crate) fn refresh_mirror(tx: &Connection, user: &str, skill: &str) -> Result<()> {
    let shown = match active_of(tx, user, skill)? {
        Some(active) => Some(active),
        None => tx
            .prepare_cached(&format!(
                "SELECT {COLUMNS} FROM protocol_runs WHERE user_id = ?1 AND skill = ?2
                 ORDER BY last_activity_at DESC, id DESC LIMIT 1"
            ))?
            .query_row(params![user, skill], from_row)
            .optional()?,
    };
    let Some(run) = shown else { return Ok(()) };
    let path = format!("skills.{skill}.protocol");
    crate::state::put_in_skill(tx, user, skill, &["protocol"], &path, mirror_of(&run), false)
}

/// Pause the skill's active run (its `last_activity_at` stays: pausing is not the person's
/// activity, and the idle gap is measured from it on resume).
fn pause_active(tx: &Connection, user: &str, skill: &str) -> Result<Option<ProtocolRun>> {
    // Sync: runs kept paused here because another device's run came first still claim
    // `active`; the person choosing a run now makes them paused everywhere.
    crate::sync_record::runs_paused(tx, user, skill)?;
    let Some(mut active) = active_of(tx, user, skill)? else { return Ok(None) };
    active.status = ProtocolStatus::Paused;
    save(tx, &active)?;
    Ok(Some(active))
}

impl Store {
    /// Start a run as the skill's active one. A run already active for the skill is paused
    /// first (returned second), in the same transaction.
    pub fn start_protocol_run(
        &self,
        new: &NewProtocolRun<'_>,
    ) -> Result<(ProtocolRun, Option<ProtocolRun>)> {
        validate_skill_id(new.skill)?;
        if new.total_steps == 0 || new.protocol_version == 0 {
            return Err(StoreError::invalid(
                "a protocol run needs at least one step and a version ≥ 1",
            ));
        }
        let out = self.write_tx(|tx| {
            let paused = pause_active(tx, new.user, new.skill)?;
            tx.prepare_cached(
                "INSERT INTO protocol_runs (id, user_id, skill, protocol_id, protocol_version, status,
                     step, total_steps, conversation_id, model, started_at, last_activity_at)
                 VALUES (?1, ?2, ?3, ?4, ?5, 'active', 1, ?6, ?7, ?8, ?9, ?9)",
            )?
            .execute(params![
                new.id,
                new.user,
                new.skill,
                new.protocol_id,
                new.protocol_version,
                new.total_steps,
                new.conversation_id,
                new.model,
                new.now,
            ])?;
            crate::sync_record::protocol_run(tx, new.id)?;
            let run = load(tx, new.id)?;
            mirror(tx, &run)?;
            Ok((run, paused))
        })?;
        Ok(out)
    }

    /// Change a run in one transaction: `change` edits the loaded run (refusing with an error
    /// leaves everything as it was) and returns leaves to write into the skill state (the
    /// completion mapping). A finished run cannot be changed.
    pub fn update_protocol_run(
        &self,
        id: &str,
        change: impl FnOnce(&mut ProtocolRun) -> Result<Vec<StateLeaf>>,
    ) -> Result<ProtocolRun> {
        let run = self.write_tx(|tx| {
            let mut run = load(tx, id)?;
            if run.status.is_finished() {
                return Err(StoreError::invalid(format!(
                    "protocol run {id} is {} and cannot change; start the protocol again for a new run",
                    run.status.as_str()
                )));
            }
            let leaves = change(&mut run)?;
            if run.step == 0 || run.step > run.total_steps {
                return Err(StoreError::invalid(format!(
                    "step {} is outside 1..={} for protocol run {id}",
                    run.step, run.total_steps
                )));
            }
            save(tx, &run)?;
            for (path, value) in leaves {
                let segments: Vec<&str> = path.iter().map(String::as_str).collect();
                if segments.is_empty() || segments[0].starts_with('_') || segments[0] == "protocol" {
                    return Err(StoreError::invalid(format!(
                        "cannot write protocol results to `{}`: choose a section of the skill state",
                        path.join(".")
                    )));
                }
                let shown = format!("skills.{}.{}", run.skill, path.join("."));
                set_in_skill(tx, &run.user_id, &run.skill, &segments, &shown, value, &ChangeBy::App)?;
            }
            mirror(tx, &run)?;
            Ok(run)
        })?;
        Ok(run)
    }

    /// Make a paused run the skill's active one again, pausing the one active now (returned
    /// second). `last_activity_at` stays as it was, so the engine's idle rules (recap,
    /// continue-or-restart) see the whole gap.
    pub fn resume_protocol_run(&self, id: &str) -> Result<(ProtocolRun, Option<ProtocolRun>)> {
        let out = self.write_tx(|tx| {
            let mut run = load(tx, id)?;
            match run.status {
                ProtocolStatus::Active => return Ok((run, None)),
                ProtocolStatus::Paused => {}
                finished => {
                    return Err(StoreError::invalid(format!(
                        "protocol run {id} is {} and cannot be resumed; start the protocol again",
                        finished.as_str()
                    )));
                }
            }
            let paused = pause_active(tx, &run.user_id, &run.skill)?;
            run.status = ProtocolStatus::Active;
            save(tx, &run)?;
            mirror(tx, &run)?;
            Ok((run, paused))
        })?;
        Ok(out)
    }

    /// One run by id.
    pub fn protocol_run(&self, id: &str) -> Result<ProtocolRun> {
        load(&self.conn(), id)
    }

    /// The active run of a skill, if any.
    pub fn active_protocol_run(&self, user: &str, skill: &str) -> Result<Option<ProtocolRun>> {
        active_of(&self.conn(), user, skill)
    }

    /// Runs of `user` (optionally of one skill), most recently active first.
    pub fn protocol_runs(&self, user: &str, skill: Option<&str>) -> Result<Vec<ProtocolRun>> {
        let conn = self.conn();
        let mut stmt = conn.prepare_cached(&format!(
            "SELECT {COLUMNS} FROM protocol_runs WHERE user_id = ?1 AND (?2 IS NULL OR skill = ?2)
             ORDER BY last_activity_at DESC, rowid DESC"
        ))?;
        let rows = stmt.query_map(params![user, skill], from_row)?;
        Ok(rows.collect::<rusqlite::Result<Vec<_>>>()?)
    }
}

/// `step_<n>` keys of a run's data and summaries.
pub fn step_key(step: u32) -> String {
    format!("step_{step}")
}

/// Put `value` at `key` of a JSON object (replacing a non-object with an empty one first).
pub fn put(obj: &mut Value, key: &str, value: Value) {
    if !obj.is_object() {
        *obj = Value::Object(Map::new());
    }
    if let Value::Object(map) = obj {
        map.insert(key.to_string(), value);
    }
}

#[cfg(test)]
#[path = "protocol_runs_tests.rs"]
mod tests;
