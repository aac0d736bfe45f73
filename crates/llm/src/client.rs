//! The OpenAI-compatible streaming client: sends `POST {base_url}/chat/completions`, applies
//! the connect / first-byte / idle timeouts, retries (backoff + jitter, Retry-After) only
//! before the first delta, and hands decoded deltas to the caller. Dropping the stream drops
//! the HTTP request. Decoding bytes is `decode.rs`; the request body is `request.rs`.

use std::collections::VecDeque;
use std::pin::Pin;
use std::sync::Arc;

use bytes::Bytes;
use futures::future::BoxFuture;
use futures::{Stream, StreamExt as _};
use serde_json::Value;

use crate::decode::DeltaDecoder;
use crate::errors::LlmError;
use crate::keychain::ApiKey;
use crate::model::{ChatModel, DeltaStream, error_stream};
use crate::request::chat_body;
use crate::retry;
use crate::settings::Endpoint;
use crate::types::{ChatRequest, Delta, ModelInfo};

/// A client for one OpenAI-compatible endpoint.
#[derive(Clone)]
pub struct OpenAiClient {
    http: reqwest::Client,
    inner: Arc<Inner>,
}

struct Inner {
    endpoint: Endpoint,
    key: Option<ApiKey>,
}

impl OpenAiClient {
    pub fn new(endpoint: Endpoint, key: Option<ApiKey>) -> Result<Self, LlmError> {
        let http = reqwest::Client::builder()
            .connect_timeout(endpoint.connect_timeout)
            .tcp_nodelay(true)
            .user_agent(concat!("vibelife/", env!("CARGO_PKG_VERSION")))
            .build()
            .map_err(|e| LlmError::config(format!("cannot build the HTTP client: {e}")))?;
        Ok(Self { http, inner: Arc::new(Inner { endpoint, key }) })
    }

    pub fn endpoint(&self) -> &Endpoint {
        &self.inner.endpoint
    }

    fn get(&self, path: &str) -> reqwest::RequestBuilder {
        self.authorize(self.http.get(format!("{}{path}", self.inner.endpoint.base_url)))
    }

    fn authorize(&self, mut rb: reqwest::RequestBuilder) -> reqwest::RequestBuilder {
        if let Some(key) = &self.inner.key {
            rb = rb.bearer_auth(key.expose());
        }
        for (name, value) in self.inner.endpoint.preset.headers {
            rb = rb.header(*name, *value);
        }
        rb
    }

    fn secret(&self) -> Option<&str> {
        self.inner.key.as_ref().map(ApiKey::expose)
    }
}

impl ChatModel for OpenAiClient {
    fn stream(&self, request: ChatRequest) -> DeltaStream {
        let endpoint = &self.inner.endpoint;
        if endpoint.model.is_none() && !endpoint.preset.model_optional {
            return error_stream(LlmError::config(format!(
                "no model is set for {} ({}); pass --model, set VIBE_LLM_MODEL or llm.model in settings.json (`vibe llm models` lists what the server offers)",
                endpoint.preset.label, endpoint.base_url
            )));
        }
        let body = chat_body(endpoint, &request);
        let session = Session {
            client: self.clone(),
            body,
            id_base: request.prior_tool_calls(),
            attempt: 0,
            bytes: None,
            decoder: None,
            got_bytes: false,
            first_byte_deadline: tokio::time::Instant::now(),
            yielded: false,
            queue: VecDeque::new(),
            error: None,
            finished: false,
        };
        Box::pin(futures::stream::unfold(session, |mut s| async move {
            let item = s.next().await?;
            Some((item, s))
        }))
    }

    fn list_models(&self) -> BoxFuture<'_, Result<Vec<ModelInfo>, LlmError>> {
        Box::pin(async move {
            let endpoint = &self.inner.endpoint;
            let response = tokio::time::timeout(endpoint.first_byte_timeout, self.get("/models").send())
                .await
                .map_err(|_| first_byte_timeout(endpoint))?
                .map_err(|e| send_error(&e, endpoint))?;
            let body = check_status(response, endpoint).await.map_err(|e| e.redacted(self.secret()))?;
            let text = tokio::time::timeout(endpoint.idle_timeout, body.text())
                .await
                .map_err(|_| idle_timeout(endpoint))?
                .map_err(|e| LlmError::Network { message: format!("reading the model list from {} failed: {}", endpoint.base_url, chain(&e)) })?;
            parse_models(&text, &endpoint.base_url)
        })
    }

    fn model_name(&self) -> &str {
        self.inner.endpoint.model.as_deref().unwrap_or("")
    }
}

type ByteStream = Pin<Box<dyn Stream<Item = reqwest::Result<Bytes>> + Send>>;

/// One answer in progress.
struct Session {
    client: OpenAiClient,
    body: Value,
    id_base: usize,
    attempt: u32,
    bytes: Option<ByteStream>,
    decoder: Option<DeltaDecoder>,
    got_bytes: bool,
    /// The first byte of this attempt's answer must arrive by then (headers and body alike).
    first_byte_deadline: tokio::time::Instant,
    yielded: bool,
    queue: VecDeque<Delta>,
    error: Option<LlmError>,
    finished: bool,
}

impl Session {
    async fn next(&mut self) -> Option<Result<Delta, LlmError>> {
        loop {
            if let Some(d) = self.queue.pop_front() {
                self.yielded = true;
                return Some(Ok(d));
            }
            if let Some(e) = self.error.take() {
                self.finished = true;
                return Some(Err(e));
            }
            if self.finished {
                return None;
            }
            let result = match (&mut self.bytes, &mut self.decoder) {
                (Some(bytes), Some(decoder)) => {
                    let endpoint = &self.client.inner.endpoint;
                    let deadline = match self.got_bytes {
                        true => tokio::time::Instant::now() + endpoint.idle_timeout,
                        false => self.first_byte_deadline,
                    };
                    read_some(bytes, decoder, self.got_bytes, deadline, endpoint, &mut self.queue).await
                }
                _ => self.connect().await,
            };
            match result {
                Ok(Progress::Bytes) => self.got_bytes = true,
                Ok(Progress::Connected) => {}
                Ok(Progress::Done) => self.finished = true,
                Err(e) => self.fail(e).await,
            }
        }
    }

    async fn connect(&mut self) -> Result<Progress, LlmError> {
        let endpoint = &self.client.inner.endpoint;
        let url = format!("{}/chat/completions", endpoint.base_url);
        let rb = self.client.authorize(self.client.http.post(url)).header("accept", "text/event-stream").json(&self.body);
        self.first_byte_deadline = tokio::time::Instant::now() + endpoint.first_byte_timeout;
        let response = tokio::time::timeout_at(self.first_byte_deadline, rb.send())
            .await
            .map_err(|_| first_byte_timeout(endpoint))?
            .map_err(|e| send_error(&e, endpoint))?;
        let response = check_status(response, endpoint).await?;
        let mut decoder = DeltaDecoder::new(self.id_base, &endpoint.base_url);
        let is_json = response
            .headers()
            .get("content-type")
            .and_then(|v| v.to_str().ok())
            .is_some_and(|v| v.starts_with("application/json"));
        self.got_bytes = false;
        if is_json {
            // A server that ignored `stream: true` and sent one whole completion.
            let text = tokio::time::timeout_at(self.first_byte_deadline, response.text())
                .await
                .map_err(|_| first_byte_timeout(endpoint))?
                .map_err(|e| LlmError::Network { message: format!("reading the answer from {} failed: {}", endpoint.base_url, chain(&e)) })?;
            let compact = serde_json::from_str::<Value>(&text).map(|v| v.to_string()).unwrap_or(text);
            let mut out = Vec::new();
            let fed = decoder.feed(format!("data: {compact}\n\ndata: [DONE]\n\n").as_bytes(), &mut out);
            self.queue.extend(out);
            fed?;
            return Ok(Progress::Done);
        }
        self.bytes = Some(Box::pin(response.bytes_stream()));
        self.decoder = Some(decoder);
        Ok(Progress::Connected)
    }

    /// Retry when nothing was yielded yet and the error allows it; else report it.
    async fn fail(&mut self, error: LlmError) {
        let error = error.redacted(self.client.secret());
        self.bytes = None;
        self.decoder = None;
        let endpoint = &self.client.inner.endpoint;
        let can_retry = !self.yielded && self.queue.is_empty() && error.is_retryable() && self.attempt < endpoint.retries;
        if can_retry && let Some(wait) = retry::wait_for(&error, self.attempt, endpoint.retry_base, endpoint.max_retry_wait) {
            tracing::info!(kind = error.kind(), attempt = self.attempt + 1, ?wait, "retrying the model request: {error}");
            tokio::time::sleep(wait).await;
            self.attempt += 1;
            return;
        }
        self.error = Some(error);
    }
}

enum Progress {
    Connected,
    Bytes,
    Done,
}

async fn read_some(
    bytes: &mut ByteStream,
    decoder: &mut DeltaDecoder,
    got_bytes: bool,
    deadline: tokio::time::Instant,
    endpoint: &Endpoint,
    queue: &mut VecDeque<Delta>,
) -> Result<Progress, LlmError> {
    let next = tokio::time::timeout_at(deadline, bytes.next()).await.map_err(|_| {
        if got_bytes { idle_timeout(endpoint) } else { first_byte_timeout(endpoint) }
    })?;
    let mut out = Vec::new();
    let result = match next {
        Some(Ok(chunk)) => decoder.feed(&chunk, &mut out).map(|()| Progress::Bytes),
        Some(Err(e)) => Err(LlmError::Network {
            message: format!("the connection to {} failed mid-stream: {}", endpoint.base_url, chain(&e)),
        }),
        None => decoder.finish(&mut out).map(|()| Progress::Done),
    };
    queue.extend(out);
    match result {
        Ok(_) if decoder.is_done() => Ok(Progress::Done),
        other => other,
    }
}

async fn check_status(response: reqwest::Response, endpoint: &Endpoint) -> Result<reqwest::Response, LlmError> {
    let status = response.status();
    if status.is_success() {
        return Ok(response);
    }
    let retry_after = response
        .headers()
        .get("retry-after")
        .and_then(|v| v.to_str().ok())
        .and_then(retry::parse_retry_after);
    let body = tokio::time::timeout(endpoint.idle_timeout, response.text()).await.ok().and_then(Result::ok).unwrap_or_default();
    Err(LlmError::from_status(status.as_u16(), &server_message(&body), retry_after, &endpoint.base_url))
}

/// The server's own words from an error body: `error.message`, `error`, `message`, or text.
fn server_message(body: &str) -> String {
    let from_json = serde_json::from_str::<Value>(body).ok().and_then(|v| {
        let e = v.get("error").unwrap_or(&v);
        e.get("message").or(v.get("message")).or(Some(e)).and_then(|m| m.as_str().map(str::to_string))
    });
    let text = from_json.unwrap_or_else(|| body.trim().to_string());
    let mut short: String = text.chars().take(300).collect();
    if short.len() < text.len() {
        short.push('…');
    }
    short
}

fn first_byte_timeout(endpoint: &Endpoint) -> LlmError {
    LlmError::Timeout {
        message: format!(
            "{} sent nothing for {} s (llm.first_byte_timeout_s); the model may still be loading — try again or raise the timeout",
            endpoint.base_url,
            endpoint.first_byte_timeout.as_secs_f64()
        ),
    }
}

fn idle_timeout(endpoint: &Endpoint) -> LlmError {
    LlmError::Timeout {
        message: format!(
            "{} stopped sending for {} s mid-answer (llm.idle_timeout_s)",
            endpoint.base_url,
            endpoint.idle_timeout.as_secs_f64()
        ),
    }
}

fn send_error(e: &reqwest::Error, endpoint: &Endpoint) -> LlmError {
    if e.is_timeout() {
        return LlmError::Timeout {
            message: format!(
                "connecting to {} timed out after {} s (llm.connect_timeout_s); is the server reachable?",
                endpoint.base_url,
                endpoint.connect_timeout.as_secs_f64()
            ),
        };
    }
    LlmError::Network {
        message: format!("cannot reach {}: {}; is the server running and the base URL right?", endpoint.base_url, chain(e)),
    }
}

/// An error and its sources on one line (reqwest's own text is terse).
fn chain(e: &dyn std::error::Error) -> String {
    let mut parts = vec![e.to_string()];
    let mut source = e.source();
    while let Some(s) = source {
        let text = s.to_string();
        if !parts.iter().any(|p| p.contains(&text)) {
            parts.push(text);
        }
        source = s.source();
    }
    parts.join(": ")
}

fn parse_models(text: &str, base_url: &str) -> Result<Vec<ModelInfo>, LlmError> {
    let value: Value = serde_json::from_str(text).map_err(|e| {
        LlmError::protocol(format!("{base_url}/models did not return JSON ({e}); is the base URL an OpenAI-compatible endpoint?"))
    })?;
    let list = value
        .get("data")
        .or_else(|| value.get("models"))
        .unwrap_or(&value)
        .as_array()
        .ok_or_else(|| LlmError::protocol(format!("{base_url}/models returned no model list (expected {{\"data\": [...]}})")))?;
    Ok(list
        .iter()
        .filter_map(|m| {
            let id = m.get("id").or_else(|| m.get("name")).and_then(Value::as_str)?;
            let owned_by = m.get("owned_by").and_then(Value::as_str).map(str::to_string);
            Some(ModelInfo { id: id.to_string(), owned_by })
        })
        .collect())
}

