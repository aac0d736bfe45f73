//! A scripted model that remembers every request (and the system prompt of each), for
//! scenarios that assert what the model was told (protocol sections, the safety section, the
//! prompt's stable prefix).

use std::sync::Mutex;

use futures::future::BoxFuture;
use vibe_llm::{ChatModel, ChatRequest, DeltaStream, LlmError, Message, ScriptedModel};

pub struct Recording {
    pub inner: ScriptedModel,
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
        self.systems.lock().unwrap().push(system.unwrap_or_default());
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
