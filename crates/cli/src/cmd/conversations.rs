//! `vibe conversations list|show|delete`: the stored conversations and their messages.

use std::sync::Arc;

use clap::{Args, Subcommand};
use serde_json::json;
use vibe_store::{LOCAL_USER, Role};

use crate::ctx::Ctx;
use crate::output::print;

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
    /// Delete a conversation with its messages and runs.
    Delete { id: String },
}

pub fn run(ctx: &Ctx, args: ConversationsArgs) -> anyhow::Result<()> {
    let store = Arc::new(ctx.open_store()?);
    match args.command {
        ConversationsCommand::List => {
            let list = store.list_conversations(LOCAL_USER)?;
            print(ctx, &json!({ "conversations": list }), || {
                if list.is_empty() {
                    return "no conversations yet — start one with `vibe chat \"...\"`".into();
                }
                list.iter()
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
            });
        }
        ConversationsCommand::Show { id } => {
            let conversation = store.conversation(&id)?;
            let messages = store.messages(&id)?;
            print(ctx, &json!({ "conversation": conversation, "messages": messages }), || {
                let mut out = format!(
                    "{} — {} (skill: {})\n",
                    conversation.id,
                    conversation.title.as_deref().unwrap_or(""),
                    conversation.skill.as_deref().unwrap_or("none")
                );
                for m in &messages {
                    let who = match m.role {
                        Role::User => "you",
                        Role::Assistant => "coach",
                        Role::Tool => "tool",
                        Role::System => "system",
                    };
                    let mark = if m.interrupted { " (interrupted)" } else { "" };
                    let calls = m.tool_call_ids();
                    let text = if calls.is_empty() {
                        m.content.clone()
                    } else {
                        format!("{} [calls {}]", m.content, calls.join(", "))
                    };
                    out.push_str(&format!("\n{who}{mark}: {text}"));
                }
                out
            });
        }
        ConversationsCommand::Delete { id } => {
            store.delete_conversation(&id)?;
            print(ctx, &json!({"status": "success", "deleted": id}), || format!("deleted {id}"));
        }
    }
    Ok(())
}
