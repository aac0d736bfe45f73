//! The LLM layer: one [`ChatModel`] trait the agent uses, the OpenAI-compatible streaming
//! client behind it, provider presets, settings and API-key lookup, the scripted model and
//! the structured-action mode for models without native tool calling. No agent logic,
//! no persistence, no UI here.

mod client;
mod collect;
mod decode;
mod detect;
mod errors;
mod factory;
mod http_errors;
mod keychain;
pub mod measure;
mod model;
mod models;
mod presets;
mod reassemble;
mod redact;
mod request;
mod retry;
mod scripted;
mod settings;
mod sse;
mod structured;
mod think;
mod types;

pub use client::OpenAiClient;
pub use collect::{Accumulator, ChatResponse, collect};
pub use decode::sse_deltas;
pub use detect::{LOCAL_PRESETS, LocalServer, PROBE_TIMEOUT, detect_local_servers};
pub use errors::LlmError;
pub use factory::{ModelSetup, NO_EMBEDDED_ENGINE, build_model, build_model_with};
pub use keychain::{
    API_KEY_ENV, ApiKey, KEYCHAIN_SERVICE, KeySource, account_for, delete_api_key, load_api_key,
    store_api_key,
};
pub use model::{ChatModel, DeltaStream, Warmed};
pub use presets::{LOCAL_BASE_URL, LOCAL_PRESET, PRESETS, Preset, ToolMode};
pub use redact::{REDACTED, Secrets, redact_url};
pub use retry::{RetryClock, SystemClock};
pub use scripted::{ReadRecording, ScriptedModel};
pub use settings::{BASE_URL_ENV, Endpoint, LlmSettings, LlmSettingsExt, LocalSettings, MODEL_ENV};
pub use structured::{StructuredModel, UNUSABLE_REPLY, action_schema};
pub use think::ThinkSplitter;
pub use types::{
    ChatRequest, Delta, EMPTY_ARGUMENTS, Message, ModelInfo, Params, TokenUsage, ToolCall, ToolDef,
};
