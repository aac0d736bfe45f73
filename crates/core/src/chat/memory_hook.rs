//! The chat service's hook into memory (docs/memory.md): the conversations whose extraction is
//! due — one with `every_turns` unread messages of the person, any that went quiet for
//! `quiet_minutes` — are read, each pass a run of its own. Called at the end of every turn and,
//! in a long-lived app, by its idle check (`App::extract_memory_due`), so a conversation the
//! person walked away from is read without a next turn. One caller at a time: a second one
//! finds the passes under way and leaves them to it. A failure is logged and never fails the
//! turn that triggered it.

use super::ChatService;
use crate::memory::{self, Extraction, ExtractionStatus};

/// Most passes one call runs (the rest wait for the next call or `vibe memory extract`).
const PASSES_PER_CALL: usize = 2;

impl ChatService {
    /// Run the extraction passes that are due now; the passes run (none when another call is
    /// running them already).
    pub async fn extract_memory_due(&self) -> Vec<Extraction> {
        let Ok(_running) = self.memory_passes.try_lock() else { return Vec::new() };
        let done = memory::extract_due(
            &self.store,
            self.model.as_ref(),
            self.data_dir.as_deref(),
            &self.user,
            &self.config.memory,
            chrono::Utc::now(),
            PASSES_PER_CALL,
        )
        .await;
        match done {
            Ok(passes) => {
                for pass in &passes {
                    if let ExtractionStatus::Rejected { reason }
                    | ExtractionStatus::ModelFailed { reason } = &pass.status
                    {
                        tracing::warn!(conversation = %pass.conversation_id, run = ?pass.run_id, %reason, "memory extraction changed nothing");
                    }
                }
                passes
            }
            Err(e) => {
                tracing::warn!(error = %e, "memory extraction failed");
                Vec::new()
            }
        }
    }
}
