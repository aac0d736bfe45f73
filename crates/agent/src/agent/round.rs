//! One model round: stream the answer, forwarding deltas as events and keeping a draft of the
//! text in the database, until the answer is complete, fails, or the run is cancelled.

use std::sync::Arc;

use futures::StreamExt as _;
use tokio_util::sync::CancellationToken;
use vibe_llm::{Accumulator, ChatModel, ChatRequest, ChatResponse, Delta, LlmError};
use vibe_store::Store;
use vibe_wire::Event;

use crate::CoreError;
use crate::agent::persist::Draft;
use vibe_runlog::emit::Emitter;

/// How a round ended.
pub enum RoundEnd {
    /// The whole answer. The draft (if any was written) is still to be completed.
    Answer(ChatResponse),
    /// The model failed; partial text is kept in the response.
    Failed(LlmError, ChatResponse),
    /// The caller cancelled; partial text is kept in the response.
    Cancelled(ChatResponse),
}

pub async fn stream_round(
    model: &dyn ChatModel,
    request: ChatRequest,
    emitter: &Emitter,
    store: &Arc<Store>,
    draft: &mut Draft,
    cancel: &CancellationToken,
) -> Result<RoundEnd, CoreError> {
    let mut stream = model.stream(request);
    let mut acc = Accumulator::default();
    loop {
        let item = tokio::select! {
            biased;
            _ = cancel.cancelled() => return Ok(RoundEnd::Cancelled(acc.into_response())),
            item = stream.next() => item,
        };
        match item {
            None => return Ok(RoundEnd::Answer(acc.into_response())),
            Some(Err(error)) => return Ok(RoundEnd::Failed(error, acc.into_response())),
            Some(Ok(delta)) => {
                match &delta {
                    Delta::Text { text } if !text.is_empty() => {
                        emitter.emit(Event::AssistantDelta { text: text.clone() });
                    }
                    Delta::Reasoning { text } if !text.is_empty() => {
                        emitter.emit(Event::ReasoningDelta { text: text.clone() });
                    }
                    Delta::Restart { reason } => {
                        emitter.emit(Event::AssistantRestart { reason: reason.clone() });
                    }
                    _ => {}
                }
                acc.push(&delta);
                draft.maybe_write(store, &acc.response().text).await?;
            }
        }
    }
}
