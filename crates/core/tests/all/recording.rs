//! A scripted model that remembers every request, and what each told the model for its turn
//! (the system prompt and the latest user message, with which the turn's sections ride), for
//! scenarios that assert what the model was told (protocol sections, the safety section, the
//! prompt's stable prefix).

use std::sync::Mutex;

use futures::future::BoxFuture;
use vibe_llm::{ChatModel, ChatRequest, DeltaStream, LlmError, Message, ScriptedModel};

pub struct Recording {
    pub inner: ScriptedModel,
    /// Per request: the system prompt, then the latest user message (the turn's sections —
    /// protocol, safety, memory — come with it).
    pub systems: Mutex<Vec<String>>,
    pub requests: Mutex<Vec<ChatRequest>>,
}

impl Recording {
    pub fn new(inner: ScriptedModel) -> Self {
        Self { inner, systems: Mutex::new(Vec::new()), requests: Mutex::new(Vec::new()) }
    }
}

impl ChatModel for Recording {
    fn stream(&self, request: ChatRequest) -> DeltaStream {
        let system = request.messages.iter().find_map(|m| match m {
            Message::System { content } => Some(content.clone()),
            _ => None,
        });
        let latest = request.messages.iter().rev().find_map(|m| match m {
            Message::User { content } => Some(content.as_str()),
            _ => None,
        });
        let told = format!("{}\n\n{}", system.unwrap_or_default(), latest.unwrap_or_default());
        self.systems.lock().unwrap().push(told);
        self.requests.lock().unwrap().push(request.clone());
        self.inner.stream(request)
    }
    fn list_models(&self) -> BoxFuture<'_, Result<Vec<vibe_llm::ModelInfo>, LlmError>> {
        self.inner.list_models()
    }
    fn model_name(&self) -> &str {
        self.inner.model_name()
    }
}
