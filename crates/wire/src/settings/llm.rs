//! The `llm` section: which model endpoint to talk to and how patiently. Resolving it into an
//! endpoint (presets, environment overrides, checks) is `vibe_llm`'s (`LlmSettingsExt`).

use serde::{Deserialize, Serialize};

use crate::ToolMode;

/// The `llm` section of settings.json. The API key is never here (keychain or env); the
/// `Debug` form leaves the base URL out (it may carry secrets).
#[derive(Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(default)]
pub struct LlmSettings {
    /// `ollama`, `lmstudio`, `llamacpp`, `vllm`, `openai`, `deepseek`, `qwen` (alias
    /// `dashscope`), `openrouter`, `moonshot` (`kimi`), `zhipu` (`glm`), `siliconflow`,
    /// `custom`, `local`; detected from `base_url` when absent.
    pub preset: Option<String>,
    /// Endpoint base URL (the part before `/chat/completions`), or `scripted:PATH`.
    pub base_url: Option<String>,
    /// The model's name at the endpoint (absent: the preset's default model).
    pub model: Option<String>,
    /// `auto` (per preset and model), `native` or `structured`.
    pub tool_mode: ToolMode,
    /// Retries after the first attempt, only before the first delta (0 turns them off).
    /// Default 2.
    pub retries: u32,
    /// First backoff step; doubles each retry, with jitter. Default 500.
    pub retry_base_ms: u64,
    /// Longest wait a server's Retry-After may impose before we give up instead. Default 60.
    pub max_retry_wait_s: u64,
    /// Seconds to connect. Default 10.
    pub connect_timeout_s: f64,
    /// Seconds until the first byte of an answer. Default 60.
    pub first_byte_timeout_s: f64,
    /// Seconds without a byte while streaming. Default 60.
    pub idle_timeout_s: f64,
    /// Override the preset's `stream_options.include_usage`.
    pub include_usage: Option<bool>,
    /// Sampling temperature (absent: the server's default).
    pub temperature: Option<f32>,
    /// Longest reply in tokens (absent: the server's default).
    pub max_tokens: Option<u32>,
    /// The embedded engine's knobs (`llm.local`), read only with `preset = "local"`.
    pub local: LocalSettings,
}

/// `llm.local`: how the embedded llama.cpp engine runs a model (docs/local-model.md).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(default, deny_unknown_fields)]
pub struct LocalSettings {
    /// Threads for generation and prompt processing; absent = the machine's physical cores
    /// as llama.cpp counts them (at most 8).
    pub threads: Option<u32>,
    /// Cap on the context window; the model's own trained length applies when smaller.
    /// Absent = `chat.context.max_context_tokens` (the core passes it in).
    pub context_tokens: Option<u32>,
    /// Map the model file into memory instead of reading it (faster loads, shared pages).
    /// Default on.
    pub mmap: bool,
    /// Evaluate the active skill's static prompt prefix in the background when the app opens
    /// or a conversation is opened, so that the first turn starts from the cache
    /// (docs/local-model.md#warm-up). Default on.
    pub warm_up: bool,
}

impl Default for LocalSettings {
    fn default() -> Self {
        Self { threads: None, context_tokens: None, mmap: true, warm_up: true }
    }
}

impl Default for LlmSettings {
    fn default() -> Self {
        Self {
            preset: None,
            base_url: None,
            model: None,
            tool_mode: ToolMode::Auto,
            retries: 2,
            retry_base_ms: 500,
            max_retry_wait_s: 60,
            connect_timeout_s: 10.0,
            first_byte_timeout_s: 60.0,
            idle_timeout_s: 60.0,
            include_usage: None,
            temperature: None,
            max_tokens: None,
            local: LocalSettings::default(),
        }
    }
}

impl std::fmt::Debug for LlmSettings {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // The URL may hold userinfo or a query token; `vibe_llm` shows it redacted where needed.
        let base_url = self.base_url.as_ref().map(|_| "(set, not shown)");
        f.debug_struct("LlmSettings")
            .field("preset", &self.preset)
            .field("base_url", &base_url)
            .field("model", &self.model)
            .field("tool_mode", &self.tool_mode)
            .field("retries", &self.retries)
            .field("connect_timeout_s", &self.connect_timeout_s)
            .field("first_byte_timeout_s", &self.first_byte_timeout_s)
            .field("idle_timeout_s", &self.idle_timeout_s)
            .finish_non_exhaustive()
    }
}
