//! `vibe conversations list|show|rename|search|delete`: the stored conversations and their
//! messages, through the app's conversation commands; `--json` prints their wire DTOs.

use clap::{Args, Subcommand};
use vibe_wire::command::{
    ConversationDetail, ConversationList, DeleteConversationRequest, GetConversationRequest,
    MessageRole, RenameConversationRequest, SearchConversationsRequest,
};

use crate::ctx::Ctx;
use crate::output::print;
use crate::render::safety_lines;

#[derive(Debug, Args)]
pub struct ConversationsArgs {
    #[command(subcommand)]
    command: ConversationsCommand,
}

#[derive(Debug, Subcommand)]
enum ConversationsCommand {
    /// Conversations, most recent first.
    List,
    /// One conversation with its messages.
    Show { id: String },
    /// Give a conversation a title (an empty one clears it).
    Rename { id: String, title: String },
    /// Conversations whose title or messages contain TEXT.
    Search {
        #[arg(value_name = "TEXT")]
        query: String,
    },
    /// Delete a conversation with its messages and runs.
    Delete { id: String },
}

pub fn run(ctx: &Ctx, args: ConversationsArgs) -> anyhow::Result<()> {
    let app = ctx.app()?;
    match args.command {
        ConversationsCommand::List => {
            let list = app.list_conversations()?;
            print(ctx, &serde_json::to_value(&list)?, || {
                if list.conversations.is_empty() {
                    return "no conversations yet — start one with `vibe chat \"...\"`".into();
                }
                lines(&list)
            });
        }
        ConversationsCommand::Search { query } => {
            let list = app.search_conversations(&SearchConversationsRequest { query })?;
            print(ctx, &serde_json::to_value(&list)?, || {
                if list.conversations.is_empty() {
                    return "no conversation matches".into();
                }
                lines(&list)
            });
        }
        ConversationsCommand::Show { id } => {
            let detail = app.get_conversation(&GetConversationRequest { id })?;
            print(ctx, &serde_json::to_value(&detail)?, || detail_text(&detail));
        }
        ConversationsCommand::Rename { id, title } => {
            let renamed = app.rename_conversation(&RenameConversationRequest { id, title })?;
            print(ctx, &serde_json::to_value(&renamed)?, || {
                format!("renamed {} to \"{}\"", renamed.id, renamed.title.as_deref().unwrap_or(""))
            });
        }
        ConversationsCommand::Delete { id } => {
            let deleted = app.delete_conversation(&DeleteConversationRequest { id })?;
            print(ctx, &serde_json::to_value(&deleted)?, || {
                let runs = match deleted.runs_removed.len() {
                    0 => String::new(),
                    n => format!(" and its {n} run folder(s)"),
                };
                format!("deleted {}{runs}", deleted.deleted)
            });
        }
    }
    Ok(())
}

/// A conversation as text: its messages, a marked message of the person flagged where it
/// stands, and the crisis contacts after them when one is marked (docs/safety.md).
fn detail_text(detail: &ConversationDetail) -> String {
    let c = &detail.conversation;
    let mut out = format!(
        "{} — {} (skill: {})\n",
        c.id,
        c.title.as_deref().unwrap_or(""),
        c.skill.as_deref().unwrap_or("none")
    );
    for m in &detail.messages {
        let who = match m.role {
            MessageRole::User => "you",
            MessageRole::Assistant => "coach",
            MessageRole::Tool => "tool",
            MessageRole::System => "system",
        };
        let mut mark = if m.interrupted { " (interrupted)".to_string() } else { String::new() };
        if let Some(safety) = m.safety {
            let about = safety.category.map(|c| format!(": {c}")).unwrap_or_default();
            mark.push_str(&format!(" (⚠ {}{about})", safety.risk));
        }
        let calls: Vec<&str> = m
            .tool_calls
            .as_ref()
            .and_then(|v| v.as_array())
            .map(|calls| {
                calls.iter().filter_map(|c| c.get("id").and_then(|i| i.as_str())).collect()
            })
            .unwrap_or_default();
        let text = if calls.is_empty() {
            m.content.clone()
        } else {
            format!("{} [calls {}]", m.content, calls.join(", "))
        };
        out.push_str(&format!("\n{who}{mark}: {text}"));
    }
    if let Some(contacts) = &detail.crisis_resources {
        let newest = detail.messages.iter().rev().find_map(|m| m.safety);
        let category = newest.and_then(|s| s.category);
        out.push('\n');
        for line in safety_lines(category, &contacts.resources, &contacts.locale) {
            out.push_str(&format!("\n{line}"));
        }
    }
    out
}

fn lines(list: &ConversationList) -> String {
    list.conversations
        .iter()
        .map(|c| {
            format!(
                "{}  {}  {}  {}",
                c.id,
                c.updated_at,
                c.skill.as_deref().unwrap_or("-"),
                c.title.as_deref().unwrap_or("")
            )
        })
        .collect::<Vec<_>>()
        .join("\n")
}
