//! History selection (docs/design.md#history): the newest messages of a conversation that fit a
//! message count or a token budget, such that no tool result is returned without its assistant tool
//! call, no assistant tool call without all its results, and the newest user message is never
//! dropped. Under a token budget, an old tool exchange that does not fit is skipped so older plain
//! conversation can still be kept.

use serde::{Deserialize, Serialize};

use crate::Store;
use crate::error::Result;
use crate::messages::{Message, Role};

/// How much history to return.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum HistoryLimit {
    /// At most this many messages.
    Messages(usize),
    /// At most this many tokens (by each message's stored `token_count`).
    Tokens(u32),
}

/// A run of messages that must be kept or dropped together.
struct Unit<'a> {
    messages: Vec<&'a Message>,
    tokens: u64,
    has_tools: bool,
    has_user: bool,
}

/// Group `messages` (oldest first) into whole units, dropping orphan tool results and
/// assistant tool calls missing any result.
fn units(messages: &[Message]) -> Vec<Unit<'_>> {
    let mut done: Vec<Unit<'_>> = Vec::new();
    let mut open: Option<(Unit<'_>, Vec<&str>)> = None;
    for msg in messages {
        if msg.role == Role::Tool {
            if let Some((unit, pending)) = open.as_mut()
                && let Some(pos) =
                    pending.iter().position(|id| Some(*id) == msg.tool_call_id.as_deref())
            {
                pending.remove(pos);
                unit.tokens += u64::from(msg.token_count);
                unit.messages.push(msg);
                if pending.is_empty()
                    && let Some((unit, _)) = open.take()
                {
                    done.push(unit);
                }
            }
            // Otherwise an orphan result: never returned.
            continue;
        }
        // A new non-tool message: an exchange still missing results is incomplete; drop it.
        open = None;
        let ids = msg.tool_call_ids();
        let unit = Unit {
            messages: vec![msg],
            tokens: u64::from(msg.token_count),
            has_tools: !ids.is_empty(),
            has_user: msg.role == Role::User,
        };
        if ids.is_empty() {
            done.push(unit);
        } else {
            open = Some((unit, ids));
        }
    }
    done
}

/// Select from `messages` (oldest first). Returns the selection (oldest first) and whether the
/// limit was reached (false means every whole unit fitted).
pub fn select_history(messages: &[Message], limit: HistoryLimit) -> (Vec<Message>, bool) {
    let all = units(messages);
    let newest_user = all.iter().rposition(|u| u.has_user);
    let mut keep = vec![false; all.len()];
    let (mut used_msgs, mut used_tokens, mut limited) = (0usize, 0u64, false);
    if let Some(i) = newest_user {
        keep[i] = true;
        used_msgs += all[i].messages.len();
        used_tokens += all[i].tokens;
    }
    for (i, unit) in all.iter().enumerate().rev() {
        if keep[i] {
            continue;
        }
        let fits = match limit {
            HistoryLimit::Messages(n) => used_msgs + unit.messages.len() <= n,
            HistoryLimit::Tokens(budget) => used_tokens + unit.tokens <= u64::from(budget),
        };
        if fits {
            keep[i] = true;
            used_msgs += unit.messages.len();
            used_tokens += unit.tokens;
            continue;
        }
        limited = true;
        let skip_old_tools = matches!(limit, HistoryLimit::Tokens(_)) && unit.has_tools;
        if !skip_old_tools {
            break;
        }
    }
    let selected = all
        .iter()
        .zip(keep)
        .filter(|(_, k)| *k)
        .flat_map(|(u, _)| u.messages.iter().map(|m| (*m).clone()))
        .collect();
    (selected, limited)
}

impl Store {
    /// The history of a conversation within `limit` (see the module docs), oldest first.
    /// Reads a window of the newest rows and widens it only while everything fits.
    pub fn history(&self, conversation_id: &str, limit: HistoryLimit) -> Result<Vec<Message>> {
        // A few rows beyond the count: a tool exchange cut by the window edge is dropped whole.
        let mut window = match limit {
            HistoryLimit::Messages(n) => n.saturating_add(4),
            HistoryLimit::Tokens(_) => 64,
        };
        loop {
            let rows = self.newest_messages(conversation_id, window)?;
            let exhausted = rows.len() < window;
            let (selected, limited) = select_history(&rows, limit);
            if limited || exhausted {
                return Ok(selected);
            }
            window = window.saturating_mul(4);
        }
    }
}
