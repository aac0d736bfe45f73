//! What `vibe bench local` reports: the figures of a turn and of the run (each request is
//! measured by `vibe_llm::measure`), and the embedded engine's counters it reads them from.

use serde::{Deserialize, Serialize};
pub use vibe_llm::measure::{Counts, Recorded, RequestFigures};

/// One turn's figures.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct LocalTurn {
    /// 1-based.
    pub turn: usize,
    /// The process that ran it (1: the bench's own; more: fresh processes).
    pub process: usize,
    /// The first turn of a fresh process (its engine started empty).
    pub restarted: bool,
    /// What happened before the message (`skill`, `plain`, `memory`, `protocol start`, …).
    pub step: String,
    /// The model's load time, on a process's first turn (before the turn is timed).
    pub load_ms: Option<f64>,
    /// Model requests in the turn (the agent's rounds and repair retries).
    pub requests: usize,
    /// How the turn ended.
    pub stop_reason: String,
    /// The turn's first request: what the person waits for.
    pub engine: RequestFigures,
    /// The warm-up run before a process's first turn (`--warm-up`), as the app runs one when
    /// a conversation is opened.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub warm_up: Option<WarmUpFigures>,
    /// The same request replayed against llama-server.
    pub server: Option<RequestFigures>,
    /// llama-server's prefill time of the same request (its `/metrics`: llama.cpp's decode
    /// of the tokens it evaluated, without HTTP or templating).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub server_prefill_ms: Option<f64>,
    /// The time to prefill only this turn's new tokens (the limit: perfect reuse), at
    /// llama-server's rate on this request when it ran beside, else at the cold turn's rate.
    pub limit_ms: Option<f64>,
    /// Which rate the limit took: `llama-server` or `cold turn`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub limit_basis: Option<String>,
    /// The engine's time to first token ÷ the limit.
    pub ratio: Option<f64>,
    /// The engine's time to first token ÷ llama-server's.
    pub vs_server: Option<f64>,
    /// Every request sent in the turn (for the replay; not in the final report).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub sent: Vec<Recorded>,
}

/// A warm-up's figures (docs/local-model.md#warm-up).
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
pub struct WarmUpFigures {
    /// How long it took (building the prefix, loading a saved state, evaluating).
    pub ms: f64,
    /// Tokens of the prefix (system prompt and tools), in the model's tokens.
    pub prefix_tokens: u64,
    pub evaluated_tokens: u64,
    pub reused_tokens: u64,
    /// The conversation's saved state was loaded (a fresh process).
    pub state_loaded: bool,
}

/// The whole run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LocalBenchReport {
    pub model: String,
    pub threads: Option<u32>,
    pub answer_tokens: u32,
    pub restart_every: Option<usize>,
    /// Each process warmed the conversation up before its first turn (`--warm-up`).
    #[serde(default)]
    pub warm_up: bool,
    /// Prompt tokens per second of the first (cold) turn, or of the first warm-up: what the
    /// limits are computed at.
    pub prefill_tokens_per_s: Option<f64>,
    pub llama_server: Option<String>,
    pub turns: Vec<LocalTurn>,
}

/// The embedded engine's counters (of the model the app keeps loaded).
#[cfg(feature = "local-llm")]
pub(crate) fn engine_counts() -> Option<Counts> {
    vibe_local_llm::shared_model_stats().map(|s| Counts {
        evaluated: s.prompt_tokens_evaluated,
        reused: s.prompt_tokens_reused,
        states_loaded: s.states_loaded,
    })
}

/// Without the engine there are no counters (and no local model to run).
#[cfg(not(feature = "local-llm"))]
pub(crate) fn engine_counts() -> Option<Counts> {
    None
}
