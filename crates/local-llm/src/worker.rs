//! The worker thread of one local model: loads the file (mmap by default), creates the one
//! context (small at first, grown up to the window = trained length capped by the config:
//! `sizing`), then answers jobs in order until
//! the `LocalModel` is dropped. llama.cpp objects never leave this thread. A failed load
//! answers every job with the load error. Generation itself is `generate.rs`.

use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::sync::mpsc;

use llama_cpp_2::model::LlamaModel;
use llama_cpp_2::model::params::LlamaModelParams;
use tokio::sync::{mpsc as async_mpsc, oneshot};
use vibe_llm::{ChatRequest, Delta, LlmError, Warmed};

use crate::backend::backend;
use crate::config::LocalConfig;
use crate::cpu_backend::CpuBackend;
use crate::generate::{Engine, Session};
use crate::prompt::Template;
use crate::saved_state;
use crate::sizing::Sizing;
use crate::state_io::Persist;
use crate::state_saver;
use crate::stats::{Counters, LoadedInfo};

/// Work for the worker.
pub(crate) enum Job {
    Answer(ChatRequest, async_mpsc::Sender<Result<Delta, LlmError>>),
    Info(oneshot::Sender<Result<LoadedInfo, LlmError>>),
    Count(String, oneshot::Sender<Result<usize, LlmError>>),
    /// Evaluate a request's prefix without answering (`warm_up.rs`); a dropped receiver is
    /// the cancel.
    WarmUp(ChatRequest, oneshot::Sender<Result<Option<Warmed>, LlmError>>),
}

/// Start the worker thread of `config`; it ends when the returned sender is dropped.
pub(crate) fn spawn(
    config: LocalConfig,
    counters: Arc<Counters>,
) -> Result<mpsc::Sender<Job>, LlmError> {
    let (tx, rx) = mpsc::channel();
    std::thread::Builder::new()
        .name(format!("llama:{}", config.name))
        .spawn(move || run(&config, &counters, &rx))
        .map_err(|e| LlmError::config(format!("cannot start the local model's thread: {e}")))?;
    Ok(tx)
}

fn run(config: &LocalConfig, counters: &Counters, jobs: &mpsc::Receiver<Job>) {
    let started = std::time::Instant::now();
    let (model, cpu_backend) = match load(config) {
        Ok(loaded) => loaded,
        Err(e) => return refuse_all(jobs, &e),
    };
    counters.loads.fetch_add(1, Ordering::Relaxed);
    let threads = config.threads_in_force();
    let trained = model.n_ctx_train();
    let sizing = Sizing {
        window: trained.min(config.context_cap.max(1)),
        threads,
        file: config.path.display().to_string(),
    };
    let mut ctx = match sizing.make(&model, sizing.initial()) {
        Ok(ctx) => ctx,
        Err(e) => return refuse_all(jobs, &e),
    };
    counters.context_allocated.store(u64::from(ctx.n_ctx()), Ordering::Relaxed);
    let template = match Template::for_model(&model) {
        Ok(t) => t,
        Err(e) => return refuse_all(jobs, &e),
    };
    let info = LoadedInfo {
        context_tokens: sizing.window,
        trained_context_tokens: trained,
        template: template.source,
        threads,
        parameters: model.n_params(),
        size_bytes: model.size(),
        vocab_size: u32::try_from(model.n_vocab()).unwrap_or(0),
        cpu_backend,
    };
    tracing::info!(
        model = %config.name,
        load_ms = started.elapsed().as_millis() as u64,
        context_tokens = info.context_tokens,
        allocated = ctx.n_ctx(),
        threads,
        template = ?info.template,
        cpu_backend = %info.cpu_backend.variant,
        "local model loaded"
    );
    let mut session = Session::new(config.temperature, config.max_tokens, persist(config), sizing);
    let engine = Engine { model: &model, template: &template, counters };
    while let Ok(job) = jobs.recv() {
        match job {
            Job::Answer(request, out) => {
                // The answer's state is handed to the saver before this ends (`flush`).
                let _busy = state_saver::Busy::start();
                session.answer(&engine, &mut ctx, &request, &out);
                counters.answers.fetch_add(1, Ordering::Relaxed);
            }
            Job::Info(reply) => {
                let _ = reply.send(Ok(info.clone()));
            }
            Job::Count(text, reply) => {
                let _ = reply.send(Ok(model.vocab().tokenize(text.as_bytes(), false, true).len()));
            }
            Job::WarmUp(request, reply) => {
                let done = session.warm_up(&engine, &mut ctx, &request, &|| reply.is_closed());
                counters.context_allocated.store(u64::from(ctx.n_ctx()), Ordering::Relaxed);
                let _ = reply.send(done);
            }
        }
    }
}

/// Where this model's prompt states are saved, when the config says so and the file's
/// identity can be read (else they are not saved; logged).
fn persist(config: &LocalConfig) -> Option<Persist> {
    let states = config.saved_states.clone()?;
    match saved_state::model_identity(&config.path) {
        Ok(model_id) => Some(Persist { states, model_id }),
        Err(e) => {
            tracing::warn!("prompt states will not be saved: cannot identify the model file: {e}");
            None
        }
    }
}

/// The model, and the CPU backend it runs on.
fn load(config: &LocalConfig) -> Result<(LlamaModel, CpuBackend), LlmError> {
    let backend = backend().map_err(LlmError::config)?;
    let params = LlamaModelParams::default().with_use_mmap(config.mmap);
    let model = LlamaModel::load_from_file(&backend.llama, &config.path, &params).map_err(|e| {
        LlmError::config(format!(
            "cannot load the local model {} ({e}): it is not a GGUF model llama.cpp can run, or it is damaged; download it again, or choose another model (llm.model)",
            config.path.display()
        ))
    })?;
    Ok((model, backend.cpu.clone()))
}

/// The model cannot run: every job gets `error`.
fn refuse_all(jobs: &mpsc::Receiver<Job>, error: &LlmError) {
    tracing::warn!("local model unusable: {error}");
    while let Ok(job) = jobs.recv() {
        match job {
            Job::Answer(_, out) => {
                let _ = out.blocking_send(Err(error.clone()));
            }
            Job::Info(reply) => {
                let _ = reply.send(Err(error.clone()));
            }
            Job::Count(_, reply) => {
                let _ = reply.send(Err(error.clone()));
            }
            Job::WarmUp(_, reply) => {
                let _ = reply.send(Err(error.clone()));
            }
        }
    }
}
