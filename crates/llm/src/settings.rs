//! `LlmSettings`: the `llm` section of settings.json (every key optional, defaults in one
//! place), the `VIBE_LLM_*` environment overrides, and resolution into a concrete
//! [`Endpoint`]. Building a model from it belongs to `factory.rs`.

use std::time::Duration;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::errors::LlmError;
use crate::presets::{self, Preset, ToolMode};

pub const BASE_URL_ENV: &str = "VIBE_LLM_BASE_URL";
pub const MODEL_ENV: &str = "VIBE_LLM_MODEL";

/// The `llm` section of settings.json. The API key is never here (keychain or env).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
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
            Some(url) => url.trim_end_matches('/').to_string(),
            None if preset.base_url.is_empty() => {
                return Err(LlmError::config(
                    "llm.preset \"custom\" needs llm.base_url (or VIBE_LLM_BASE_URL), e.g. http://127.0.0.1:8000/v1",
                ));
            }
            None => preset.base_url.to_string(),
        };
        let known_scheme =
            ["scripted:", "http://", "https://"].iter().any(|p| base_url.starts_with(p));
        if !known_scheme {
            return Err(LlmError::config(format!(
                "base URL {base_url:?} must start with http:// or https:// (or be scripted:PATH); set llm.base_url or VIBE_LLM_BASE_URL"
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
        })
    }
}

fn secs(value: f64, key: &str) -> Result<Duration, LlmError> {
    Duration::try_from_secs_f64(value).ok().filter(|d| !d.is_zero()).ok_or_else(|| {
        LlmError::config(format!("llm.{key} must be a positive number of seconds, got {value}"))
    })
}

/// A resolved endpoint: everything a client needs except the key.
#[derive(Debug, Clone, PartialEq)]
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
        assert_eq!(s.resolve().unwrap_err().kind(), "config");
    }
}
