//! The history window of a model call (docs/design.md#history): from the database only, the newest
//! messages within a message count or a token budget, tool calls and their results kept whole, the
//! latest user message always present, messages already folded into the compaction summary left
//! out, stored messages converted to `vibe_llm` messages. Choosing what to fold is `compact`.

use serde_json::Value;
use vibe_llm::{Message, ToolCall};
use vibe_skills::HistoryLimits;
use vibe_store::{Conversation, HistoryLimit, Role};
use vibe_wire::Phase;

use super::limits::HistoryMode;
use super::{ContextBuilder, Tokenizer};
use crate::ContextError;

/// Appended to a reply that was cut short (a killed run), so the model knows.
pub const INTERRUPTED_NOTE: &str = "[此回复在生成中被中断]";

/// The stored rows of a history window: those after `through` (the summary's last message)
/// within `limit`.
pub struct Window {
    pub rows: Vec<vibe_store::Message>,
    pub limit: HistoryLimit,
    pub through: i64,
}

/// The history to send after the system prompt.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct History {
    /// Oldest first; the latest user message is always included.
    pub messages: Vec<Message>,
    /// The database ids of `messages`, in the same order.
    pub message_ids: Vec<i64>,
    /// Tokens of `messages` (stored counts; counted now where none was stored).
    pub tokens: u32,
    /// Tokens of each message, in the same order.
    pub message_tokens: Vec<u32>,
    /// What was left out or changed, in words for people.
    pub notices: Vec<String>,
    /// Older messages that are neither in the window nor in the summary exist: call
    /// [`ContextBuilder::compact`] so they are not lost.
    pub more_before: bool,
}

impl History {
    /// Keep only the messages with an id above `through` (those below were just folded into
    /// the summary, or came after the cut), with their tokens.
    pub fn keep_after(&mut self, through: i64) {
        self.keep_where(|id| id > through);
    }

    /// Keep only the messages with an id up to `last` (history ends at this run's user
    /// message; what the run adds is carried in memory).
    pub fn keep_through(&mut self, last: i64) {
        self.keep_where(|id| id <= last);
    }

    /// Drop the oldest messages until the window holds `budget` tokens (see `fit_tokens`):
    /// for a call whose prompt came out bigger than its budget (a small context window).
    pub fn fit_within(&mut self, budget: u32) {
        let mut sizes = std::mem::take(&mut self.message_tokens);
        fit_tokens(self, &mut sizes, budget);
        self.tokens = sizes.iter().sum();
        self.message_tokens = sizes;
    }

    fn keep_where(&mut self, keep: impl Fn(i64) -> bool) {
        if self.message_ids.iter().all(|id| keep(*id)) {
            return;
        }
        let mut i = 0;
        let ids = &self.message_ids;
        self.messages.retain(|_| {
            i += 1;
            keep(ids[i - 1])
        });
        let mut i = 0;
        self.message_tokens.retain(|_| {
            i += 1;
            keep(ids[i - 1])
        });
        self.message_ids.retain(|id| keep(*id));
        self.tokens = self.message_tokens.iter().sum();
    }
}

/// One stored assistant `tool_calls` item as a [`ToolCall`]: `{id, name, arguments}` (the
/// app's own format) or OpenAI's `{id, type, function: {name, arguments}}`; arguments given
/// as a JSON value are turned into text.
fn tool_call(item: &Value) -> Option<ToolCall> {
    let id = item.get("id")?.as_str()?.to_string();
    let function = item.get("function").unwrap_or(item);
    let name = function.get("name")?.as_str()?.to_string();
    let arguments = match function.get("arguments") {
        Some(Value::String(s)) => s.clone(),
        Some(Value::Null) | None => "{}".to_string(),
        Some(other) => other.to_string(),
    };
    Some(ToolCall { id, name, arguments })
}

/// A stored message as a model message; `None` for system rows and empty interrupted drafts.
pub(crate) fn convert(row: &vibe_store::Message) -> Option<Message> {
    match row.role {
        Role::System => None,
        Role::User => Some(Message::user(row.content.clone())),
        Role::Tool => {
            Some(Message::tool(row.tool_call_id.clone().unwrap_or_default(), row.content.clone()))
        }
        Role::Assistant => {
            let calls: Vec<ToolCall> = row
                .tool_calls
                .as_ref()
                .and_then(Value::as_array)
                .map(|items| items.iter().filter_map(tool_call).collect())
                .unwrap_or_default();
            let text = row.content.trim_end();
            if text.is_empty() && calls.is_empty() {
                return None;
            }
            let content = if row.interrupted && !text.is_empty() {
                format!("{text}\n\n{INTERRUPTED_NOTE}")
            } else {
                row.content.clone()
            };
            Some(Message::assistant(content, calls))
        }
    }
}

/// Tokens of a stored message: its stored count, or counted now when none was stored.
pub(crate) fn row_tokens(tk: &Tokenizer, row: &vibe_store::Message, converted: &Message) -> u32 {
    if row.token_count > 0 { row.token_count } else { tk.count_message(converted) }
}

impl ContextBuilder {
    /// The window's limit for `phase`: the limits' count or budget, or the skill's own
    /// `history.max_messages` / `max_tokens` in phase 2; a token budget never exceeds what the
    /// context window leaves after the prompt and the reply, and is scaled by the model's
    /// token correction.
    pub fn history_limit(
        &self,
        phase: Phase,
        skill_history: Option<&HistoryLimits>,
    ) -> HistoryLimit {
        let l = &self.limits;
        let skill = skill_history.filter(|_| phase == Phase::Phase2);
        match l.history_mode {
            HistoryMode::FixedCount => {
                let n = match phase {
                    Phase::Phase1 => l.phase1_history_messages,
                    Phase::Phase2 => {
                        skill.and_then(|h| h.max_messages).unwrap_or(l.phase2_history_messages)
                    }
                };
                HistoryLimit::Messages(n.max(1) as usize)
            }
            HistoryMode::TokenBudget => {
                let wanted = match phase {
                    Phase::Phase1 => l.phase1_history_tokens,
                    Phase::Phase2 => {
                        skill.and_then(|h| h.max_tokens).unwrap_or(l.phase2_history_tokens)
                    }
                };
                let room = l.max_context_tokens.saturating_sub(self.prompt_and_reply(phase));
                // In model tokens; the window is counted in estimated ones.
                HistoryLimit::Tokens(self.budget(wanted.min(room)).max(1))
            }
        }
    }

    /// The prompt budget of `phase` and the reply reserve: what the context window holds
    /// besides the history.
    fn prompt_and_reply(&self, phase: Phase) -> u32 {
        let l = &self.limits;
        let prompt = match phase {
            Phase::Phase1 => l.phase1_prompt_tokens,
            Phase::Phase2 => l.phase2_prompt_tokens,
        };
        prompt + l.reply_reserve_tokens
    }

    /// The most history tokens a call of `phase` can carry in any mode: the context window
    /// less the prompt and the reply (in estimated tokens). A window by message count is cut
    /// to it too, so one huge message cannot make every later call overflow the window.
    pub(crate) fn history_room(&self, phase: Phase) -> u32 {
        let room = self.limits.max_context_tokens.saturating_sub(self.prompt_and_reply(phase));
        self.budget(room).max(1)
    }

    /// The most history tokens a call can carry beside `prompt_tokens` of prompt (system
    /// prompt, tools, the turn's sections and the run's own messages, estimated): the context
    /// window less those and the reply reserve. Usually more than the history already has;
    /// less when every trim left the prompt over its budget.
    pub fn history_room_beside(&self, prompt_tokens: u32) -> u32 {
        let l = &self.limits;
        let window = self.budget(l.max_context_tokens.saturating_sub(l.reply_reserve_tokens));
        window.saturating_sub(prompt_tokens).max(1)
    }

    /// The stored rows of the window (oldest first, after `through`), and whether older
    /// unsummarised rows exist outside it (asked of the database, nothing more is read).
    pub(crate) fn window(
        &self,
        conversation_id: &str,
        limit: HistoryLimit,
        through: i64,
    ) -> Result<(Vec<vibe_store::Message>, bool), ContextError> {
        let selected = self.store.history(conversation_id, limit)?;
        let more_before = match selected.first() {
            Some(first) => {
                first.id > through + 1
                    && self.store.has_messages_between(conversation_id, through, first.id)?
            }
            None => false,
        };
        let rows = selected.into_iter().filter(|m| m.id > through).collect();
        Ok((rows, more_before))
    }

    /// The history for a model call in `phase` (see the module docs). `skill_history` is the
    /// active skill's `history` setting.
    pub fn history(
        &self,
        conversation: &Conversation,
        phase: Phase,
        skill_history: Option<&HistoryLimits>,
    ) -> Result<History, ContextError> {
        Ok(self.history_and_window(conversation, phase, skill_history)?.0)
    }

    /// [`ContextBuilder::history`] and the stored rows it came from, for a compaction that
    /// follows ([`ContextBuilder::compact_window`]) not to read them again.
    pub fn history_and_window(
        &self,
        conversation: &Conversation,
        phase: Phase,
        skill_history: Option<&HistoryLimits>,
    ) -> Result<(History, Window), ContextError> {
        let limit = self.history_limit(phase, skill_history);
        let through = conversation.summary_through_id.unwrap_or(0);
        let (rows, more_before) = self.window(&conversation.id, limit, through)?;
        let mut out = History { more_before, ..History::default() };
        let mut sizes = Vec::with_capacity(rows.len());
        let mut interrupted = 0;
        for row in &rows {
            let Some(message) = convert(row) else { continue };
            interrupted += usize::from(row.interrupted && row.role == Role::Assistant);
            sizes.push(row_tokens(self.tk, row, &message));
            out.messages.push(message);
            out.message_ids.push(row.id);
        }
        let budget = match limit {
            HistoryLimit::Tokens(budget) => budget,
            // Within the count, the window still has to fit the context window.
            HistoryLimit::Messages(_) => self.history_room(phase),
        };
        fit_tokens(&mut out, &mut sizes, budget);
        out.tokens = sizes.iter().sum();
        out.message_tokens = sizes;
        if interrupted > 0 {
            out.notices.push(format!(
                "history: {interrupted} interrupted reply(ies) included with their partial text"
            ));
        }
        Ok((out, Window { rows, limit, through }))
    }
}

/// Drop the oldest messages until `budget` holds (stored counts of zero were counted now and
/// may have pushed the window over), never a tool result without its call and never the
/// latest user message.
fn fit_tokens(h: &mut History, sizes: &mut Vec<u32>, budget: u32) {
    let newest_user =
        h.messages.iter().rposition(|m| matches!(m, Message::User { .. })).unwrap_or(0);
    let mut drop = 0;
    let mut total: u32 = sizes.iter().sum();
    while total > budget && drop < newest_user {
        total -= sizes[drop];
        drop += 1;
        while drop < newest_user && matches!(h.messages[drop], Message::Tool { .. }) {
            total -= sizes[drop];
            drop += 1;
        }
    }
    if drop > 0 {
        h.messages.drain(..drop);
        h.message_ids.drain(..drop);
        sizes.drain(..drop);
        h.notices.push(format!("history: {drop} older message(s) left out to fit {budget} tokens"));
        h.more_before = true;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixtures::row;
    use serde_json::json;

    #[test]
    fn stored_tool_calls_in_either_format_become_tool_calls() {
        let mut r = row(Role::Assistant, "");
        r.tool_calls = Some(json!([
            {"id": "a", "name": "read_state", "arguments": "{\"sections\":[\"goals\"]}"},
            {"id": "b", "type": "function", "function": {"name": "write_state", "arguments": {"section": "x"}}}
        ]));
        let Some(Message::Assistant { tool_calls, .. }) = convert(&r) else { panic!() };
        assert_eq!(
            tool_calls[0],
            ToolCall {
                id: "a".into(),
                name: "read_state".into(),
                arguments: "{\"sections\":[\"goals\"]}".into()
            }
        );
        assert_eq!(tool_calls[1].name, "write_state");
        assert_eq!(tool_calls[1].arguments, "{\"section\":\"x\"}");
    }

    #[test]
    fn interrupted_replies_keep_their_text_with_a_note_and_empty_drafts_go() {
        let mut r = row(Role::Assistant, "我们先看看你的日主");
        r.interrupted = true;
        let Some(Message::Assistant { content, .. }) = convert(&r) else { panic!() };
        assert_eq!(content, format!("我们先看看你的日主\n\n{INTERRUPTED_NOTE}"));
        let mut empty = row(Role::Assistant, "");
        empty.interrupted = true;
        assert_eq!(convert(&empty), None);
        assert_eq!(convert(&row(Role::System, "old prompt")), None);
    }
}
