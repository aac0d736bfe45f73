//! `vibe protocol list|status|start|later|resume|cancel|reminders|export`: coaching protocols
//! from the shell, over the same engine the chat service uses. Only adapts: opens the store
//! and the skill registry, calls `vibe_core::protocol::ProtocolEngine`, prints (text rendering
//! in `protocol_render`). Events a command causes are printed like `vibe chat` prints them.

#[path = "protocol_render.rs"]
mod render;

use std::path::PathBuf;
use std::sync::Arc;

use anyhow::{Context as _, anyhow};
use clap::{Args, Subcommand};
use serde_json::{Value, json};
use vibe_core::protocol::{ProtocolEngine, ReportFormat, render_report};
use vibe_skills::Registry;
use vibe_wire::Event;

use crate::ctx::Ctx;
use crate::output::print;

#[derive(Debug, Args)]
pub struct ProtocolArgs {
    #[command(subcommand)]
    command: ProtocolCommand,
}

#[derive(Debug, Subcommand)]
enum ProtocolCommand {
    /// Every valid protocol of every skill.
    List,
    /// Protocol runs, most recently active first (or one run with RUN_ID).
    Status {
        run_id: Option<String>,
        /// Only runs of this skill.
        #[arg(long)]
        skill: Option<String>,
    },
    /// Start protocol ID (pauses the skill's active protocol).
    Start {
        id: String,
        /// The skill defining ID, when several do.
        #[arg(long)]
        skill: Option<String>,
    },
    /// Decline an invitation to protocol ID for now.
    Later {
        id: String,
        #[arg(long)]
        skill: Option<String>,
    },
    /// Make a paused run active again.
    Resume { run_id: String },
    /// Cancel a run (its answers are kept).
    Cancel {
        run_id: String,
        #[arg(long)]
        reason: Option<String>,
    },
    /// Reminders of the active runs' current steps.
    Reminders {
        /// Only those due now and not answered.
        #[arg(long)]
        due: bool,
        /// Answer the reminder at HH:MM of RUN_ID with TEXT: --answer RUN_ID HH:MM TEXT.
        #[arg(long, num_args = 3, value_names = ["RUN_ID", "HH:MM", "TEXT"])]
        answer: Option<Vec<String>>,
    },
    /// Write a report of a run.
    Export {
        run_id: String,
        /// md, html, json or pdf (pdf needs --out).
        #[arg(long, default_value = "md")]
        format: String,
        /// Write here instead of stdout.
        #[arg(long)]
        out: Option<PathBuf>,
    },
}

fn engine(ctx: &Ctx) -> anyhow::Result<ProtocolEngine> {
    let store = Arc::new(ctx.open_store()?);
    let skills = Arc::new(Registry::open(crate::cmd::skills::config(ctx, None)?));
    let mut engine = ProtocolEngine::new(store, skills);
    let section = ctx.settings_section("chat")?.get("protocol").cloned().unwrap_or(Value::Null);
    if !section.is_null() {
        let settings = serde_json::from_value(section).map_err(|e| {
            anyhow!("settings.json: section \"chat.protocol\" is invalid: {e} (expected {{\"idle_timeout_minutes\": 60, \"recap_after_minutes\": 10}})")
        })?;
        engine = engine.with_settings(settings);
    }
    Ok(engine)
}

pub fn run(ctx: &Ctx, args: ProtocolArgs) -> anyhow::Result<()> {
    let engine = engine(ctx)?;
    match args.command {
        ProtocolCommand::List => {
            let list = engine.list();
            print(ctx, &json!({"protocols": list}), || render::list(&list));
        }
        ProtocolCommand::Status { run_id: Some(id), .. } => {
            let run = engine.run(&id)?;
            print(ctx, &serde_json::to_value(&run)?, || render::runs(std::slice::from_ref(&run)));
        }
        ProtocolCommand::Status { run_id: None, skill } => {
            let runs = engine.runs(skill.as_deref())?;
            print(ctx, &json!({"runs": runs}), || render::runs(&runs));
        }
        ProtocolCommand::Start { id, skill } => {
            let (run, events) = engine.start(skill.as_deref(), &id, None, None)?;
            events_out(ctx, &serde_json::to_value(&run)?, &events);
        }
        ProtocolCommand::Later { id, skill } => {
            let skill = engine.later(skill.as_deref(), &id)?;
            print(ctx, &json!({"protocol_id": id, "skill": skill, "status": "later"}), || {
                format!("{id}: later (invite again whenever you like)")
            });
        }
        ProtocolCommand::Resume { run_id } => {
            let (run, events) = engine.resume(&run_id)?;
            events_out(ctx, &serde_json::to_value(&run)?, &events);
        }
        ProtocolCommand::Cancel { run_id, reason } => {
            let (run, events) = engine.cancel(None, Some(&run_id), reason.as_deref())?;
            events_out(ctx, &serde_json::to_value(&run)?, &events);
        }
        ProtocolCommand::Reminders { due, answer } => {
            if let Some(parts) = answer {
                let [run_id, at, text] = parts.as_slice() else {
                    return Err(anyhow!("--answer takes RUN_ID HH:MM TEXT"));
                };
                let run = engine.answer_reminder(run_id, at, text)?;
                print(ctx, &serde_json::to_value(&run)?, || format!("saved the answer to {at}"));
                return Ok(());
            }
            let items = if due { engine.due_reminders()? } else { engine.reminders()? };
            print(ctx, &json!({"reminders": items}), || render::reminders(&items));
        }
        ProtocolCommand::Export { run_id, format, out } => {
            let format = ReportFormat::parse(&format).ok_or_else(|| {
                anyhow!("--format {format} is not supported: use md, html, json or pdf")
            })?;
            if format.is_binary() && out.is_none() {
                return Err(anyhow!(
                    "--format pdf writes a file: add --out FILE (e.g. --out report.pdf)"
                ));
            }
            let run = engine.run(&run_id)?;
            let source = engine.definition(&run)?;
            let now = vibe_store::now_rfc3339();
            let report = render_report(&source.def, &run, &now, format)?;
            match out {
                Some(path) => {
                    std::fs::write(&path, &report).with_context(|| {
                        format!("cannot write the report to {}", path.display())
                    })?;
                    print(ctx, &json!({"run_id": run_id, "out": path}), || {
                        format!("wrote {}", path.display())
                    });
                }
                None => crate::output::out_line(String::from_utf8_lossy(&report).trim_end()),
            }
        }
    }
    Ok(())
}

/// The run as JSON with `--json` (plus its events); the events' status lines otherwise.
fn events_out(ctx: &Ctx, run: &Value, events: &[Event]) {
    let value = json!({"run": run, "events": events});
    print(ctx, &value, || render::events(events));
}
