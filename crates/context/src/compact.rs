//! Compaction (docs/design.md#compaction): when unsummarised messages no longer fit the history
//! window, the older ones — down to half a window, so compaction does not run on every turn — are
//! folded into the conversation's stored summary. Deterministic first (a digest merged into the
//! summary and bounded, earliest and latest facts kept); with a summariser model, one model call
//! whose answer replaces the digest. The latest user message is never folded (the store keeps the
//! newest user turn in every window); the active skill and the protocol step do not live in
//! messages at all. After a history read the window it returned is used, not read again (unless
//! the summary or the limit changed since). The summary is written from the blocking pool
//! (`vibe_store::blocking`): the write may wait for another process's lock.

use vibe_llm::{ChatModel, TokenUsage, collect};
use vibe_store::{HistoryLimit, blocking};
use vibe_wire::Phase;

use super::ContextBuilder;
use super::digest::{bound, digest, merge, summary_request};
use super::history::Window;
use crate::ContextError;

/// What one compaction did, for the `compacted` event and the budgets.
#[derive(Debug, Clone, PartialEq)]
pub struct Compaction {
    /// Messages folded into the summary by this compaction.
    pub folded_messages: u32,
    /// Tokens of the new summary.
    pub summary_tokens: u32,
    /// Whether the summariser model wrote the summary (it counts against the run's budget).
    pub used_model: bool,
    /// The newest message id the summary now covers.
    pub through_id: i64,
    /// The summary as stored.
    pub summary: String,
    /// Tokens the summarising call cost: as the model reported them, else counted (the
    /// request's messages and the answer). `None` when no model call was made.
    pub usage: Option<TokenUsage>,
    /// Why the deterministic digest stands instead of a model summary (model summaries off,
    /// the call failed, the model answered nothing); `None` when the model wrote it.
    pub fallback_reason: Option<String>,
}

/// The fallback reason when no summariser was given.
pub const SUMMARIES_OFF: &str = "model summaries are off (chat.summarize_with_model)";

/// Half of a window: what stays unsummarised after a compaction.
fn half(limit: HistoryLimit) -> HistoryLimit {
    match limit {
        HistoryLimit::Messages(n) => HistoryLimit::Messages((n / 2).max(1)),
        HistoryLimit::Tokens(t) => HistoryLimit::Tokens((t / 2).max(1)),
    }
}

impl ContextBuilder {
    /// Fold the messages that fell out of the history window of `phase` (and not yet
    /// summarised) into the conversation's summary; `None` when there is nothing to fold.
    /// The window is the one [`ContextBuilder::history`] uses, with the history setting of the
    /// conversation's skill in phase 2. With `summarizer`, one model call writes the summary;
    /// when it fails, the deterministic digest is kept and a notice says why.
    pub async fn compact(
        &self,
        conversation: &vibe_store::Conversation,
        phase: Phase,
        summarizer: Option<&dyn ChatModel>,
    ) -> Result<Option<Compaction>, ContextError> {
        self.compact_window(conversation, phase, None, summarizer).await
    }

    /// [`ContextBuilder::compact`] after a history read whose window (`read`, with older
    /// messages outside it) is still the window: it is not read again. A window read under
    /// another summary or limit is read again.
    pub async fn compact_window(
        &self,
        conversation: &vibe_store::Conversation,
        phase: Phase,
        read: Option<Window>,
        summarizer: Option<&dyn ChatModel>,
    ) -> Result<Option<Compaction>, ContextError> {
        let conv = self.store.conversation(&conversation.id)?;
        let skill_history = match (phase, conv.skill.as_deref()) {
            (Phase::Phase2, Some(name)) => self.skills.skill(name).ok().map(|e| e.meta.history),
            _ => None,
        };
        let limit = self.history_limit(phase, skill_history.as_ref());
        let through = conv.summary_through_id.unwrap_or(0);
        let window = match read.filter(|w| w.limit == limit && w.through == through) {
            Some(read) => read.rows,
            None => match self.window(&conv.id, limit, through)? {
                (rows, true) => rows,
                (_, false) => return Ok(None),
            },
        };
        // Half a window is the newest part of the window just read: selected from it, not read
        // again.
        let (kept, _) = vibe_store::select_history(&window, half(limit));
        // What stays must fit the context window too: a huge message is folded, not kept, or
        // every later call would overflow (the history leaves it out as well).
        let (kept, _) =
            vibe_store::select_history(&kept, HistoryLimit::Tokens(self.history_room(phase)));
        let Some(first_kept) = kept.first().map(|m| m.id) else { return Ok(None) };
        let folded = self.store.messages_between(&conv.id, through, first_kept)?;
        let Some(new_through) = folded.last().map(|m| m.id) else { return Ok(None) };
        let max = self.limits.summary_max_tokens;
        let mut summary = merge(self.tk, conv.summary.as_deref(), &digest(&folded), max);
        let (mut used_model, mut usage) = (false, None);
        let mut fallback_reason = Some(SUMMARIES_OFF.to_string());
        if let Some(model) = summarizer {
            let request = summary_request(self.tk, conv.summary.as_deref(), &folded, max);
            let sent: u32 = request.messages.iter().map(|m| self.tk.count_message(m)).sum();
            let (response, error) = collect(model.stream(request)).await;
            usage = Some(response.usage.unwrap_or_else(|| {
                let answer = u64::from(self.tk.count(&response.text));
                TokenUsage {
                    prompt_tokens: u64::from(sent),
                    completion_tokens: answer,
                    total_tokens: u64::from(sent) + answer,
                }
            }));
            fallback_reason = match error {
                None if !response.text.trim().is_empty() => {
                    summary = bound(self.tk, response.text.trim(), max);
                    used_model = true;
                    None
                }
                None => Some("the summarising model answered nothing".to_string()),
                Some(e) => Some(format!("the summarising model call failed ({e})")),
            };
        }
        let (id, stored) = (conv.id.clone(), summary.clone());
        blocking(&self.store, move |s| s.set_conversation_summary(&id, &stored, new_through))
            .await?;
        Ok(Some(Compaction {
            folded_messages: u32::try_from(folded.len()).unwrap_or(u32::MAX),
            summary_tokens: self.tk.count_lines(&summary),
            summary,
            used_model,
            through_id: new_through,
            usage,
            fallback_reason,
        }))
    }
}
