//! What the engine tells about itself: what was loaded ([`LoadedInfo`], with where the chat
//! template came from, [`TemplateSource`]) and the worker's counters ([`Counters`], read as
//! [`EngineStats`]). Plain data shared by the model, its worker and generation; no behaviour.

use std::sync::atomic::AtomicU64;

use crate::cpu_backend::CpuBackend;

/// Where the chat template came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TemplateSource {
    /// The model's own (`tokenizer.chat_template` in the GGUF metadata).
    Model,
    /// ChatML: the model has no template, or llama.cpp does not recognise its family.
    ChatmlFallback,
}

/// What was loaded, once the worker has the model.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LoadedInfo {
    /// The context window: the model's trained length, capped by the config. The context
    /// is allocated smaller and grows up to it as a conversation needs
    /// ([`EngineStats::context_tokens_allocated`]).
    pub context_tokens: u32,
    /// The model's trained context length (GGUF metadata).
    pub trained_context_tokens: u32,
    pub template: TemplateSource,
    pub threads: u32,
    pub parameters: u64,
    pub size_bytes: u64,
    pub vocab_size: u32,
    /// ggml's CPU backend module this model runs on (the variant chosen for this CPU).
    pub cpu_backend: CpuBackend,
}

/// Counters of the worker, for tests and benchmarks (cheap atomics).
#[derive(Debug, Default)]
pub(crate) struct Counters {
    pub loads: AtomicU64,
    pub prompt_tokens_evaluated: AtomicU64,
    pub prompt_tokens_reused: AtomicU64,
    pub generated_tokens: AtomicU64,
    pub answers: AtomicU64,
    pub states_loaded: AtomicU64,
    pub states_saved: AtomicU64,
    pub context_allocated: AtomicU64,
    pub warm_ups: AtomicU64,
}

/// A snapshot of the counters.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct EngineStats {
    /// Times the model file was loaded (once per `LocalModel`).
    pub loads: u64,
    /// Prompt tokens run through the model.
    pub prompt_tokens_evaluated: u64,
    /// Prompt tokens whose state was kept from the previous answer (a shared prefix).
    pub prompt_tokens_reused: u64,
    /// Tokens generated, including any after which a reader had gone.
    pub generated_tokens: u64,
    /// Answers the worker has finished or abandoned.
    pub answers: u64,
    /// Saved prompt states put back into the cache (docs/local-model.md#saved-states).
    pub states_loaded: u64,
    /// Prompt states saved after an answer (or tried: a failure is logged).
    pub states_saved: u64,
    /// Tokens the context (KV cache) is allocated for now: it starts small and grows with
    /// the conversation, up to [`LoadedInfo::context_tokens`].
    pub context_tokens_allocated: u64,
    /// Warm-ups done to their end (docs/local-model.md#warm-up).
    pub warm_ups: u64,
}
