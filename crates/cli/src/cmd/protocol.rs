//! `vibe protocol list|status|start|later|resume|cancel|reminders|export`: coaching protocols
//! from the shell, over the same engine the chat service uses. Only adapts: each subcommand is
//! one `App` protocol command; it prints the wire DTOs (text rendering
//! in `protocol_render`). Events a command causes are printed like `vibe chat` prints them.

#[path = "protocol_render.rs"]
mod render;

use std::path::PathBuf;

use anyhow::{Context as _, anyhow};
use clap::{Args, Subcommand};
use serde_json::json;
use vibe_wire::command::{
    AnswerReminderRequest, CancelProtocolRequest, ListProtocolRunsRequest, ProtocolReportRequest,
    ProtocolRequest, ProtocolRunChange, ProtocolRunRequest, ProtocolRunStatus, RemindersRequest,
    ReportFormatKind,
};

use crate::ctx::Ctx;
use crate::output::{print, safety_notice};

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

pub fn run(ctx: &Ctx, args: ProtocolArgs) -> anyhow::Result<()> {
    let app = ctx.app()?;
    match args.command {
        ProtocolCommand::List => {
            let list = app.list_protocols();
            print(ctx, &serde_json::to_value(&list)?, || render::list(&list.protocols));
        }
        ProtocolCommand::Status { run_id: Some(run_id), .. } => {
            let run = app.get_protocol_run(&ProtocolRunRequest { run_id })?;
            print(ctx, &serde_json::to_value(&run)?, || render::runs(std::slice::from_ref(&run)));
        }
        ProtocolCommand::Status { run_id: None, skill } => {
            let list = app.list_protocol_runs(&ListProtocolRunsRequest { skill })?;
            print(ctx, &serde_json::to_value(&list)?, || render::runs(&list.runs));
        }
        ProtocolCommand::Start { id, skill } => {
            changed(ctx, &app.start_protocol(&ProtocolRequest { id, skill })?)?;
        }
        ProtocolCommand::Later { id, skill } => {
            let later = app.later_protocol(&ProtocolRequest { id, skill })?;
            let mut value = serde_json::to_value(&later)?;
            value["status"] = json!("later");
            print(ctx, &value, || {
                format!("{}: later (invite again whenever you like)", later.protocol_id)
            });
        }
        ProtocolCommand::Resume { run_id } => {
            changed(ctx, &app.resume_protocol(&ProtocolRunRequest { run_id })?)?;
        }
        ProtocolCommand::Cancel { run_id, reason } => {
            changed(ctx, &app.cancel_protocol(&CancelProtocolRequest { run_id, reason })?)?;
        }
        ProtocolCommand::Reminders { due, answer } => {
            if let Some(parts) = answer {
                let [run_id, at, text] = parts.as_slice() else {
                    return Err(anyhow!("--answer takes RUN_ID HH:MM TEXT"));
                };
                let request = AnswerReminderRequest {
                    run_id: run_id.clone(),
                    at: at.clone(),
                    text: text.clone(),
                };
                let answered = app.answer_reminder(&request)?;
                print(ctx, &serde_json::to_value(&answered)?, || {
                    let mut out = format!("saved the answer to {at}");
                    if answered.run.status == ProtocolRunStatus::Paused && answered.safety.is_some()
                    {
                        out.push_str(&format!(
                            "\nthe protocol is paused; continue when you are ready: vibe protocol resume {}",
                            answered.run.id
                        ));
                    }
                    out
                });
                safety_notice(ctx, answered.safety.as_ref());
                return Ok(());
            }
            let list = app.protocol_reminders(&RemindersRequest { due })?;
            print(ctx, &serde_json::to_value(&list)?, || render::reminders(&list.reminders));
        }
        ProtocolCommand::Export { run_id, format, out } => {
            let format = match format.as_str() {
                "md" | "markdown" => ReportFormatKind::Md,
                "html" => ReportFormatKind::Html,
                "json" => ReportFormatKind::Json,
                "pdf" => ReportFormatKind::Pdf,
                _ => {
                    return Err(anyhow!(
                        "--format {format} is not supported: use md, html, json or pdf"
                    ));
                }
            };
            if format == ReportFormatKind::Pdf && out.is_none() {
                return Err(anyhow!(
                    "--format pdf writes a file: add --out FILE (e.g. --out report.pdf)"
                ));
            }
            let report =
                app.protocol_report(&ProtocolReportRequest { run_id: run_id.clone(), format })?;
            match out {
                Some(path) => {
                    std::fs::write(&path, &report).with_context(|| {
                        format!("cannot write the report to {}", path.display())
                    })?;
                    print(ctx, &json!({"run_id": run_id, "out": path}), || {
                        format!("wrote {}", path.display())
                    });
                }
                None => crate::output::out_line(&crate::render::terminal_safe(
                    String::from_utf8_lossy(&report).trim_end(),
                )),
            }
        }
    }
    Ok(())
}

/// The run and its events as JSON with `--json`; the events' status lines otherwise.
fn changed(ctx: &Ctx, change: &ProtocolRunChange) -> anyhow::Result<()> {
    print(ctx, &serde_json::to_value(change)?, || render::events(&change.events));
    Ok(())
}
