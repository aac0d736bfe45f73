//! The model endpoint: which settings it resolves from (the assembly's — settings, then
//! overrides — then the command's own arguments), the check that a request could ever reach it, building the
//! model, and the endpoint commands (`detect_local_servers`, `list_models`, `test_connection`,
//! `probe`).

use std::sync::Arc;

use serde_json::{Value, json};
use vibe_llm::{
    ChatModel, ChatRequest, ChatResponse, Endpoint, LlmError, LlmSettings, LlmSettingsExt, Message,
    PRESETS, ToolDef, ToolMode,
};
use vibe_wire::TokenUsage;
use vibe_wire::command::{
    ListModelsRequest, LocalServerView, ModelList, ModelView, PresetView, ProbeDetect, ProbeError,
    ProbeRequest, ProbeResponse, TestConnectionRequest, TestConnectionResponse, ToolCallView,
};

use crate::app::{App, AppError};

/// What a connection test asks.
const TEST_MESSAGE: &str = "Reply with one short word.";
/// How much of the answer a connection test returns.
const TEST_REPLY_CHARS: usize = 200;

/// The provider presets, for settings screens.
pub(crate) fn presets() -> Vec<PresetView> {
    PRESETS
        .iter()
        .map(|p| PresetView {
            id: p.id.to_string(),
            label: p.label.to_string(),
            base_url: p.base_url.to_string(),
            default_model: p.default_model.map(str::to_string),
            needs_key: p.needs_key,
            model_optional: p.model_optional,
        })
        .collect()
}

/// Refuse an endpoint no request could use: a base URL that is not a valid http(s) URL
/// with a host, or no model where the server needs one.
pub fn check_endpoint(endpoint: &Endpoint) -> Result<(), AppError> {
    let base = &endpoint.base_url;
    if base.starts_with("scripted:") {
        return Ok(());
    }
    // The embedded engine: no server; the model file is checked when it is opened.
    if endpoint.preset.id == vibe_llm::LOCAL_PRESET {
        return Ok(());
    }
    let bad = |problem: String| AppError::BadEndpoint { base_url: endpoint.shown_url(), problem };
    match url::Url::parse(base) {
        Ok(url) if url.host_str().is_some_and(|h| !h.is_empty()) => {}
        Ok(_) => return Err(bad("names no host".into())),
        Err(e) => return Err(bad(format!("is not a valid URL ({e})"))),
    }
    if endpoint.model.is_none() && !endpoint.preset.model_optional {
        return Err(AppError::NoModel {
            base_url: endpoint.shown_url(),
            preset: endpoint.preset.label.to_string(),
        });
    }
    Ok(())
}

/// Check an OpenAI `tools` array for a probe before sending it; `source` names where it came
/// from (a file), so the error points there.
pub fn check_probe_tools(tools: &Value, source: &str) -> Result<(), AppError> {
    ToolDef::from_openai_tools(tools, source)?;
    Ok(())
}

impl App {
    /// Whether no model endpoint was ever chosen for this data dir: no `llm` section in its
    /// settings file and no base URL from the environment. A front end offers its first-run
    /// set-up then. (Other sections, such as the encryption mode recorded at the first open,
    /// do not count as a choice of model.)
    pub fn needs_first_run(&self) -> bool {
        if self.overrides().base_url.is_some() {
            return false;
        }
        let doc = std::fs::read_to_string(self.paths().settings_file())
            .ok()
            .and_then(|text| serde_json::from_str::<serde_json::Value>(&text).ok());
        doc.is_none_or(|d| d.get("llm").is_none())
    }

    /// `detect_local_servers`: the local model servers answering on their presets' default
    /// ports (first run offers them). Only loopback addresses are asked.
    pub async fn detect_local_servers(&self) -> Vec<LocalServerView> {
        vibe_llm::detect_local_servers()
            .await
            .into_iter()
            .map(|s| LocalServerView {
                preset: s.preset,
                label: s.label,
                base_url: s.base_url,
                models: s.models,
            })
            .collect()
    }

    /// The `llm` settings in force (the assembly's: settings with the overrides applied),
    /// with a command's own `base_url` / `model` applied.
    pub fn llm_settings(&self, base_url: Option<&str>, model: Option<&str>) -> LlmSettings {
        let mut s = self.assembly().llm.clone();
        if let Some(url) = base_url.filter(|u| !u.trim().is_empty()) {
            s.base_url = Some(url.trim().to_string());
            s.preset = None; // an explicit URL names its own preset
        }
        if let Some(m) = model.filter(|m| !m.trim().is_empty()) {
            s.model = Some(m.trim().to_string());
        }
        s
    }

    /// The endpoint the settings in force resolve to (with `base_url` / `model` applied).
    pub fn endpoint(
        &self,
        base_url: Option<&str>,
        model: Option<&str>,
    ) -> Result<Endpoint, AppError> {
        Ok(self.llm_settings(base_url, model).resolve()?)
    }

    /// The model the settings and overrides describe, checked, with its set-up notices: for
    /// front-end work outside a turn (a memory pass, a safety check with the model).
    pub fn model(&self) -> Result<(Arc<dyn ChatModel>, Vec<String>), AppError> {
        self.build_model(None, None)
    }

    /// The model for a turn or an endpoint command, with its set-up notices: the overrides'
    /// ready model when there is one and no other endpoint is asked for, else the one the
    /// settings describe, checked first.
    pub(crate) fn build_model(
        &self,
        base_url: Option<&str>,
        model: Option<&str>,
    ) -> Result<(Arc<dyn ChatModel>, Vec<String>), AppError> {
        if let Some(ready) = &self.assembly().ready_model
            && base_url.is_none()
            && model.is_none()
        {
            return Ok((ready.clone(), Vec::new()));
        }
        self.build_model_from(&self.llm_settings(base_url, model), true)
    }

    fn build_model_from(
        &self,
        settings: &LlmSettings,
        check: bool,
    ) -> Result<(Arc<dyn ChatModel>, Vec<String>), AppError> {
        let endpoint = settings.resolve()?;
        if check {
            check_endpoint(&endpoint)?;
        }
        if endpoint.preset.id == vibe_llm::LOCAL_PRESET {
            return Ok((self.local_model(&endpoint)?, Vec::new()));
        }
        let key = self.overrides.api_key.clone().or_else(|| {
            if endpoint.base_url.starts_with("scripted:") {
                None
            } else {
                self.keys.get(&endpoint.base_url)
            }
        });
        let run_key = self.run_folders().key().cloned();
        let recordings: vibe_llm::ReadRecording =
            Arc::new(move |path| vibe_runlog::read_recording(path, run_key.as_deref()));
        let setup = vibe_llm::build_model_with(
            settings,
            key.map(|k| k.expose().to_string()),
            Some(&recordings),
        )?;
        Ok((setup.model, setup.notices))
    }

    /// `list_models`: what the endpoint offers (`GET {base_url}/models`).
    pub async fn list_models(&self, request: &ListModelsRequest) -> Result<ModelList, AppError> {
        let settings = self.llm_settings(request.base_url.as_deref(), None);
        let endpoint = settings.resolve()?;
        let (model, notices) = match (&self.assembly().ready_model, &request.base_url) {
            (Some(ready), None) => (ready.clone(), Vec::new()),
            _ => self.build_model_from(&settings, false)?,
        };
        self.set_notices(notices);
        let list = model
            .list_models()
            .await
            .map_err(|err| AppError::Model { base_url: endpoint.shown_url(), err })?;
        Ok(ModelList {
            base_url: endpoint.shown_url(),
            models: list.into_iter().map(|m| ModelView { id: m.id }).collect(),
        })
    }

    /// `test_connection`: one short chat request. A failure is an answer (`ok: false` with
    /// the error), so a settings screen shows it beside the fields.
    pub async fn test_connection(&self, request: &TestConnectionRequest) -> TestConnectionResponse {
        let settings = self.llm_settings(request.base_url.as_deref(), request.model.as_deref());
        let resolved = settings.resolve();
        let (base_url, model_name, preset) = match &resolved {
            Ok(e) => (e.shown_url(), e.model.clone(), e.preset.id.to_string()),
            Err(_) => (
                settings.base_url.as_deref().map(vibe_llm::redact_url).unwrap_or_default(),
                settings.model.clone(),
                String::new(),
            ),
        };
        let answer = |reply: String, error: Option<AppError>| TestConnectionResponse {
            ok: error.is_none(),
            base_url: base_url.clone(),
            model: model_name.clone(),
            preset: preset.clone(),
            reply,
            error: error.map(|e| e.to_error_info()),
        };
        let built = match (&self.assembly().ready_model, &request.base_url, &request.model) {
            (Some(ready), None, None) => Ok((ready.clone(), Vec::new())),
            _ => self.build_model_from(&settings, true),
        };
        let model = match built {
            Ok((model, notices)) => {
                self.set_notices(notices);
                model
            }
            Err(e) => return answer(String::new(), Some(e)),
        };
        let request =
            ChatRequest { messages: vec![Message::user(TEST_MESSAGE)], ..ChatRequest::default() };
        let (response, error) = vibe_llm::collect(model.stream(request)).await;
        let reply: String = response.text.trim().chars().take(TEST_REPLY_CHARS).collect();
        answer(reply, error.map(|err| AppError::Model { base_url: base_url.clone(), err }))
    }

    /// `probe`: one chat request as given, and what came back (set-up failures included, in
    /// the same shape).
    pub async fn probe(&self, request: &ProbeRequest) -> ProbeResponse {
        let (response, error) = match self.prepare_probe(request) {
            Ok((model, chat)) => vibe_llm::collect(model.stream(chat)).await,
            Err(e) => (ChatResponse::default(), Some(e)),
        };
        let detect = request.detect.then(|| {
            let native = error.is_none() && !response.tool_calls.is_empty();
            ProbeDetect {
                native_tools: native,
                recommended_tool_mode: if native { ToolMode::Native } else { ToolMode::Structured },
            }
        });
        probe_response(&response, error.as_ref(), detect)
    }

    fn prepare_probe(
        &self,
        request: &ProbeRequest,
    ) -> Result<(Arc<dyn ChatModel>, ChatRequest), LlmError> {
        let mut settings = self.llm_settings(request.base_url.as_deref(), request.model.as_deref());
        if let Some(n) = request.retries {
            settings.retries = n;
        }
        let mut tools = match &request.tools {
            Some(value) => ToolDef::from_openai_tools(value, "the tools of the probe")?,
            None => Vec::new(),
        };
        let mut message = request.message.clone();
        if request.detect {
            settings.tool_mode = ToolMode::Native;
            if tools.is_empty() {
                tools.push(detect_tool());
                message =
                    "Call the tool `echo` with the text \"ping\". Do not answer in words.".into();
            }
        }
        let (model, notices) = self
            .build_model_from(&settings, false)
            .map_err(|e| LlmError::Config { message: e.to_string() })?;
        self.set_notices(notices);
        let mut messages = Vec::new();
        if let Some(system) = &request.system {
            messages.push(Message::system(system.clone()));
        }
        messages.push(Message::user(message));
        Ok((model, ChatRequest { messages, tools, ..ChatRequest::default() }))
    }

    fn set_notices(&self, notices: Vec<String>) {
        *self.notices.lock().unwrap_or_else(std::sync::PoisonError::into_inner) = notices;
    }
}

/// The probe tool of `detect`.
fn detect_tool() -> ToolDef {
    ToolDef {
        name: "echo".into(),
        description: "Repeat the given text back. Call it when asked to.".into(),
        parameters: json!({"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]}).into(),
    }
}

fn probe_response(
    r: &ChatResponse,
    error: Option<&LlmError>,
    detect: Option<ProbeDetect>,
) -> ProbeResponse {
    ProbeResponse {
        text: r.text.clone(),
        reasoning: r.reasoning.clone(),
        tool_calls: r
            .tool_calls
            .iter()
            .map(|c| ToolCallView {
                id: c.id.clone(),
                name: c.name.clone(),
                arguments: serde_json::from_str::<Value>(&c.arguments)
                    .ok()
                    .filter(Value::is_object)
                    .unwrap_or_else(|| Value::String(c.arguments.clone())),
            })
            .collect(),
        finish_reason: r.finish_reason.clone(),
        usage: r.usage.map(|u| TokenUsage {
            prompt_tokens: u.prompt_tokens,
            completion_tokens: u.completion_tokens,
            total_tokens: u.total_tokens,
        }),
        error: error.map(|e| ProbeError {
            kind: e.kind(),
            message: e.to_string(),
            retry_after_s: e.retry_after_s(),
        }),
        detect,
    }
}
