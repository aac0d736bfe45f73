//! Fixtures and helpers: open a tiny model, gather one answer.

use std::path::PathBuf;

use futures::StreamExt as _;
use vibe_llm::{ChatModel, ChatRequest, Delta, LlmError, Message, Params, TokenUsage};
use vibe_local_llm::{LocalConfig, LocalModel};

/// A committed fixture model: `kind` is `q8_0`, `f16` or `f32`.
pub fn fixture(kind: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(format!("tests/fixtures/tiny-{kind}.gguf"))
}

pub fn config(kind: &str) -> LocalConfig {
    LocalConfig { threads: Some(1), ..LocalConfig::new(fixture(kind), format!("tiny-{kind}")) }
}

pub fn open(kind: &str) -> LocalModel {
    LocalModel::open(config(kind)).unwrap()
}

/// A greedy request of `max_tokens` for one user message.
pub fn greedy(message: &str, max_tokens: u32) -> ChatRequest {
    ChatRequest {
        messages: vec![Message::system("You are a coach."), Message::user(message)],
        params: Params {
            temperature: Some(0.0),
            max_tokens: Some(max_tokens),
            ..Params::default()
        },
        ..ChatRequest::default()
    }
}

/// One whole answer.
#[derive(Debug, Default)]
pub struct Answer {
    pub text: String,
    pub usage: Option<TokenUsage>,
    pub finish: Option<String>,
    pub deltas: usize,
}

pub async fn answer(model: &dyn ChatModel, request: ChatRequest) -> Result<Answer, LlmError> {
    let mut stream = model.stream(request);
    let mut out = Answer::default();
    while let Some(delta) = stream.next().await {
        out.deltas += 1;
        match delta? {
            Delta::Text { text } => out.text.push_str(&text),
            Delta::Usage { usage } => out.usage = Some(usage),
            Delta::Finish { reason } => out.finish = reason,
            Delta::Restart { .. } => out.text.clear(),
            _ => {}
        }
    }
    Ok(out)
}
