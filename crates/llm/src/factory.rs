//! Building the model the settings ask for: the scripted model for `scripted:PATH`, else
//! the OpenAI-compatible client with its key, wrapped in the structured-action adapter when
//! the resolved tool mode says so. Resolution of the settings themselves is `settings.rs`.

use std::path::Path;
use std::sync::Arc;

use crate::client::OpenAiClient;
use crate::errors::LlmError;
use crate::keychain::{self, KeySource};
use crate::model::ChatModel;
use crate::presets::{LOCAL_PRESET, ToolMode};
use crate::scripted::{ReadRecording, ScriptedModel};
use crate::settings::{Endpoint, LlmSettings, LlmSettingsExt};
use crate::structured::StructuredModel;

/// Why `llm.preset = "local"` cannot work in a build without the embedded engine.
pub const NO_EMBEDDED_ENGINE: &str = "this build has no embedded engine; llm.preset \"local\" needs VibeLife built with the `local-llm` cargo feature (the desktop app's release build has it: scripts/build-app.sh), or set llm.preset to a model server such as \"ollama\" (docs/llm.md)";

/// A ready model and what the person should know about how it was set up.
pub struct ModelSetup {
    pub model: Arc<dyn ChatModel>,
    pub endpoint: Endpoint,
    pub key_source: KeySource,
    /// One-line notices (e.g. no keychain service, no key for a hosted endpoint).
    pub notices: Vec<String>,
}

/// Build the model for `settings`. `env_key` is the value of `VIBE_LLM_API_KEY` if set.
pub fn build_model(
    settings: &LlmSettings,
    env_key: Option<String>,
) -> Result<ModelSetup, LlmError> {
    build_model_with(settings, env_key, None)
}

/// [`build_model`], reading a recorded run (`scripted:…/events.jsonl`) with `recordings` when
/// given (the app's reader, which opens sealed run files), else as a plain file.
pub fn build_model_with(
    settings: &LlmSettings,
    env_key: Option<String>,
    recordings: Option<&ReadRecording>,
) -> Result<ModelSetup, LlmError> {
    let endpoint = settings.resolve()?;
    let mut notices = Vec::new();
    if endpoint.preset.id == LOCAL_PRESET {
        // The embedded engine lives in crates/local-llm, above this crate: the core builds it.
        return Err(LlmError::config(NO_EMBEDDED_ENGINE));
    }
    let (inner, key_source): (Arc<dyn ChatModel>, KeySource) =
        match endpoint.base_url.strip_prefix("scripted:") {
            Some(path) => {
                let model = ScriptedModel::load_with(Path::new(path), recordings)?;
                (Arc::new(model), KeySource::None { notice: None })
            }
            None => {
                let (key, source) = keychain::load_api_key(&endpoint.base_url, env_key);
                if key.is_none() && endpoint.preset.needs_key {
                    let why = match &source {
                        KeySource::None { notice: Some(n) } => n.clone(),
                        _ => "no key is stored in the OS keychain for it".to_string(),
                    };
                    notices.push(format!(
                        "{} ({}) needs an API key: {why}",
                        endpoint.preset.label,
                        endpoint.shown_url()
                    ));
                }
                (Arc::new(OpenAiClient::new(endpoint.clone(), key)?), source)
            }
        };
    let model: Arc<dyn ChatModel> = match endpoint.tool_mode {
        ToolMode::Structured => Arc::new(StructuredModel::new(inner)),
        ToolMode::Native | ToolMode::Auto => inner,
    };
    Ok(ModelSetup { model, endpoint, key_source, notices })
}
