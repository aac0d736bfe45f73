//! `vibe runs list|show|replay`: the recorded agent runs. Rows come from the store's `runs`
//! table, events from `<data dir>/runs/<id>/events.jsonl` (`vibe_core::audit`); `replay`
//! prints them through the same printer as `vibe chat`, so a run reads as it did live.
//! Text layout lives in `runs_render`.

#[path = "runs_render.rs"]
mod render;

use std::io::Write;

use anyhow::anyhow;
use clap::{Args, Subcommand};
use vibe_core::app::{App, AppError};
use vibe_core::{CoreError, RunLogError};
use vibe_wire::command::{ListRunsRequest, ReplayRunRequest, ShowRunRequest};

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
    let request = ListRunsRequest {
        conversation_id: conversation.map(str::to_string),
        limit: u32::try_from(limit).unwrap_or(u32::MAX),
    };
    let list = ctx.app()?.list_runs(&request)?;
    let value = serde_json::to_value(&list)?;
    print(ctx, &value, || render::list(&list.runs, conversation));
    Ok(())
}

fn show(ctx: &Ctx, id: &str) -> anyhow::Result<()> {
    let app = ctx.app()?;
    let detail = match app.show_run(&ShowRunRequest { id: id.to_string() }) {
        Ok(detail) => detail,
        Err(AppError::Core(CoreError::RunLog(RunLogError::RunNotFound { path, .. }))) => {
            return Err(unknown_run(ctx, &app, id, &path));
        }
        Err(e) => return Err(e.into()),
    };
    let value = serde_json::to_value(&detail)?;
    print(ctx, &value, || render::show(&value));
    Ok(())
}

fn replay(ctx: &Ctx, id: &str, show_reasoning: bool) -> anyhow::Result<()> {
    let app = ctx.app()?;
    let replay = match app.replay_run(&ReplayRunRequest { id: id.to_string() }) {
        Ok(replay) => replay,
        Err(AppError::Core(CoreError::RunLog(RunLogError::RunNotFound { path, .. }))) => {
            return Err(unknown_run(ctx, &app, id, &path));
        }
        Err(e) => return Err(e.into()),
    };
    if ctx.json {
        let mut out = std::io::stdout().lock();
        for envelope in &replay.events {
            let line = serde_json::to_string(envelope)?;
            // A closed pipe (`| head`) just ends the output.
            if writeln!(out, "{line}").is_err() {
                break;
            }
        }
        let _ = out.flush();
    } else {
        let mut printer = EventPrinter::new(false).show_reasoning(show_reasoning);
        for envelope in &replay.events {
            printer.print(envelope);
        }
        printer.finish();
    }
    for notice in &replay.notices {
        crate::output::err_line(&format!("note: {notice}"));
    }
    Ok(())
}

/// The error for an id with neither a row nor events, naming what was looked at and the fix.
fn unknown_run(ctx: &Ctx, app: &App, id: &str, events_path: &std::path::Path) -> anyhow::Error {
    // `show_run` answers a run known by its row alone (no events).
    let request = ShowRunRequest { id: id.to_string() };
    let known = app.show_run(&request).ok().and_then(|detail| detail.run).is_some();
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
