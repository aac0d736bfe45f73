//! [`LocalModel`]: the `ChatModel` the rest of the app sees. It owns the sending end of its
//! worker's job queue and turns each request into a delta stream fed by the worker; dropping
//! the stream is the cancel (the worker sees the closed channel before its next token). The
//! worker itself (loading, the context, the job loop) is `worker.rs`.

use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::sync::mpsc;

use futures::future::BoxFuture;
use tokio::sync::{mpsc as async_mpsc, oneshot};
use vibe_llm::{ChatModel, ChatRequest, Delta, DeltaStream, LlmError, ModelInfo, Warmed};

use crate::config::LocalConfig;
use crate::stats::{Counters, EngineStats, LoadedInfo};
use crate::worker::{self, Job};

/// Deltas buffered between the worker and the reader. Small: the worker stops within one
/// token of a cancel anyway, and a slow reader holds generation back instead of memory.
pub(crate) const STREAM_BUFFER: usize = 8;

/// A GGUF model run by llama.cpp on a worker thread of its own.
pub struct LocalModel {
    name: String,
    jobs: mpsc::Sender<Job>,
    counters: Arc<Counters>,
}

impl LocalModel {
    /// Start the worker, which loads the model at once (in the background: this returns
    /// before the load ends). A file that cannot be loaded fails every request with a config
    /// error naming it. The model stays loaded until this value is dropped.
    pub fn open(config: LocalConfig) -> Result<Self, LlmError> {
        if !config.path.is_file() {
            return Err(LlmError::config(format!(
                "the local model file {} does not exist: download the model again, or set llm.model to an installed model id or the path of a .gguf file",
                config.path.display()
            )));
        }
        let counters = Arc::new(Counters::default());
        let name = config.name.clone();
        let jobs = worker::spawn(config, counters.clone())?;
        Ok(Self { name, jobs, counters })
    }

    /// What was loaded; waits for the load to finish.
    pub async fn info(&self) -> Result<LoadedInfo, LlmError> {
        let (tx, rx) = oneshot::channel();
        self.send(Job::Info(tx))?;
        rx.await.map_err(|_| gone())?
    }

    /// How many tokens the model's own tokenizer makes of `text` (no special tokens added).
    pub async fn count_tokens(&self, text: &str) -> Result<usize, LlmError> {
        let (tx, rx) = oneshot::channel();
        self.send(Job::Count(text.to_string(), tx))?;
        rx.await.map_err(|_| gone())?
    }

    /// The worker's counters so far.
    pub fn stats(&self) -> EngineStats {
        let c = &self.counters;
        EngineStats {
            loads: c.loads.load(Ordering::Relaxed),
            prompt_tokens_evaluated: c.prompt_tokens_evaluated.load(Ordering::Relaxed),
            prompt_tokens_reused: c.prompt_tokens_reused.load(Ordering::Relaxed),
            generated_tokens: c.generated_tokens.load(Ordering::Relaxed),
            answers: c.answers.load(Ordering::Relaxed),
            states_loaded: c.states_loaded.load(Ordering::Relaxed),
            states_saved: c.states_saved.load(Ordering::Relaxed),
            context_tokens_allocated: c.context_allocated.load(Ordering::Relaxed),
            warm_ups: c.warm_ups.load(Ordering::Relaxed),
        }
    }

    fn send(&self, job: Job) -> Result<(), LlmError> {
        self.jobs.send(job).map_err(|_| gone())
    }
}

fn gone() -> LlmError {
    LlmError::Server {
        status: None,
        message: "the local model's worker stopped (see the log for why); start the request again"
            .into(),
        retry_after: None,
    }
}

impl ChatModel for LocalModel {
    fn stream(&self, request: ChatRequest) -> DeltaStream {
        let (tx, mut rx) = async_mpsc::channel::<Result<Delta, LlmError>>(STREAM_BUFFER);
        if let Err(e) = self.send(Job::Answer(request, tx)) {
            return Box::pin(futures::stream::once(async move { Err(e) }));
        }
        Box::pin(futures::stream::poll_fn(move |cx| rx.poll_recv(cx)))
    }

    fn list_models(&self) -> BoxFuture<'_, Result<Vec<ModelInfo>, LlmError>> {
        let info = ModelInfo { id: self.name.clone(), owned_by: Some("local".into()) };
        Box::pin(async move { Ok(vec![info]) })
    }

    fn model_name(&self) -> &str {
        &self.name
    }

    /// The prefix evaluated (or the conversation's saved state loaded) by the worker, in
    /// order with the answers: an answer sent after it waits for it and starts from it.
    fn warm_up(&self, request: ChatRequest) -> BoxFuture<'_, Result<Option<Warmed>, LlmError>> {
        let (tx, rx) = oneshot::channel();
        let sent = self.send(Job::WarmUp(request, tx));
        Box::pin(async move {
            sent?;
            rx.await.map_err(|_| gone())?
        })
    }
}
