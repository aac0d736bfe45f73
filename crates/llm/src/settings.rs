//! What the `llm` section of settings.json means: the section itself ([`LlmSettings`], every
//! key optional, its defaults) is a wire type (`vibe_wire::settings`); here are the
//! `VIBE_LLM_*` environment overrides and resolution into a concrete [`Endpoint`]
//! ([`LlmSettingsExt`]). Building a model from it belongs to `factory.rs`.

use std::time::Duration;

use serde_json::Value;
pub use vibe_wire::settings::{LlmSettings, LocalSettings};

use crate::errors::LlmError;
use crate::presets::{self, Preset, ToolMode};
use crate::redact::redact_url;

pub const BASE_URL_ENV: &str = "VIBE_LLM_BASE_URL";
pub const MODEL_ENV: &str = "VIBE_LLM_MODEL";

/// Reading, overriding and resolving the `llm` section.
pub trait LlmSettingsExt: Sized {
    /// Read the `llm` section (`null` or absent → defaults). `source` names the file.
    fn from_section(section: &Value, source: &str) -> Result<Self, LlmError>;
    /// Apply `VIBE_LLM_BASE_URL` and `VIBE_LLM_MODEL` through `get` (usually `std::env::var`).
    fn with_env(self, get: impl Fn(&str) -> Option<String>) -> Self;
    /// Resolve preset, URL, model and tool mode.
    fn resolve(&self) -> Result<Endpoint, LlmError>;
}

impl LlmSettingsExt for LlmSettings {
    fn from_section(section: &Value, source: &str) -> Result<Self, LlmError> {
        if section.is_null() {
            return Ok(Self::default());
        }
        serde_json::from_value(section.clone()).map_err(|e| {
            LlmError::config(format!(
                "{source}: the \"llm\" section is invalid: {e} (see docs/llm.md for the keys)"
            ))
        })
    }

    fn with_env(mut self, get: impl Fn(&str) -> Option<String>) -> Self {
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

    fn resolve(&self) -> Result<Endpoint, LlmError> {
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
