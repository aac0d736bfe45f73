//! Model endpoint commands: the provider presets, the local servers found at first run, the
//! models an endpoint offers, a test of the connection, and a raw probe (one request, what
//! came back).

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::{ErrorInfo, ErrorKind, TokenUsage, ToolMode};

/// A provider preset (`llm.preset`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct PresetView {
    pub id: String,
    pub label: String,
    /// Empty for `custom`.
    pub base_url: String,
    pub default_model: Option<String>,
    pub needs_key: bool,
    /// Local servers that answer without a model name.
    pub model_optional: bool,
}

/// `detect_local_servers`: a local model server that answered on its preset's default port.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct LocalServerView {
    /// The preset's settings name (`ollama`, `lmstudio`).
    pub preset: String,
    pub label: String,
    pub base_url: String,
    /// Model ids it serves (may be empty: the server runs but has no model yet).
    pub models: Vec<String>,
}

/// `list_models` (and `test_connection`): the settings' endpoint unless `base_url` is given.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct ListModelsRequest {
    #[serde(default)]
    pub base_url: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct ModelView {
    pub id: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct ModelList {
    pub base_url: String,
    pub models: Vec<ModelView>,
}

/// `test_connection`: one short chat request to the endpoint (the settings' unless given).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct TestConnectionRequest {
    #[serde(default)]
    pub base_url: Option<String>,
    #[serde(default)]
    pub model: Option<String>,
}

/// The outcome of a connection test; a failure is an answer, not a command error.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct TestConnectionResponse {
    pub ok: bool,
    pub base_url: String,
    pub model: Option<String>,
    /// The preset the endpoint resolved to.
    pub preset: String,
    /// The start of the model's answer.
    pub reply: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<ErrorInfo>,
}

/// `probe`: one chat request as given, and what came back.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct ProbeRequest {
    #[serde(default)]
    pub base_url: Option<String>,
    #[serde(default)]
    pub model: Option<String>,
    pub message: String,
    #[serde(default)]
    pub system: Option<String>,
    /// An OpenAI `tools` array.
    #[serde(default)]
    pub tools: Option<Value>,
    /// Retries before the first delta (the settings' when absent).
    #[serde(default)]
    pub retries: Option<u32>,
    /// Force native tools with a tiny echo tool (when `tools` is empty) and report whether
    /// the model calls it.
    #[serde(default)]
    pub detect: bool,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct ToolCallView {
    pub id: String,
    pub name: String,
    /// The arguments as JSON when they parse to an object, else the raw string.
    pub arguments: Value,
}

/// The stable shape of `vibe llm probe --json`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct ProbeResponse {
    pub text: String,
    pub reasoning: Option<String>,
    pub tool_calls: Vec<ToolCallView>,
    pub finish_reason: Option<String>,
    pub usage: Option<TokenUsage>,
    pub error: Option<ProbeError>,
    /// With `detect`: whether native tool calls worked.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub detect: Option<ProbeDetect>,
}

/// Why a probe failed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct ProbeError {
    pub kind: ErrorKind,
    pub message: String,
    /// Seconds the server asked to wait (HTTP 429/503).
    pub retry_after_s: Option<u64>,
}

/// What a `detect` probe found.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct ProbeDetect {
    pub native_tools: bool,
    /// `native` or `structured`.
    pub recommended_tool_mode: ToolMode,
}
