//! `vibe memory list|show|edit|forget|export|extract|status|on|off`: the person's memory (docs/memory.md)
//! from the command line. Thin: each subcommand is one `App` memory command; this parses,
//! calls, and prints the wire DTOs through `memory_render`.

use anyhow::Context as _;
use clap::{Args, Subcommand};
use vibe_wire::command::{
    EditMemoryRequest, ExtractMemoryRequest, ListMemoryRequest, MemoryItemRequest, MemoryKind,
    SetMemoryEnabledRequest,
};

use crate::cmd::llm::EndpointArgs;
use crate::cmd::memory_render as render;
use crate::ctx::Ctx;
use crate::output::print;

#[derive(Debug, Args)]
pub struct MemoryArgs {
    #[command(subcommand)]
    command: MemoryCommand,
}

#[derive(Debug, Subcommand)]
enum MemoryCommand {
    /// What your coach remembers, newest first.
    List {
        /// Only this kind: facts, concerns, goals, patterns, pain_points.
        #[arg(long)]
        kind: Option<String>,
    },
    /// One item with where it came from and the versions it replaced.
    Show {
        /// The item's id (or its first characters, at least 4).
        id: String,
    },
    /// Rewrite an item in your own words (later conversations keep them).
    Edit { id: String, text: String },
    /// Forget an item for good: it leaves every prompt and never comes back from the same messages.
    Forget { id: String },
    /// Every item as one JSON document (to keep, read or move elsewhere).
    Export,
    /// Read the conversations' new messages into memory now (one model call per conversation).
    Extract {
        /// Only this conversation (else every conversation with unread messages; with --again,
        /// every conversation).
        #[arg(long, value_name = "ID")]
        conversation: Option<String>,
        /// Read every message again, not only the new ones (merges; never brings back what you forgot).
        #[arg(long)]
        again: bool,
        #[command(flatten)]
        endpoint: EndpointArgs,
    },
    /// Whether memory is on, what is not read yet, and the wait after failed passes.
    Status,
    /// Turn memory on (extraction runs, skills see what is remembered).
    On,
    /// Turn memory off: nothing is extracted and nothing remembered reaches a prompt.
    Off,
}

pub fn run(ctx: &Ctx, args: MemoryArgs) -> anyhow::Result<()> {
    match args.command {
        MemoryCommand::Extract { conversation, again, endpoint } => {
            // Opens the app with the endpoint's flags.
            let request = ExtractMemoryRequest { conversation_id: conversation, again };
            extract(ctx, request, &endpoint)?;
        }
        MemoryCommand::List { kind } => {
            let kind = kind.as_deref().map(parse_kind).transpose()?;
            let list = ctx.app()?.list_memory(&ListMemoryRequest { kind })?;
            print(ctx, &serde_json::to_value(&list)?, || render::list(&list.items, list.memory));
        }
        MemoryCommand::Show { id } => {
            let item = ctx.app()?.show_memory_item(&MemoryItemRequest { id })?;
            print(ctx, &serde_json::to_value(&item)?, || render::show(&item));
        }
        MemoryCommand::Edit { id, text } => {
            let item = ctx.app()?.edit_memory_item(&EditMemoryRequest { id, text })?;
            print(ctx, &serde_json::to_value(&item)?, || {
                format!("edited {}", render::short(&item.id))
            });
        }
        MemoryCommand::Forget { id } => {
            let out = ctx.app()?.forget_memory_item(&MemoryItemRequest { id })?;
            print(ctx, &serde_json::to_value(&out)?, || {
                format!("forgotten {}", render::short(&out.forgotten))
            });
        }
        MemoryCommand::Export => {
            let doc = serde_json::to_value(ctx.app()?.export_memory()?)?;
            print(ctx, &doc, || crate::output::pretty(&doc));
        }
        MemoryCommand::Status => {
            let status = ctx.app()?.memory_status()?;
            print(ctx, &serde_json::to_value(&status)?, || render::status(&status));
        }
        command @ (MemoryCommand::On | MemoryCommand::Off) => {
            let on = matches!(command, MemoryCommand::On);
            let switch = ctx.app()?.set_memory_enabled(&SetMemoryEnabledRequest { on })?;
            print(ctx, &serde_json::to_value(switch)?, || render::switch(switch.memory));
        }
    }
    Ok(())
}

/// `--kind NAME` as a memory kind, or an error listing the kinds.
fn parse_kind(name: &str) -> anyhow::Result<MemoryKind> {
    MemoryKind::from_name(name).ok_or_else(|| {
        let all: Vec<&str> = MemoryKind::ALL.iter().map(|k| k.as_str()).collect();
        anyhow::anyhow!("--kind {name:?} is not a memory kind: use one of {}", all.join(", "))
    })
}

fn extract(
    ctx: &Ctx,
    request: ExtractMemoryRequest,
    endpoint: &EndpointArgs,
) -> anyhow::Result<()> {
    let app = ctx.open_app(endpoint.overrides())?;
    let runtime = tokio::runtime::Runtime::new().context("cannot start the async runtime")?;
    let out = runtime.block_on(app.extract_memory(&request))?;
    for notice in &out.notices {
        crate::output::err_line(&format!("notice: {notice}"));
    }
    if out.passes.is_empty() {
        print(ctx, &serde_json::to_value(&out)?, || "nothing new to read".into());
        return Ok(());
    }
    print(ctx, &serde_json::to_value(&out)?, || render::passes(&out.passes));
    let failed = out.passes.iter().filter(|p| p.failed()).count();
    if failed > 0 {
        anyhow::bail!(
            "{failed} extraction pass(es) changed nothing (see the reasons above and `vibe runs show RUN_ID`)"
        );
    }
    Ok(())
}
