//! `LlmSettings`: the `llm` section of settings.json (every key optional, defaults in one
//! place), the `VIBE_LLM_*` environment overrides, and resolution into a concrete
//! [`Endpoint`]. Building a model from it belongs to `factory.rs`.

use std::time::Duration;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::errors::LlmError;
use crate::presets::{self, Preset, ToolMode};
use crate::redact::redact_url;

pub const BASE_URL_ENV: &str = "VIBE_LLM_BASE_URL";
pub const MODEL_ENV: &str = "VIBE_LLM_MODEL";

/// The `llm` section of settings.json. The API key is never here (keychain or env); the
/// `Debug` form shows the base URL redacted.
#[derive(Clone, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct LlmSettings {
    /// `ollama`, `lmstudio`, `llamacpp`, `vllm`, `openai`, `deepseek`, `qwen` (alias
    /// `dashscope`), `openrouter`, `moonshot` (`kimi`), `zhipu` (`glm`), `siliconflow`,
    /// `custom`; detected from `base_url` when absent.
    pub preset: Option<String>,
    /// Endpoint base URL (the part before `/chat/completions`), or `scripted:PATH`.
    pub base_url: Option<String>,
    pub model: Option<String>,
    /// `auto` (per preset and model), `native` or `structured`.
    pub tool_mode: ToolMode,
    /// Retries after the first attempt, only before the first delta (0 turns them off).
    pub retries: u32,
    /// First backoff step; doubles each retry, with jitter.
    pub retry_base_ms: u64,
    /// Longest wait a server's Retry-After may impose before we give up instead.
    pub max_retry_wait_s: u64,
    pub connect_timeout_s: f64,
    pub first_byte_timeout_s: f64,
    pub idle_timeout_s: f64,
    /// Override the preset's `stream_options.include_usage`.
    pub include_usage: Option<bool>,
    pub temperature: Option<f32>,
    pub max_tokens: Option<u32>,
    /// The embedded engine's knobs (`llm.local`), read only with `preset = "local"`.
    pub local: LocalSettings,
}

/// `llm.local`: how the embedded llama.cpp engine runs a model (docs/local-model.md).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct LocalSettings {
    /// Threads for generation and prompt processing; absent = the machine's physical cores
    /// as llama.cpp counts them (at most 8).
    pub threads: Option<u32>,
    /// Cap on the context window; the model's own trained length applies when smaller.
    /// Absent = `chat.context.max_context_tokens` (the core passes it in).
    pub context_tokens: Option<u32>,
    /// Map the model file into memory instead of reading it (faster loads, shared pages).
    pub mmap: bool,
}

impl Default for LocalSettings {
    fn default() -> Self {
        Self { threads: None, context_tokens: None, mmap: true }
    }
}

impl std::fmt::Debug for LlmSettings {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LlmSettings")
            .field("preset", &self.preset)
            .field("base_url", &self.base_url.as_deref().map(redact_url))
            .field("model", &self.model)
            .field("tool_mode", &self.tool_mode)
            .field("retries", &self.retries)
            .field("connect_timeout_s", &self.connect_timeout_s)
            .field("first_byte_timeout_s", &self.first_byte_timeout_s)
            .field("idle_timeout_s", &self.idle_timeout_s)
            .finish_non_exhaustive()
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

impl LlmSettings {
    /// Read the `llm` section (`null` or absent → defaults). `source` names the file.
    pub fn from_section(section: &Value, source: &str) -> Result<Self, LlmError> {
        if section.is_null() {
            return Ok(Self::default());
        }
        serde_json::from_value(section.clone()).map_err(|e| {
            LlmError::config(format!(
                "{source}: the \"llm\" section is invalid: {e} (see docs/llm.md for the keys)"
            ))
        })
    }

    /// Apply `VIBE_LLM_BASE_URL` and `VIBE_LLM_MODEL` through `get` (usually `std::env::var`).
    pub fn with_env(mut self, get: impl Fn(&str) -> Option<String>) -> Self {
        if let Some(url) = get(BASE_URL_ENV).filter(|v| !v.trim().is_empty()) {
            // An explicit URL names its own preset (detected from it).
            self.base_url = Some(url.trim().to_string());
            self.preset = None;
        }
        if let Some(model) = get(MODEL_ENV).filter(|v| !v.trim().is_empty()) {
            self.model = Some(model.trim().to_string());
        }
        self
    }

    /// Resolve preset, URL, model and tool mode.
    pub fn resolve(&self) -> Result<Endpoint, LlmError> {
        let preset = match &self.preset {
            Some(id) => presets::find(id).ok_or_else(|| {
                let known: Vec<_> = presets::PRESETS.iter().map(|p| p.id).collect();
                LlmError::config(format!(
                    "llm.preset {id:?} is unknown; use one of {}",
                    known.join(", ")
                ))
            })?,
            None => match &self.base_url {
                Some(url) => presets::detect(url),
                None => presets::find("ollama").unwrap_or(&presets::PRESETS[0]),
            },
        };
        let base_url = match &self.base_url {
            Some(url)
                if preset.id == presets::LOCAL_PRESET
                    && !url.starts_with(presets::LOCAL_BASE_URL) =>
            {
                return Err(LlmError::config(format!(
                    "llm.preset \"local\" runs the model inside VibeLife and takes no base URL, but llm.base_url is {:?}; remove llm.base_url or choose the preset of that server",
                    redact_url(url)
                )));
            }
            Some(url) => url.trim_end_matches('/').to_string(),
            None if preset.base_url.is_empty() => {
                return Err(LlmError::config(
                    "llm.preset \"custom\" needs a base URL (llm.base_url), e.g. http://127.0.0.1:8000/v1",
                ));
            }
            None => preset.base_url.to_string(),
        };
        let known_scheme = ["scripted:", presets::LOCAL_BASE_URL, "http://", "https://"]
            .iter()
            .any(|p| base_url.starts_with(p));
        if !known_scheme {
            return Err(LlmError::config(format!(
                "base URL {:?} must start with http:// or https:// (or be scripted:PATH)",
                redact_url(&base_url)
            )));
        }
        let model = self.model.clone().or_else(|| preset.default_model.map(str::to_string));
        let tool_mode = match self.tool_mode {
            ToolMode::Auto => presets::auto_tool_mode(preset, model.as_deref().unwrap_or("")),
            other => other,
        };
        Ok(Endpoint {
            preset: *preset,
            base_url,
            model,
            tool_mode,
            include_usage: self.include_usage.unwrap_or(preset.include_usage),
            retries: self.retries,
            retry_base: Duration::from_millis(self.retry_base_ms),
            max_retry_wait: Duration::from_secs(self.max_retry_wait_s),
            connect_timeout: secs(self.connect_timeout_s, "connect_timeout_s")?,
            first_byte_timeout: secs(self.first_byte_timeout_s, "first_byte_timeout_s")?,
            idle_timeout: secs(self.idle_timeout_s, "idle_timeout_s")?,
            temperature: self.temperature,
            max_tokens: self.max_tokens,
            local: self.local,
        })
    }
}

fn secs(value: f64, key: &str) -> Result<Duration, LlmError> {
    Duration::try_from_secs_f64(value).ok().filter(|d| !d.is_zero()).ok_or_else(|| {
        LlmError::config(format!("llm.{key} must be a positive number of seconds, got {value}"))
    })
}

/// A resolved endpoint: everything a client needs except the key. `base_url` may carry
/// secrets (userinfo, a query token): show [`Endpoint::shown_url`] instead, never `base_url`;
/// the `Debug` form shows the redacted URL too.
#[derive(Clone, PartialEq)]
pub struct Endpoint {
    pub preset: Preset,
    pub base_url: String,
    pub model: Option<String>,
    /// `Native` or `Structured` (never `Auto` once resolved).
    pub tool_mode: ToolMode,
    pub include_usage: bool,
    pub retries: u32,
    pub retry_base: Duration,
    pub max_retry_wait: Duration,
    pub connect_timeout: Duration,
    pub first_byte_timeout: Duration,
    pub idle_timeout: Duration,
    pub temperature: Option<f32>,
    pub max_tokens: Option<u32>,
    pub local: LocalSettings,
}

impl Endpoint {
    /// The base URL as it may be shown: userinfo and query tokens redacted.
    pub fn shown_url(&self) -> String {
        redact_url(&self.base_url)
    }

    /// The request URL for `path` (`/chat/completions`): the path goes before any query the
    /// base URL carries (`https://h/v1?api-version=1` → `https://h/v1/models?api-version=1`).
    pub fn url(&self, path: &str) -> String {
        match self.base_url.split_once('?') {
            Some((base, query)) => format!("{}{path}?{query}", base.trim_end_matches('/')),
            None => format!("{}{path}", self.base_url),
        }
    }
}

impl std::fmt::Debug for Endpoint {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Endpoint")
            .field("preset", &self.preset.id)
            .field("base_url", &self.shown_url())
            .field("model", &self.model)
            .field("tool_mode", &self.tool_mode)
            .field("include_usage", &self.include_usage)
            .field("retries", &self.retries)
            .field("connect_timeout", &self.connect_timeout)
            .field("first_byte_timeout", &self.first_byte_timeout)
            .field("idle_timeout", &self.idle_timeout)
            .finish_non_exhaustive()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn empty_section_resolves_to_local_ollama() {
        let e = LlmSettings::from_section(&Value::Null, "s").and_then(|s| s.resolve());
        let e = e.unwrap();
        assert_eq!(e.preset.id, "ollama");
        assert_eq!(e.base_url, "http://127.0.0.1:11434/v1");
        assert_eq!(e.retries, 2);
        assert_eq!(e.idle_timeout, Duration::from_secs(60));
    }

    #[test]
    fn env_overrides_settings_and_the_preset_follows_the_url() {
        let s = LlmSettings::from_section(
            &json!({"base_url": "http://127.0.0.1:11434/v1", "model": "a"}),
            "s",
        )
        .unwrap();
        let s = s.with_env(|k| match k {
            BASE_URL_ENV => Some("https://api.deepseek.com/v1/".into()),
            MODEL_ENV => Some("deepseek-reasoner".into()),
            _ => None,
        });
        let e = s.resolve().unwrap();
        assert_eq!(e.preset.id, "deepseek");
        assert_eq!(e.base_url, "https://api.deepseek.com/v1");
        assert_eq!(e.tool_mode, ToolMode::Structured);
    }

    #[test]
    fn bad_values_name_the_key_to_fix() {
        let err =
            LlmSettings::from_section(&json!({"retries": "many"}), "settings.json").unwrap_err();
        assert!(err.to_string().contains("settings.json"));
        let s = LlmSettings { preset: Some("nope".into()), ..LlmSettings::default() };
        assert!(s.resolve().unwrap_err().to_string().contains("llm.preset"));
        let s = LlmSettings { idle_timeout_s: 0.0, ..LlmSettings::default() };
        assert!(s.resolve().unwrap_err().to_string().contains("idle_timeout_s"));
        let s = LlmSettings { base_url: Some("ftp://x".into()), ..LlmSettings::default() };
        assert_eq!(s.resolve().unwrap_err().kind().as_str(), "config");
    }

    #[test]
    fn the_local_preset_resolves_without_a_server() {
        let s = LlmSettings::from_section(
            &json!({"preset": "local", "model": "qwen2.5-0.5b-instruct", "local": {"threads": 2}}),
            "s",
        )
        .unwrap();
        let e = s.resolve().unwrap();
        assert_eq!((e.preset.id, e.base_url.as_str()), ("local", "local:"));
        assert_eq!(e.tool_mode, ToolMode::Structured);
        assert_eq!((e.local.threads, e.local.mmap), (Some(2), true));
        let s = LlmSettings { base_url: Some("http://127.0.0.1:8080/v1".into()), ..s };
        let err = s.resolve().unwrap_err().to_string();
        assert!(err.contains("llm.base_url") && err.contains("local"), "{err}");
        let err = LlmSettings::from_section(&json!({"local": {"thread": 2}}), "s").unwrap_err();
        assert!(err.to_string().contains("thread"), "{err}");
    }

    #[test]
    fn the_debug_form_and_errors_never_show_the_url_secrets() {
        let url = "https://bob:pw-9911@h.example/v1?api-version=2&key=k-5150";
        let s = LlmSettings { base_url: Some(url.into()), ..LlmSettings::default() };
        let e = s.resolve().unwrap();
        let shown = format!("{s:?} {e:?} {}", e.shown_url());
        assert!(!shown.contains("pw-9911") && !shown.contains("k-5150"), "{shown}");
        assert_eq!(
            e.url("/models"),
            "https://bob:pw-9911@h.example/v1/models?api-version=2&key=k-5150"
        );
        let s =
            LlmSettings { base_url: Some("ftp://u:pw-9911@x".into()), ..LlmSettings::default() };
        assert!(!s.resolve().unwrap_err().to_string().contains("pw-9911"));
    }
}
