//! The `ChatModel` trait the agent uses, whatever sits behind it (OpenAI-compatible client,
//! structured-action adapter, scripted model). Implementations live in their own modules.

use std::pin::Pin;

use futures::Stream;
use futures::future::BoxFuture;

use crate::errors::LlmError;
use crate::types::{ChatRequest, Delta, ModelInfo};

/// A stream of deltas for one answer. It ends after `Finish` or after the first error.
/// Dropping it cancels the answer at once (the HTTP request is dropped).
pub type DeltaStream = Pin<Box<dyn Stream<Item = Result<Delta, LlmError>> + Send + 'static>>;

/// A chat model: one request in, a cancellable stream of typed deltas out.
pub trait ChatModel: Send + Sync {
    /// Start answering `request`. Errors (including connection failures) arrive as items.
    fn stream(&self, request: ChatRequest) -> DeltaStream;

    /// The models the endpoint offers.
    fn list_models(&self) -> BoxFuture<'_, Result<Vec<ModelInfo>, LlmError>>;

    /// The model name requests are sent for (for logs and events).
    fn model_name(&self) -> &str;

    /// Prepare the model's prompt cache for a request that will start like `request` (its
    /// messages, e.g. the system prompt alone, and its tools, rendered as `stream` would render
    /// them; `params.cache_key` names the conversation), without answering
    /// (docs/local-model.md#warm-up). Only a model that keeps a prompt cache of its own does
    /// anything (the embedded engine); the default sends nothing and returns `Ok(None)`.
    /// Dropping the future cancels the warm-up.
    fn warm_up(&self, request: ChatRequest) -> BoxFuture<'_, Result<Option<Warmed>, LlmError>> {
        let _ = request;
        Box::pin(async { Ok(None) })
    }
}

/// What a warm-up did ([`ChatModel::warm_up`]), in the model's own tokens.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Warmed {
    /// Tokens of the prefix, as the model's template renders and its tokenizer splits it.
    pub prefix_tokens: u64,
    /// Tokens of it evaluated by this warm-up.
    pub evaluated_tokens: u64,
    /// Tokens of it the cache already held (from before, or from a loaded saved state).
    pub reused_tokens: u64,
    /// A saved state of the conversation was loaded.
    pub state_loaded: bool,
    /// Tokens the cache holds now (more than the prefix when a saved state brought the
    /// conversation's history with it).
    pub cached_tokens: u64,
}

/// A stream that yields one error and ends.
pub(crate) fn error_stream(error: LlmError) -> DeltaStream {
    Box::pin(futures::stream::once(async move { Err(error) }))
}
