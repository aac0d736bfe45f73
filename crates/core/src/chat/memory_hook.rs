//! The chat service's hook into memory (docs/memory.md): at the end of every turn, the
//! conversations whose extraction is due — this one after `every_turns` messages of the
//! person, any that went quiet for `quiet_minutes` — are read, each pass a run of its own.
//! A failure is logged and never fails the turn that triggered it.

use super::ChatService;
use crate::memory::{self, ExtractionStatus};

/// Most passes one turn triggers (the rest wait for the next turn or `vibe memory extract`).
const PASSES_PER_TURN: usize = 2;

impl ChatService {
    /// Run the extraction passes that are due now.
    pub(super) async fn extract_memory_due(&self) {
        let done = memory::extract_due(
            &self.store,
            self.model.as_ref(),
            self.data_dir.as_deref(),
            &self.user,
            &self.config.memory,
            chrono::Utc::now(),
            PASSES_PER_TURN,
        )
        .await;
        match done {
            Ok(passes) => {
                for pass in passes {
                    if let ExtractionStatus::Rejected { reason }
                    | ExtractionStatus::ModelFailed { reason } = &pass.status
                    {
                        tracing::warn!(conversation = %pass.conversation_id, run = ?pass.run_id, %reason, "memory extraction changed nothing");
                    }
                }
            }
            Err(e) => tracing::warn!(error = %e, "memory extraction failed"),
        }
    }
}
