//! Agent runs: one row per run (status, stop reason, usage); the run's events live in
//! `runs/<id>/events.jsonl` in the data dir (written by the audit module, not here).
//! `close_interrupted_runs` is the crash-recovery step run on start: a run left `running` by a
//! killed process is marked failed, its partial assistant text kept and flagged interrupted,
//! and every dangling tool call answered with an "interrupted" result.

use rusqlite::{OptionalExtension, Row, params};
use serde::Serialize;
use serde_json::{Value, json};
use vibe_wire::{RunStatus, StopReason};

use crate::error::{Result, StoreError};
use crate::messages::{self, Message, NewMessage, Role, RunAnswer, store_answer};
use crate::{Store, clock};

/// The conversation a run belongs to.
fn conversation_of(tx: &rusqlite::Connection, run: &str) -> Result<String> {
    tx.prepare_cached("SELECT conversation_id FROM runs WHERE id = ?1")?
        .query_row([run], |r| r.get::<_, Option<String>>(0))
        .optional()?
        .flatten()
        .ok_or_else(|| {
            StoreError::invalid(format!("run \"{run}\" has no conversation to answer in"))
        })
}

/// One run row.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RunRow {
    pub id: String,
    pub conversation_id: Option<String>,
    pub status: RunStatus,
    pub stop_reason: Option<StopReason>,
    pub usage: Option<Value>,
    pub started_at: String,
    pub finished_at: Option<String>,
}

const COLUMNS: &str = "id, conversation_id, status, stop_reason, usage, started_at, finished_at";

/// A name column read as one of the enum's values; another text is corrupt data.
fn named<T>(row: &Row<'_>, idx: usize, parse: fn(&str) -> Option<T>) -> rusqlite::Result<T> {
    let text: String = row.get(idx)?;
    parse(&text).ok_or_else(|| {
        rusqlite::Error::FromSqlConversionFailure(
            idx,
            rusqlite::types::Type::Text,
            format!("unknown value \"{text}\" in runs column {idx}").into(),
        )
    })
}

fn from_row(row: &Row<'_>) -> rusqlite::Result<RunRow> {
    let usage: Option<String> = row.get(4)?;
    let stop_reason: Option<String> = row.get(3)?;
    Ok(RunRow {
        id: row.get(0)?,
        conversation_id: row.get(1)?,
        status: named(row, 2, RunStatus::parse)?,
        stop_reason: match stop_reason {
            None => None,
            Some(_) => Some(named(row, 3, StopReason::parse)?),
        },
        usage: usage.and_then(|u| serde_json::from_str(&u).ok()),
        started_at: row.get(5)?,
        finished_at: row.get(6)?,
    })
}

/// What became of a run left `running`, as the host tells [`Store::close_dead_runs`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RunEnd {
    /// Its process still runs it.
    Alive,
    /// Its process died (a crash, a kill).
    Interrupted,
    /// Its process ended it, but its reply could not be saved (disk full, read-only).
    Unsaved,
}

/// What crash recovery repaired.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Recovery {
    pub runs_closed: Vec<String>,
    pub tool_calls_closed: usize,
}

impl Store {
    /// Record a new run as `running`.
    pub fn create_run(&self, id: &str, conversation_id: Option<&str>) -> Result<()> {
        self.write_tx(|tx| {
            tx.prepare_cached(
                "INSERT INTO runs (id, conversation_id, status, started_at) VALUES (?1, ?2, 'running', ?3)",
            )?
            .execute(params![id, conversation_id, clock::now_rfc3339()])?;
            Ok(())
        })
    }

    /// Record a new run as `running` and, in the same transaction, the person's message that
    /// starts it (its `run_id` is set to the run); returns the stored message.
    pub fn start_run(
        &self,
        id: &str,
        conversation_id: &str,
        message: Option<NewMessage>,
    ) -> Result<Option<Message>> {
        if let Some(msg) = &message {
            messages::validate(msg)?;
        }
        let now = clock::now_rfc3339();
        let message = message.map(|m| NewMessage { run_id: Some(id.to_string()), ..m });
        let stored_id = self.write_tx(|tx| {
            let started = tx
                .prepare_cached(
                    "INSERT INTO runs (id, conversation_id, status, started_at) VALUES (?1, ?2, 'running', ?3)",
                )?
                .execute(params![id, conversation_id, now]);
            if let Err(rusqlite::Error::SqliteFailure(e, _)) = &started
                && e.extended_code == rusqlite::ffi::SQLITE_CONSTRAINT_FOREIGNKEY
            {
                return Err(StoreError::NoSuchConversation(conversation_id.to_string()));
            }
            started?;
            message.as_ref().map(|m| messages::insert_message(tx, conversation_id, m, &now)).transpose()
        })?;
        Ok(message.zip(stored_id).map(|(m, sid)| messages::stored(sid, conversation_id, m, now)))
    }

    /// Close a run with its final status (`completed`, `failed`, `cancelled`).
    pub fn finish_run(
        &self,
        id: &str,
        status: RunStatus,
        stop_reason: StopReason,
        usage: &Value,
    ) -> Result<()> {
        self.finish_run_with(id, status, stop_reason, usage, None).map(|_| ())
    }

    /// Close a run and, in the same transaction, store its last answer (the run ends right
    /// after its last answer completes, so one commit does both). The answer replaces the
    /// draft row `answer.draft_id` when one was written while it streamed. Returns the
    /// answer's message id.
    pub fn finish_run_with(
        &self,
        id: &str,
        status: RunStatus,
        stop_reason: StopReason,
        usage: &Value,
        answer: Option<RunAnswer>,
    ) -> Result<Option<i64>> {
        if status == RunStatus::Running {
            return Err(StoreError::invalid(format!(
                "run \"{id}\" cannot be closed as `running`; close it as completed, failed or cancelled"
            )));
        }
        if let Some(a) = &answer {
            messages::validate(&a.message)?;
        }
        let now = clock::now_rfc3339();
        self.write_tx(|tx| {
            let stored = answer
                .as_ref()
                .map(|a| store_answer(tx, a, &now, || conversation_of(tx, id)))
                .transpose()?;
            let n = tx
                .prepare_cached(
                    "UPDATE runs SET status = ?2, stop_reason = ?3, usage = ?4, finished_at = ?5 WHERE id = ?1",
                )?
                .execute(params![id, status.as_str(), stop_reason.as_str(), usage.to_string(), now])?;
            if n == 0 {
                return Err(StoreError::invalid(format!("no run with id \"{id}\"")));
            }
            Ok(stored)
        })
    }

    /// Store a run's answer on its own (in place of its draft row when it has one), before
    /// the run goes on. Returns the answer's message id.
    pub fn store_run_answer(&self, conversation_id: &str, answer: &RunAnswer) -> Result<i64> {
        messages::validate(&answer.message)?;
        let now = clock::now_rfc3339();
        self.write_tx(|tx| store_answer(tx, answer, &now, || Ok(conversation_id.to_string())))
    }

    /// One run.
    pub fn run(&self, id: &str) -> Result<Option<RunRow>> {
        Ok(self
            .conn()
            .query_row(&format!("SELECT {COLUMNS} FROM runs WHERE id = ?1"), [id], from_row)
            .optional()?)
    }

    /// Runs, newest first (optionally of one conversation).
    pub fn list_runs(&self, conversation_id: Option<&str>, limit: usize) -> Result<Vec<RunRow>> {
        let conn = self.conn();
        let mut stmt = conn.prepare(&format!(
            "SELECT {COLUMNS} FROM runs WHERE ?1 IS NULL OR conversation_id = ?1 ORDER BY started_at DESC, id DESC LIMIT ?2"
        ))?;
        let rows = stmt
            .query_map(
                params![conversation_id, i64::try_from(limit).unwrap_or(i64::MAX)],
                from_row,
            )?
            .collect::<rusqlite::Result<_>>()?;
        Ok(rows)
    }

    /// Close runs a killed process left `running`: those for which `is_dead(run_id)` says so
    /// (the caller knows how to tell; the chat service uses a per-run file lock). Marks each
    /// failed with stop reason `interrupted` and answers every dangling tool call with an
    /// interrupted result; partial answers were already stored flagged `interrupted`. When no
    /// run is `running` it only reads (no write transaction).
    pub fn close_interrupted_runs(&self, is_dead: &dyn Fn(&str) -> bool) -> Result<Recovery> {
        self.close_dead_runs(&|run_id: &str| {
            if is_dead(run_id) { RunEnd::Interrupted } else { RunEnd::Alive }
        })
    }

    /// [`Store::close_interrupted_runs`] with a verdict per run: a run whose reply could not
    /// be saved ([`RunEnd::Unsaved`]) is closed `failed`, not taken for a crash.
    pub fn close_dead_runs(&self, verdict: &dyn Fn(&str) -> RunEnd) -> Result<Recovery> {
        // The common case at every start: nothing was left running. A read says so without
        // taking the write lock, so opening never waits for another process's write.
        let any: bool = self.conn().query_row(
            "SELECT EXISTS (SELECT 1 FROM runs WHERE status = 'running')",
            [],
            |r| r.get(0),
        )?;
        if !any {
            return Ok(Recovery::default());
        }
        self.write_tx(|tx| {
            let ids: Vec<(String, Option<String>)> = {
                let mut stmt = tx.prepare("SELECT id, conversation_id FROM runs WHERE status = 'running'")?;
                stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?.collect::<rusqlite::Result<_>>()?
            };
            let mut recovery = Recovery::default();
            let now = clock::now_rfc3339();
            for (run_id, conversation) in ids {
                let stop_reason = match verdict(&run_id) {
                    RunEnd::Alive => continue,
                    RunEnd::Interrupted => "interrupted",
                    RunEnd::Unsaved => "failed",
                };
                if let Some(conversation) = conversation {
                    recovery.tool_calls_closed += close_dangling_calls(tx, &conversation, &run_id, &now)?;
                }
                tx.execute(
                    "UPDATE runs SET status = 'failed', stop_reason = ?3, finished_at = ?2 WHERE id = ?1",
                    params![run_id, now, stop_reason],
                )?;
                recovery.runs_closed.push(run_id);
            }
            Ok(recovery)
        })
    }
}

fn close_dangling_calls(
    tx: &rusqlite::Connection,
    conversation: &str,
    run_id: &str,
    now: &str,
) -> Result<usize> {
    let messages: Vec<Message> = {
        let mut stmt = tx.prepare(&format!(
            "SELECT {} FROM messages WHERE conversation_id = ?1 AND run_id = ?2 ORDER BY id",
            crate::messages::COLUMNS
        ))?;
        stmt.query_map(params![conversation, run_id], crate::messages::from_row)?
            .collect::<rusqlite::Result<_>>()?
    };
    let answered: Vec<&str> = messages.iter().filter_map(|m| m.tool_call_id.as_deref()).collect();
    let mut closed = 0;
    for msg in messages.iter().filter(|m| m.role == Role::Assistant) {
        for id in msg.tool_call_ids() {
            if answered.contains(&id) {
                continue;
            }
            let content = json!({"status": "error", "error": "interrupted", "message": "the run was interrupted before this tool finished"});
            tx.execute(
                "INSERT INTO messages (conversation_id, role, content, tool_call_id, token_count, run_id, status, created_at)
                 VALUES (?1, 'tool', ?2, ?3, 0, ?4, 'interrupted', ?5)",
                params![conversation, content.to_string(), id, run_id, now],
            )?;
            crate::sync_record::message_inserted(tx, tx.last_insert_rowid())?;
            closed += 1;
        }
    }
    Ok(closed)
}
