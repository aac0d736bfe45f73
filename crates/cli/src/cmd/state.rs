//! `vibe state read|write|append`: the skill-state operations from the shell
//! (docs/design.md#state-semantics).

use anyhow::Context as _;
use clap::{Args, Subcommand};
use serde_json::{Value, json};
use vibe_store::LOCAL_USER;

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
    /// Put a JSON object first in a list (newest first), keeping at most --max-items.
    Append {
        #[arg(long)]
        skill: String,
        /// Dotted path of the list, e.g. journal or progress.milestones.
        #[arg(long)]
        path: String,
        /// A JSON object, e.g. '{"text": "Slept well"}'.
        #[arg(long)]
        entry: String,
        /// Keep at most this many items (the oldest are dropped).
        #[arg(long, default_value_t = vibe_store::DEFAULT_MAX_ITEMS)]
        max_items: usize,
    },
}

/// Parse a JSON argument, naming the flag and the position of the problem.
pub fn parse_json_arg(flag: &str, text: &str) -> anyhow::Result<Value> {
    serde_json::from_str(text).map_err(|e| {
        anyhow::anyhow!(
            "{flag} is not valid JSON (line {}, column {}: {e}); quote it for your shell, e.g. {flag} '{{\"key\": \"value\"}}'",
            e.line(),
            e.column()
        )
    })
}

pub fn run(ctx: &Ctx, args: StateArgs) -> anyhow::Result<()> {
    match args.command {
        StateCommand::Read { skill, sections } => {
            let store = ctx.open_store()?;
            let read = store.read_state(LOCAL_USER, &skill, sections.as_deref())?;
            let value = serde_json::to_value(&read).context("serialising state")?;
            print(ctx, &value, || {
                if read.status == vibe_store::StateStatus::Empty {
                    format!("{skill}: nothing saved yet")
                } else {
                    pretty(&read.data)
                }
            });
        }
        StateCommand::Write { skill, section, data } => {
            let data = parse_json_arg("--data", &data)?;
            let store = ctx.open_store()?;
            store.write_state(LOCAL_USER, &skill, &section, data)?;
            let value = json!({"status": "success", "skill_id": skill, "section": section});
            print(ctx, &value, || format!("saved {skill}.{section}"));
        }
        StateCommand::Append { skill, path, entry, max_items } => {
            let entry = parse_json_arg("--entry", &entry)?;
            let store = ctx.open_store()?;
            let out = store.append_to_list(LOCAL_USER, &skill, &path, entry, max_items)?;
            let mut value = serde_json::to_value(&out).context("serialising result")?;
            value["status"] = json!("success");
            print(ctx, &value, || {
                format!("added to {skill}.{path} ({} items, {} dropped)", out.length, out.dropped)
            });
        }
    }
    Ok(())
}
