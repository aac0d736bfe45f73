//! The chat service's hook into memory (docs/memory.md): the conversations whose extraction is
//! due — one with `every_turns` unread messages of the person, any that went quiet for
//! `quiet_minutes` — are read, each pass a run of its own (its events in its own run folder).
//! Started after every turn's reply is returned, on a task of its own, so the person never
//! waits for it ([`ChatService::settle`] waits for those started so far: a one-shot front end
//! before it exits, tests); and, in a long-lived app, run by its idle check
//! (`App::extract_memory_due`), so a conversation the person walked away from is read without
//! a next turn. One caller at a time: a second one finds the passes under way and leaves them
//! to it. A failure is logged and never fails the turn that triggered it.

use std::sync::{Arc, Mutex, PoisonError};

use tokio::task::JoinHandle;
use vibe_llm::ChatModel;
use vibe_store::Store;

use super::ChatService;
use crate::CoreError;
use crate::memory::{self, Extraction, ExtractionStatus, MemorySettings};
use vibe_runlog::RunFolders;

/// Most passes one call runs (the rest wait for the next call or `vibe memory extract`).
const PASSES_PER_CALL: usize = 2;

/// What memory passes run with, shared by the service and the passes it starts after turns.
#[derive(Clone)]
pub(super) struct MemoryPasses {
    inner: Arc<Inner>,
}

struct Inner {
    store: Arc<Store>,
    model: Arc<dyn ChatModel>,
    runs: Option<RunFolders>,
    user: String,
    settings: MemorySettings,
    /// Held while passes run, so a turn's end and the idle check never read the same
    /// messages twice at once.
    running: tokio::sync::Mutex<()>,
    /// The passes started after turns' replies and not yet waited for.
    started: Mutex<Vec<JoinHandle<()>>>,
}

impl MemoryPasses {
    pub(super) fn new(
        store: Arc<Store>,
        model: Arc<dyn ChatModel>,
        runs: Option<RunFolders>,
        user: &str,
        settings: MemorySettings,
    ) -> Self {
        let inner = Inner {
            store,
            model,
            runs,
            user: user.to_string(),
            settings,
            running: tokio::sync::Mutex::new(()),
            started: Mutex::new(Vec::new()),
        };
        Self { inner: Arc::new(inner) }
    }

    /// Start the passes due now on a task of their own (a turn's reply was just returned).
    /// Whether any is due is read here (no model call); the task is started only then, so a
    /// turn with nothing due leaves nothing running behind it.
    pub(super) fn start_due(&self) {
        let inner = &self.inner;
        if !self.any_due(chrono::Utc::now()) {
            return;
        }
        let passes = self.clone();
        let task = tokio::spawn(async move {
            passes.run_due().await;
        });
        let mut started = inner.started.lock().unwrap_or_else(PoisonError::into_inner);
        started.retain(|t| !t.is_finished());
        started.push(task);
    }

    /// Whether a pass is due at `now`: the reads [`memory::extract_due`] starts with.
    fn any_due(&self, now: chrono::DateTime<chrono::Utc>) -> bool {
        let inner = &self.inner;
        // Both triggers off: nothing can be due, and the backlog is not worth reading.
        if inner.settings.every_turns == 0 && inner.settings.quiet_minutes == 0 {
            return false;
        }
        let due = || -> Result<bool, CoreError> {
            if !memory::memory_enabled(&inner.store, &inner.user)? {
                return Ok(false);
            }
            let backoffs = inner.store.memory_backoffs(&inner.user)?;
            Ok(inner.store.memory_backlog(&inner.user)?.iter().any(|backlog| {
                let backoff =
                    backoffs.iter().find(|b| b.conversation_id == backlog.conversation_id);
                memory::extraction_due(now, backlog, backoff, &inner.settings).is_some()
            }))
        };
        due().unwrap_or_else(|e| {
            tracing::warn!(error = %e, "cannot tell whether memory extraction is due");
            false
        })
    }

    /// Wait for the passes started after turns so far.
    pub(super) async fn settle(&self) {
        loop {
            let task = self.inner.started.lock().unwrap_or_else(PoisonError::into_inner).pop();
            let Some(task) = task else { return };
            if let Err(e) = task.await {
                tracing::warn!(error = %e, "a memory pass after a turn did not finish");
            }
        }
    }

    /// Run the passes that are due now; the passes run (none when another call is running
    /// them already).
    pub(super) async fn run_due(&self) -> Vec<Extraction> {
        let inner = &self.inner;
        let Ok(_running) = inner.running.try_lock() else { return Vec::new() };
        let done = memory::extract_due(
            &inner.store,
            inner.model.as_ref(),
            inner.runs.as_ref(),
            &inner.user,
            &inner.settings,
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

impl ChatService {
    /// Run the extraction passes that are due now; the passes run (none when another call is
    /// running them already).
    pub async fn extract_memory_due(&self) -> Vec<Extraction> {
        self.memory.run_due().await
    }
}
