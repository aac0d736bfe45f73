//! The history of each model call of a run: the window of the call's phase up to the run's user
//! message, read once per phase, with older unsummarised messages compacted into the conversation's
//! summary on the way (docs/design.md#compaction). Choosing the window and compacting are the
//! context builder's; this only decides when, and keeps the run's view in step. The reads run
//! on the blocking pool (`store_io::off_worker`), like the loop's writes.

use vibe_context::{History, Window};
use vibe_wire::{Event, Phase, SummaryBy};

use crate::CoreError;
use crate::agent::driver::Loop;
use crate::store_io::off_worker;

impl Loop {
    /// The history window of `phase` up to this run's user message. When older messages
    /// fell out of the window unsummarised, they are compacted into the conversation's
    /// summary first (docs/design.md#compaction), so early facts reach the prompt through it.
    pub(super) async fn history(&mut self, phase: Phase) -> Result<History, CoreError> {
        if let Some((_, h)) = self.histories.iter().find(|(p, _)| *p == phase) {
            return Ok(h.clone());
        }
        let (mut history, window) = self.read_history(phase).await?;
        if history.more_before {
            let summarizer = self.input.summarize_with_model.then(|| self.input.model.as_ref());
            let compaction = self
                .input
                .context
                .compact_window(&self.conversation_now(), phase, Some(window), summarizer)
                .await?;
            if let Some(c) = compaction {
                let usage = c.usage;
                // The summarising call is part of the run: its tokens count in the run's usage.
                if let Some(usage) = usage {
                    self.usage.add(usage);
                }
                self.input.emitter.emit(Event::Compacted {
                    folded_messages: c.folded_messages,
                    summary_tokens: c.summary_tokens,
                    summary_by: Some(if c.used_model {
                        SummaryBy::Model
                    } else {
                        SummaryBy::Digest
                    }),
                    fallback_reason: c.fallback_reason,
                    usage,
                });
                self.input.conversation.summary = Some(c.summary);
                self.input.conversation.summary_through_id = Some(c.through_id);
                // The window is what it was, less what was just folded into the summary.
                history.keep_after(c.through_id);
                history.more_before = false;
            }
        }
        self.histories.push((phase, history.clone()));
        Ok(history)
    }

    /// The history of `phase` and the window it came from (for a compaction not to read it
    /// again).
    pub(super) async fn read_history(&self, phase: Phase) -> Result<(History, Window), CoreError> {
        let skill_limits = match &self.active_skill {
            Some(skill) => self.input.skills.skill(skill).ok().map(|e| e.meta.history),
            None => None,
        };
        let (context, conversation) = (self.input.context.clone(), self.conversation_now());
        let (mut history, window) = off_worker(move || {
            context.history_and_window(&conversation, phase, skill_limits.as_ref())
        })
        .await??;
        history.keep_through(self.input.user_message_id);
        Ok((history, window))
    }
}
