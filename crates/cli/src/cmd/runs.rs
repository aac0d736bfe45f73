//! `vibe runs list|show|replay`: the recorded agent runs. Rows come from the store's `runs`
//! table, events from `<data dir>/runs/<id>/events.jsonl` (`vibe_core::audit`); `replay`
//! prints them through the same printer as `vibe chat`, so a run reads as it did live.
//! Text layout lives in `runs_render`.

#[path = "runs_render.rs"]
mod render;

use std::io::Write;

use anyhow::anyhow;
use clap::{Args, Subcommand};
use serde_json::{Value, json};
use vibe_core::CoreError;
use vibe_core::audit::{self, RunLog};

use crate::ctx::Ctx;
use crate::output::print;
use crate::render::EventPrinter;

#[derive(Debug, Args)]
pub struct RunsArgs {
    #[command(subcommand)]
    pub command: RunsCommand,
}

#[derive(Debug, Subcommand)]
pub enum RunsCommand {
    /// List runs, newest first: id, conversation, status, stop reason, times, tokens.
    List {
        /// Only the runs of this conversation.
        #[arg(long, value_name = "ID")]
        conversation: Option<String>,
        /// How many runs to show at most.
        #[arg(long, default_value_t = 20, value_name = "N")]
        limit: usize,
    },
    /// One run: its row, event counts by type, rounds, tool calls and the files it wrote.
    Show {
        /// Run id (see `vibe runs list`).
        id: String,
    },
    /// Print a run's events as they were shown live; with --json, the stored event lines.
    Replay {
        /// Run id (see `vibe runs list`).
        id: String,
        /// Also print the model's reasoning (dimmed, on stderr).
        #[arg(long)]
        show_reasoning: bool,
    },
}

pub fn run(ctx: &Ctx, args: RunsArgs) -> anyhow::Result<()> {
    match args.command {
        RunsCommand::List { conversation, limit } => list(ctx, conversation.as_deref(), limit),
        RunsCommand::Show { id } => show(ctx, &id),
        RunsCommand::Replay { id, show_reasoning } => replay(ctx, &id, show_reasoning),
    }
}

fn list(ctx: &Ctx, conversation: Option<&str>, limit: usize) -> anyhow::Result<()> {
    if limit == 0 {
        return Err(anyhow!("--limit must be at least 1"));
    }
    let rows = ctx.open_store()?.list_runs(conversation, limit)?;
    let value = json!({ "runs": rows });
    print(ctx, &value, || render::list(&rows, conversation));
    Ok(())
}

fn show(ctx: &Ctx, id: &str) -> anyhow::Result<()> {
    let row = ctx.open_store()?.run(id)?;
    let (log, files) = match audit::read_events(&ctx.data_dir, id) {
        Ok(log) => (Some(log), audit::run_files(&ctx.data_dir, id)?),
        Err(CoreError::RunNotFound { .. }) if row.is_some() => (None, Vec::new()),
        Err(CoreError::RunNotFound { path, .. }) => return Err(unknown_run(ctx, id, &path)),
        Err(e) => return Err(e.into()),
    };
    let events_path = audit::run_dir(&ctx.data_dir, id)?.join(audit::EVENTS_FILE);
    let mut notices = log.as_ref().map(RunLog::notices).unwrap_or_default();
    if log.is_none() {
        notices.push(format!(
            "no events were recorded for this run ({} is missing)",
            events_path.display()
        ));
    }
    let value = json!({
        "id": id,
        "run": row,
        "events_path": events_path,
        "events": log.as_ref().map(RunLog::summary),
        "files": files,
        "notices": notices,
    });
    print(ctx, &value, || render::show(&value));
    Ok(())
}

fn replay(ctx: &Ctx, id: &str, show_reasoning: bool) -> anyhow::Result<()> {
    let log = match audit::read_events(&ctx.data_dir, id) {
        Ok(log) => log,
        Err(CoreError::RunNotFound { path, .. }) => return Err(unknown_run(ctx, id, &path)),
        Err(e) => return Err(e.into()),
    };
    if ctx.json {
        let mut out = std::io::stdout().lock();
        for line in &log.lines {
            // A closed pipe (`| head`) just ends the output.
            if writeln!(out, "{line}").is_err() {
                break;
            }
        }
        let _ = out.flush();
    } else {
        let mut printer = EventPrinter::new(false).show_reasoning(show_reasoning);
        for envelope in &log.events {
            printer.print(envelope);
        }
        printer.finish();
    }
    for notice in log.notices() {
        eprintln!("note: {notice}");
    }
    Ok(())
}

/// The error for an id with neither a row nor events, naming what was looked at and the fix.
fn unknown_run(ctx: &Ctx, id: &str, events_path: &std::path::Path) -> anyhow::Error {
    let known = ctx.open_store().ok().and_then(|s| s.run(id).ok().flatten()).is_some();
    if known {
        anyhow!(
            "run {id} recorded no events ({} is missing; the run may have failed before it started)",
            events_path.display()
        )
    } else {
        anyhow!(
            "no run with id \"{id}\" in {} (list runs with `vibe runs list`)",
            ctx.data_dir.display()
        )
    }
}

/// Usage totals of a run row, when recorded.
pub(crate) fn total_tokens(usage: Option<&Value>) -> Option<u64> {
    usage.and_then(|u| u.get("total_tokens")).and_then(Value::as_u64)
}
