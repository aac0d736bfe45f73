//! Warm-up on the worker thread (docs/local-model.md#warm-up): the prefix of a request to come
//! (its messages rendered through the same chat template as an answer's prompt, up to where
//! the next message's text begins) evaluated into the KV cache without answering, or the
//! conversation's saved state loaded instead, by the same rules as an answer (`state_io`:
//! never trusted when wrong). The answer that follows finds it through the prompt cache
//! (`generate`), whose path does not change. Nothing here samples or sends text.

use std::sync::atomic::Ordering;

use llama_cpp_2::context::LlamaContext;
use vibe_llm::{ChatRequest, LlmError, Warmed};

use crate::generate::{ANSWER_ROOM, Engine, Session, shared_prefix};

impl Session {
    /// Bring the cache to `request`'s prefix. `Ok(None)`: `cancelled` said so before the end
    /// (what was evaluated stays, and is reused as any cached prefix). A failure leaves the
    /// cache empty.
    pub fn warm_up<'m>(
        &mut self,
        engine: &Engine<'_, 'm>,
        ctx: &mut LlamaContext<'m>,
        request: &ChatRequest,
        cancelled: &dyn Fn() -> bool,
    ) -> Result<Option<Warmed>, LlmError> {
        if cancelled() {
            return Ok(None);
        }
        let result = self.try_warm_up(engine, ctx, request, cancelled);
        if result.is_err() {
            self.forget(ctx);
        }
        result
    }

    fn try_warm_up<'m>(
        &mut self,
        engine: &Engine<'_, 'm>,
        ctx: &mut LlamaContext<'m>,
        request: &ChatRequest,
        cancelled: &dyn Fn() -> bool,
    ) -> Result<Option<Warmed>, LlmError> {
        let Engine { model, template, counters } = *engine;
        let prefix = template.render_prefix(model, &request.messages)?;
        let tokens = model.vocab().tokenize(prefix.as_bytes(), true, true);
        let window = self.sizing.window as usize;
        if tokens.len() >= window {
            return Err(LlmError::BadRequest {
                status: 400,
                message: format!(
                    "the prompt's fixed part is {} tokens but the local model's context window is {window}; raise llm.local.context_tokens if the model allows more",
                    tokens.len()
                ),
            });
        }
        // The room an answer would make, so that the turn does not move the cache again.
        self.sizing.grow(model, ctx, &mut self.cached, tokens.len() + ANSWER_ROOM)?;
        let key = request.params.cache_key.as_deref();
        let held = key.is_some() && self.cached_key.as_deref() == key;
        let state_loaded = self.restore_saved(engine, ctx, key, &tokens, true);
        let shared = shared_prefix(&self.cached, &tokens);
        // A cache that holds the whole prefix (and maybe the conversation after it) is kept;
        // so is the conversation's own latest prompt (held, or its saved state just loaded)
        // where this prefix differs from it. A turn trims its system prompt to fit its budget
        // beside the turn's own sections (cases, memory, state, protocol step), whose size
        // depends on the message and the state: the prefix rebuilt here without them cannot
        // know those trims. Evaluating it over the conversation's prompt could make the turn
        // slower than no warm-up at all; keeping it never does.
        let kept = held || state_loaded;
        if shared < tokens.len() && !kept {
            // Holding only a prefix now, the cache is no conversation's latest: the next
            // request of any conversation may still load its saved state.
            self.cached_key = None;
            if self.fill(ctx, counters, &tokens, shared, cancelled)?.is_none() {
                return Ok(None);
            }
        }
        counters.warm_ups.fetch_add(1, Ordering::Relaxed);
        tracing::debug!(tokens = tokens.len(), reused = shared, state_loaded, "prompt warmed up");
        Ok(Some(Warmed {
            prefix_tokens: tokens.len() as u64,
            evaluated_tokens: if kept { 0 } else { (tokens.len() - shared) as u64 },
            reused_tokens: shared as u64,
            state_loaded,
            cached_tokens: self.cached.len() as u64,
        }))
    }
}
