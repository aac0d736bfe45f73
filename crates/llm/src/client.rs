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
use crate::http_errors::{
    chain, check_status, first_byte_timeout, idle_timeout, redirect_policy, send_error,
};
use crate::keychain::ApiKey;
use crate::model::{ChatModel, DeltaStream, error_stream};
use crate::models::parse_models;
use crate::redact::{Secrets, redact_url};
use crate::request::chat_body;
use crate::retry::{self, RetryClock, SystemClock};
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
    /// The key's and the base URL's secrets, scrubbed from every error this client returns.
    secrets: Secrets,
    clock: Arc<dyn RetryClock>,
}

impl OpenAiClient {
    pub fn new(endpoint: Endpoint, key: Option<ApiKey>) -> Result<Self, LlmError> {
        let http = reqwest::Client::builder()
            .connect_timeout(endpoint.connect_timeout)
            .tcp_nodelay(true)
            .user_agent(concat!("vibelife/", env!("CARGO_PKG_VERSION")))
            .redirect(redirect_policy())
            .build()
            .map_err(|e| LlmError::config(format!("cannot build the HTTP client: {e}")))?;
        let secrets = Secrets::new(key.as_ref().map(ApiKey::expose), &endpoint.base_url);
        let clock = Arc::new(SystemClock);
        Ok(Self { http, inner: Arc::new(Inner { endpoint, key, secrets, clock }) })
    }

    /// The same client with another clock for Retry-After dates and the waits between
    /// attempts (tests record the waits instead of sleeping).
    pub fn with_clock(self, clock: Arc<dyn RetryClock>) -> Self {
        let Inner { endpoint, key, secrets, .. } = &*self.inner;
        let inner =
            Inner { endpoint: endpoint.clone(), key: key.clone(), secrets: secrets.clone(), clock };
        Self { http: self.http, inner: Arc::new(inner) }
    }

    pub fn endpoint(&self) -> &Endpoint {
        &self.inner.endpoint
    }

    fn get(&self, path: &str) -> reqwest::RequestBuilder {
        self.authorize(self.http.get(self.inner.endpoint.url(path)))
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

    fn secrets(&self) -> &Secrets {
        &self.inner.secrets
    }
}

impl ChatModel for OpenAiClient {
    fn stream(&self, request: ChatRequest) -> DeltaStream {
        let endpoint = &self.inner.endpoint;
        if endpoint.model.is_none() && !endpoint.preset.model_optional {
            return error_stream(LlmError::config(format!(
                "no model is set for {} ({}): choose one the server offers",
                endpoint.preset.label,
                endpoint.shown_url()
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
        Box::pin(async move { self.models().await.map_err(|e| e.redacted(self.secrets())) })
    }

    fn model_name(&self) -> &str {
        self.inner.endpoint.model.as_deref().unwrap_or("")
    }
}

impl OpenAiClient {
    async fn models(&self) -> Result<Vec<ModelInfo>, LlmError> {
        {
            let endpoint = &self.inner.endpoint;
            let response =
                tokio::time::timeout(endpoint.first_byte_timeout, self.get("/models").send())
                    .await
                    .map_err(|_| first_byte_timeout(endpoint))?
                    .map_err(|e| send_error(&e, endpoint))?;
            let body =
                check_status(response, endpoint, self.inner.clock.now()).await.map_err(|e| match e {
                LlmError::BadRequest { status: status @ (404 | 405), .. } => LlmError::BadRequest {
                    status,
                    message: format!(
                        "{} is not offered by this server (HTTP {status}): the model name has to be entered by hand",
                        redact_url(&endpoint.url("/models"))
                    ),
                },
                other => other,
            })?;
            let text = tokio::time::timeout(endpoint.idle_timeout, body.text())
                .await
                .map_err(|_| idle_timeout(endpoint))?
                .map_err(|e| LlmError::Network {
                    message: format!(
                        "reading the model list from {} failed: {}",
                        endpoint.shown_url(),
                        chain(&e)
                    ),
                })?;
            parse_models(&text, &endpoint.shown_url())
        }
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
                    read_some(bytes, decoder, self.got_bytes, deadline, endpoint, &mut self.queue)
                        .await
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
        let url = endpoint.url("/chat/completions");
        let rb = self
            .client
            .authorize(self.client.http.post(url))
            .header("accept", "text/event-stream")
            .json(&self.body);
        self.first_byte_deadline = tokio::time::Instant::now() + endpoint.first_byte_timeout;
        let response = tokio::time::timeout_at(self.first_byte_deadline, rb.send())
            .await
            .map_err(|_| first_byte_timeout(endpoint))?
            .map_err(|e| send_error(&e, endpoint))?;
        let response = check_status(response, endpoint, self.client.inner.clock.now()).await?;
        let mut decoder = DeltaDecoder::new(self.id_base, &endpoint.shown_url());
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
                .map_err(|e| LlmError::Network {
                    message: format!(
                        "reading the answer from {} failed: {}",
                        endpoint.shown_url(),
                        chain(&e)
                    ),
                })?;
            let compact =
                serde_json::from_str::<Value>(&text).map(|v| v.to_string()).unwrap_or(text);
            let mut out = Vec::new();
            let fed =
                decoder.feed(format!("data: {compact}\n\ndata: [DONE]\n\n").as_bytes(), &mut out);
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
        let error = error.redacted(self.client.secrets());
        self.bytes = None;
        self.decoder = None;
        let endpoint = &self.client.inner.endpoint;
        let can_retry = !self.yielded
            && self.queue.is_empty()
            && error.is_retryable()
            && self.attempt < endpoint.retries;
        if can_retry
            && let Some(wait) =
                retry::wait_for(&error, self.attempt, endpoint.retry_base, endpoint.max_retry_wait)
        {
            tracing::info!(
                kind = error.kind().as_str(),
                attempt = self.attempt + 1,
                ?wait,
                "retrying the model request: {error}"
            );
            self.client.inner.clock.sleep(wait).await;
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
        // Bytes had arrived: the answer began and was cut (reset, chunked body ended early).
        Some(Err(e)) if got_bytes => Err(LlmError::Truncated {
            message: format!(
                "the stream from {} was cut mid-answer ({}); the answer is incomplete",
                endpoint.shown_url(),
                chain(&e)
            ),
        }),
        Some(Err(e)) => Err(LlmError::Network {
            message: format!(
                "the connection to {} failed before any answer arrived: {}",
                endpoint.shown_url(),
                chain(&e)
            ),
        }),
        None => decoder.finish(&mut out).map(|()| Progress::Done),
    };
    queue.extend(out);
    match result {
        Ok(_) if decoder.is_done() => Ok(Progress::Done),
        other => other,
    }
}
