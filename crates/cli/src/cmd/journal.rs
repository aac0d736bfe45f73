//! `vibe checkin` and `vibe journal add|list|edit|rm`: the person's journal from the command
//! line (docs/ui.md#journal). Thin: each is one `App` journal command with the same checks as
//! the app's; this parses, calls and prints (`--json` prints the wire DTOs).

use clap::{Args, Subcommand};
use vibe_wire::command::{
    CheckinRequest, JournalAddRequest, JournalEditRequest, JournalEntryView, JournalListRequest,
    JournalRemoveRequest, JournalSource,
};

use crate::ctx::Ctx;
use crate::output::{print, safety_notice};

/// `vibe checkin`: how today feels, in seconds.
#[derive(Debug, Args)]
pub struct CheckinArgs {
    /// Mood from 1 (very low) to 5 (very good).
    #[arg(long)]
    mood: u8,
    /// Feelings, comma-separated (e.g. 平静,专注).
    #[arg(long, value_delimiter = ',')]
    feelings: Vec<String>,
    /// One line about the day.
    #[arg(long)]
    note: Option<String>,
    /// The day it is about, YYYY-MM-DD (default: today).
    #[arg(long)]
    date: Option<String>,
}

#[derive(Debug, Args)]
pub struct JournalArgs {
    #[command(subcommand)]
    command: JournalCommand,
}

#[derive(Debug, Subcommand)]
enum JournalCommand {
    /// Write an entry (Markdown).
    Add {
        /// The entry's text.
        text: String,
        #[arg(long)]
        mood: Option<u8>,
        #[arg(long, value_delimiter = ',')]
        feelings: Vec<String>,
        #[arg(long, value_delimiter = ',')]
        tags: Vec<String>,
        /// YYYY-MM-DD (default: today).
        #[arg(long)]
        date: Option<String>,
    },
    /// Entries newest first: yours, your check-ins and the coach's.
    List {
        /// Only entries whose text, feelings or tags contain this.
        #[arg(long)]
        query: Option<String>,
        /// From this day on (YYYY-MM-DD).
        #[arg(long)]
        since: Option<String>,
        /// Up to this day (YYYY-MM-DD).
        #[arg(long)]
        until: Option<String>,
        #[arg(long)]
        limit: Option<u32>,
    },
    /// Change an entry's fields (those given; the others stay).
    Edit {
        /// The entry's id (from `vibe journal list`).
        id: String,
        #[arg(long)]
        text: Option<String>,
        #[arg(long)]
        mood: Option<u8>,
        #[arg(long, value_delimiter = ',')]
        feelings: Option<Vec<String>>,
        #[arg(long, value_delimiter = ',')]
        tags: Option<Vec<String>>,
        #[arg(long)]
        date: Option<String>,
    },
    /// Remove an entry (`vibe state undo --skill lifecoach` brings it back).
    Rm { id: String },
}

pub fn checkin(ctx: &Ctx, args: CheckinArgs) -> anyhow::Result<()> {
    let CheckinArgs { mood, feelings, note, date } = args;
    let saved = ctx.app()?.checkin(&CheckinRequest { mood, feelings, note, date })?;
    print(ctx, &serde_json::to_value(&saved)?, || format!("checked in: {}", line(&saved.entry)));
    safety_notice(ctx, saved.safety.as_ref());
    Ok(())
}

pub fn run(ctx: &Ctx, args: JournalArgs) -> anyhow::Result<()> {
    let app = ctx.app()?;
    let (value, human) = match args.command {
        JournalCommand::Add { text, mood, feelings, tags, date } => {
            let saved = app.journal_add(&JournalAddRequest { date, mood, feelings, text, tags })?;
            safety_notice(ctx, saved.safety.as_ref());
            (serde_json::to_value(&saved)?, format!("added: {}", line(&saved.entry)))
        }
        JournalCommand::List { query, since, until, limit } => {
            let list = app.journal_list(&JournalListRequest { query, since, until, limit })?;
            let human = if list.entries.is_empty() {
                "no journal entries yet: `vibe checkin --mood 4` or `vibe journal add \"…\"`".into()
            } else {
                list.entries.iter().map(block).collect::<Vec<_>>().join("\n\n")
            };
            (serde_json::to_value(&list)?, human)
        }
        JournalCommand::Edit { id, text, mood, feelings, tags, date } => {
            let request = JournalEditRequest { id, date, mood, feelings, text, tags };
            let saved = app.journal_edit(&request)?;
            safety_notice(ctx, saved.safety.as_ref());
            (serde_json::to_value(&saved)?, format!("edited: {}", line(&saved.entry)))
        }
        JournalCommand::Rm { id } => {
            let out = app.journal_remove(&JournalRemoveRequest { id })?;
            let human =
                format!("removed: {} (undo: vibe state undo --skill lifecoach)", line(&out.entry));
            (serde_json::to_value(&out)?, human)
        }
    };
    print(ctx, &value, || human);
    Ok(())
}

/// `2026-11-28 · mood 4/5 · 平静, 专注 · first line`
fn line(entry: &JournalEntryView) -> String {
    let mut parts = vec![entry.date.clone()];
    if let Some(m) = entry.mood {
        parts.push(format!("mood {m}/5"));
    }
    if !entry.feelings.is_empty() {
        parts.push(entry.feelings.join(", "));
    }
    if let Some(first) = entry.text.lines().find(|l| !l.trim().is_empty()) {
        parts.push(first.trim().to_string());
    }
    parts.join(" · ")
}

/// An entry in the list: its line, who wrote it and its id, then the rest of its text.
fn block(entry: &JournalEntryView) -> String {
    let by = match entry.source {
        JournalSource::Checkin => "check-in",
        JournalSource::Person => "you",
        JournalSource::Coach => "coach",
    };
    let mut out = format!("{}\n  {by} · id {}", line(entry), entry.id);
    if !entry.tags.is_empty() {
        out.push_str(&format!(" · tags {}", entry.tags.join(", ")));
    }
    let rest: Vec<&str> = entry.text.lines().skip_while(|l| l.trim().is_empty()).skip(1).collect();
    for l in rest {
        out.push_str(&format!("\n  {l}"));
    }
    out
}
