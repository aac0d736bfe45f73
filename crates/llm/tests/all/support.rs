//! Shared helpers: a client for a fake server with fast retries.

use serde_json::json;
use vibe_llm::{
    ApiKey, ChatModel as _, ChatRequest, ChatResponse, LlmError, LlmSettings, Message,
    OpenAiClient, collect,
};
use vibe_test_support::FakeServer;

pub const KEY: &str = "sk-test-SECRET-0123456789";

pub fn settings(server: &FakeServer) -> LlmSettings {
    LlmSettings::from_section(
        &json!({"base_url": server.url(), "model": "fake-model", "retry_base_ms": 1, "include_usage": true}),
        "test",
    )
    .unwrap()
}

pub fn client_with(settings: LlmSettings) -> OpenAiClient {
    OpenAiClient::new(settings.resolve().unwrap(), Some(ApiKey::new(KEY))).unwrap()
}

pub fn client(server: &FakeServer) -> OpenAiClient {
    client_with(settings(server))
}

pub fn hello() -> ChatRequest {
    ChatRequest::new(vec![Message::system("be brief"), Message::user("hello")])
}

pub async fn ask(client: &OpenAiClient) -> (ChatResponse, Option<LlmError>) {
    collect(client.stream(hello())).await
}

/// Assert the key appears nowhere in an error's text or debug form.
pub fn assert_no_key(err: &LlmError) {
    assert!(!err.to_string().contains(KEY), "key leaked in {err}");
    assert!(!format!("{err:?}").contains(KEY), "key leaked in {err:?}");
}
