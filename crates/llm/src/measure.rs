//! A [`ChatModel`] wrapper that measures each request it passes on (benchmarks: `vibe bench
//! local`): it keeps the request, times the first answer token and the generation, and reads a
//! model's prompt counters (tokens evaluated and reused, states loaded) before and after, from a
//! source the caller gives. Measuring only: it changes no request and no delta, and never fails
//! one.

use std::sync::{Arc, Mutex};
use std::time::Instant;

use futures::StreamExt as _;
use futures::future::BoxFuture;
use serde::{Deserialize, Serialize};

use crate::{ChatModel, ChatRequest, Delta, DeltaStream, LlmError, ModelInfo, Warmed};

/// The figures of one model request.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct RequestFigures {
    /// Prompt tokens, as the model's own tokenizer counted them (its `Usage`).
    pub prompt_tokens: u64,
    /// Prompt tokens run through the model (`None`: the model does not say).
    pub evaluated_tokens: Option<u64>,
    /// Prompt tokens whose state was kept or loaded (`None`: the model does not say).
    pub reused_tokens: Option<u64>,
    /// Whether a saved state was loaded for this request (the embedded engine only).
    pub state_loaded: bool,
    /// From sending the request to the first answer token.
    pub first_token_ms: f64,
    /// Tokens generated.
    pub generated_tokens: u64,
    /// Generated tokens per second after the first one (`None`: fewer than two).
    pub generation_tokens_per_s: Option<f64>,
    /// The request's error, if it failed.
    pub error: Option<String>,
}

/// One recorded request: what was sent and what it cost.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Recorded {
    pub request: ChatRequest,
    pub figures: RequestFigures,
}

/// A model's prompt counters (the embedded engine's), read before and after a request.
#[derive(Debug, Clone, Copy, Default)]
pub struct Counts {
    pub evaluated: u64,
    pub reused: u64,
    pub states_loaded: u64,
}

/// Where the counts come from (`None`: the model does not tell them).
pub type CountSource = Arc<dyn Fn() -> Option<Counts> + Send + Sync>;

/// The requests recorded so far, in order.
pub type Log = Arc<Mutex<Vec<Recorded>>>;

/// A model that records every request it passes on into `log`.
pub struct Recorder {
    inner: Arc<dyn ChatModel>,
    log: Log,
    counts: CountSource,
}

impl Recorder {
    pub fn new(inner: Arc<dyn ChatModel>, log: Log, counts: CountSource) -> Self {
        Self { inner, log, counts }
    }
}

/// What one stream has seen so far; written to the log when the stream ends or is dropped.
struct Pending {
    request: Option<ChatRequest>,
    log: Log,
    counts: CountSource,
    before: Option<Counts>,
    started: Instant,
    first: Option<Instant>,
    last: Option<Instant>,
    generated: u64,
    prompt_tokens: u64,
    error: Option<String>,
}

impl Pending {
    fn see(&mut self, item: &Result<Delta, LlmError>) {
        let now = Instant::now();
        match item {
            Ok(Delta::Text { text } | Delta::Reasoning { text }) if !text.is_empty() => {
                self.first.get_or_insert(now);
                self.last = Some(now);
            }
            Ok(Delta::Usage { usage }) => {
                self.prompt_tokens = usage.prompt_tokens;
                self.generated = usage.completion_tokens;
            }
            Err(e) => self.error = Some(e.to_string()),
            _ => {}
        }
    }
}

impl Drop for Pending {
    fn drop(&mut self) {
        let Some(request) = self.request.take() else { return };
        let after = (self.counts)();
        let delta = self.before.zip(after).map(|(b, a)| Counts {
            evaluated: a.evaluated.saturating_sub(b.evaluated),
            reused: a.reused.saturating_sub(b.reused),
            states_loaded: a.states_loaded.saturating_sub(b.states_loaded),
        });
        let first = self.first.unwrap_or_else(Instant::now);
        let generating = self.last.map(|l| l.duration_since(first).as_secs_f64());
        let figures = RequestFigures {
            prompt_tokens: self.prompt_tokens,
            evaluated_tokens: delta.map(|d| d.evaluated),
            reused_tokens: delta.map(|d| d.reused),
            state_loaded: delta.is_some_and(|d| d.states_loaded > 0),
            first_token_ms: first.duration_since(self.started).as_secs_f64() * 1000.0,
            generated_tokens: self.generated,
            generation_tokens_per_s: generating
                .filter(|&s| s > 0.0 && self.generated > 1)
                .map(|s| (self.generated - 1) as f64 / s),
            error: self.error.take(),
        };
        let mut log = self.log.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        log.push(Recorded { request, figures });
    }
}

impl ChatModel for Recorder {
    fn stream(&self, request: ChatRequest) -> DeltaStream {
        let mut pending = Pending {
            request: Some(request.clone()),
            log: self.log.clone(),
            counts: self.counts.clone(),
            before: (self.counts)(),
            started: Instant::now(),
            first: None,
            last: None,
            generated: 0,
            prompt_tokens: 0,
            error: None,
        };
        let inner = self.inner.stream(request);
        Box::pin(inner.map(move |item| {
            pending.see(&item);
            item
        }))
    }

    fn list_models(&self) -> BoxFuture<'_, Result<Vec<ModelInfo>, LlmError>> {
        self.inner.list_models()
    }

    fn model_name(&self) -> &str {
        self.inner.model_name()
    }

    fn warm_up(&self, request: ChatRequest) -> BoxFuture<'_, Result<Option<Warmed>, LlmError>> {
        self.inner.warm_up(request)
    }
}

/// `http://host:port/v1` → `http://host:port/metrics`.
fn metrics_url(base_url: &str) -> String {
    let root = base_url.trim_end_matches('/');
    let root = root.strip_suffix("/v1").unwrap_or(root);
    format!("{root}/metrics")
}

/// What llama-server has spent on prompts so far, from its `/metrics` beside the API at
/// `base_url` (`--metrics` on): the prompt tokens it evaluated (`llamacpp:prompt_tokens_total`)
/// and the seconds its prefill took (`llamacpp:prompt_seconds_total`: llama.cpp's own decode of
/// those tokens, without HTTP, templating or tokenising). `None` without `--metrics`.
pub async fn llama_server_prompt_totals(base_url: &str) -> Option<PromptTotals> {
    let url = metrics_url(base_url);
    let text = reqwest::get(&url).await.ok()?.error_for_status().ok()?.text().await.ok()?;
    parse_prompt_totals(&text)
}

/// llama-server's prompt counters (`llama_server_prompt_totals`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PromptTotals {
    pub tokens: u64,
    pub seconds: f64,
}

fn parse_prompt_totals(metrics: &str) -> Option<PromptTotals> {
    let value = |name: &str| {
        metrics
            .lines()
            .find_map(|l| l.strip_prefix(name)?.strip_prefix(' '))
            .and_then(|v| v.trim().parse::<f64>().ok())
    };
    Some(PromptTotals {
        tokens: value("llamacpp:prompt_tokens_total")? as u64,
        seconds: value("llamacpp:prompt_seconds_total")?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prompt_totals_are_read_from_the_metrics_text() {
        let text = "# HELP llamacpp:prompt_tokens_total Number of prompt tokens processed.\n\
            # TYPE llamacpp:prompt_tokens_total counter\n\
            llamacpp:prompt_tokens_total 5846\n\
            llamacpp:prompt_seconds_total 53.54\n\
            llamacpp:tokens_predicted_total 35\n";
        assert_eq!(parse_prompt_totals(text), Some(PromptTotals { tokens: 5846, seconds: 53.54 }));
        assert_eq!(parse_prompt_totals("llamacpp:prompt_tokens_total 3\n"), None);
    }

    #[test]
    fn metrics_live_beside_the_api() {
        assert_eq!(metrics_url("http://127.0.0.1:8080/v1"), "http://127.0.0.1:8080/metrics");
        assert_eq!(metrics_url("http://127.0.0.1:8080/v1/"), "http://127.0.0.1:8080/metrics");
    }
}
