//! Shared helpers: a client for a fake server with fast retries, and a clock that records
//! the client's waits instead of sleeping.

use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime};

use futures::future::BoxFuture;
use vibe_llm::RetryClock;

use serde_json::json;
use vibe_llm::{
    ApiKey, ChatModel as _, ChatRequest, ChatResponse, LlmError, LlmSettings, LlmSettingsExt,
    Message, OpenAiClient, collect,
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

/// A clock stopped at `now` whose sleeps return at once, recording each wait.
#[derive(Debug)]
pub struct RecordingClock {
    pub now: SystemTime,
    waits: Mutex<Vec<Duration>>,
}

impl RecordingClock {
    /// Stopped at 2026-10-21 07:28:00 GMT.
    pub fn new() -> Arc<Self> {
        let now = SystemTime::UNIX_EPOCH + Duration::from_secs(1_792_567_680);
        Arc::new(Self { now, waits: Mutex::new(Vec::new()) })
    }

    /// Every wait asked for, in order.
    pub fn waits(&self) -> Vec<Duration> {
        self.waits.lock().unwrap().clone()
    }
}

impl RetryClock for RecordingClock {
    fn now(&self) -> SystemTime {
        self.now
    }

    fn sleep(&self, wait: Duration) -> BoxFuture<'static, ()> {
        self.waits.lock().unwrap().push(wait);
        Box::pin(async {})
    }
}
