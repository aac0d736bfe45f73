//! `vibe state read|write|append`: the skill-state operations from the shell
//! (docs/design.md#state-semantics).

use clap::{Args, Subcommand};
use serde_json::{Value, json};
use vibe_wire::command::{
    AppendStateRequest, ReadStateRequest, StateReadStatus, WriteStateRequest,
};

use crate::ctx::Ctx;
use crate::output::{pretty, print};

#[derive(Debug, Args)]
pub struct StateArgs {
    #[command(subcommand)]
    command: StateCommand,
}

#[derive(Debug, Subcommand)]
enum StateCommand {
    /// Print a skill's saved state (status "empty" when nothing is stored).
    Read {
        /// Skill id, e.g. lifecoach.
        #[arg(long)]
        skill: String,
        /// Only these sections, comma-separated (e.g. goals,journal).
        #[arg(long, value_delimiter = ',')]
        sections: Option<Vec<String>>,
    },
    /// Deep-merge a JSON object into one section (null removes a key).
    Write {
        #[arg(long)]
        skill: String,
        /// Top-level section, e.g. goals.
        #[arg(long)]
        section: String,
        /// A JSON object, e.g. '{"q1": {"title": "Run a 10k"}}'.
        #[arg(long)]
        data: String,
    },
    /// Put a JSON object first in a list (newest first); with --max-items, drop the oldest
    /// beyond that many (without it, nothing is dropped).
    Append {
        #[arg(long)]
        skill: String,
        /// Dotted path of the list, e.g. journal or progress.milestones.
        #[arg(long)]
        path: String,
        /// A JSON object, e.g. '{"text": "Slept well"}'.
        #[arg(long)]
        entry: String,
        /// Keep at most this many items (the oldest are dropped). Without it, nothing is.
        #[arg(long)]
        max_items: Option<usize>,
    },
    #[command(flatten)]
    History(super::state_history::HistoryCommand),
}

/// Parse a JSON argument, naming the flag and the position of the problem.
pub fn parse_json_arg(flag: &str, text: &str) -> anyhow::Result<Value> {
    vibe_core::input::parse_strict(text).map_err(|e| {
        anyhow::anyhow!(
            "{flag} is not valid JSON (line {}, column {}: {e}); quote it for your shell, e.g. {flag} '{{\"key\": \"value\"}}'",
            e.line(),
            e.column()
        )
    })
}

pub fn run(ctx: &Ctx, args: StateArgs) -> anyhow::Result<()> {
    match args.command {
        StateCommand::History(command) => return super::state_history::run(ctx, command),
        StateCommand::Read { skill, sections } => {
            let read = ctx.app()?.read_state(&ReadStateRequest { skill, sections })?;
            for warning in &read.warnings {
                eprintln!("warning: {}", crate::render::terminal_safe(warning));
            }
            print(ctx, &serde_json::to_value(&read)?, || {
                if read.status == StateReadStatus::Empty {
                    format!("{}: nothing saved yet", read.skill_id)
                } else {
                    pretty(&read.data)
                }
            });
        }
        StateCommand::Write { skill, section, data } => {
            let data = parse_json_arg("--data", &data)?;
            let written = ctx.app()?.write_state(&WriteStateRequest { skill, section, data })?;
            let mut value = serde_json::to_value(&written)?;
            value["status"] = json!("success");
            print(ctx, &value, || format!("saved {}.{}", written.skill_id, written.section));
        }
        StateCommand::Append { skill, path, entry, max_items } => {
            let entry = parse_json_arg("--entry", &entry)?;
            // No --max-items: keep everything (the limit is then only the list's own bound).
            let max_items = max_items.map(|n| u32::try_from(n).unwrap_or(u32::MAX));
            let out =
                ctx.app()?.append_state(&AppendStateRequest { skill, path, entry, max_items })?;
            let mut value = serde_json::to_value(&out)?;
            value["status"] = json!("success");
            print(ctx, &value, || {
                format!(
                    "added to {}.{} ({} items, {} dropped)",
                    out.skill_id, out.path, out.length, out.dropped
                )
            });
        }
    }
    Ok(())
}
