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
}

/// A stream that yields one error and ends.
pub(crate) fn error_stream(error: LlmError) -> DeltaStream {
    Box::pin(futures::stream::once(async move { Err(error) }))
}
