//! The context sized to need (docs/local-model.md#memory): llama.cpp allocates the KV cache for
//! the whole context when the context is made, so the worker starts with a small one and makes
//! a larger one when a prompt and its answer need more, up to the window (the model's trained
//! length capped by the settings). The cached sequence moves into the new context through
//! llama.cpp's state copy (`state_io`), so growing keeps the prompt reuse. This module owns the
//! sizes and the swap; what to evaluate is `generate`'s.

use std::num::NonZeroU32;

use llama_cpp_2::context::LlamaContext;
use llama_cpp_2::context::params::LlamaContextParams;
use llama_cpp_2::model::LlamaModel;
use llama_cpp_2::token::LlamaToken;
use vibe_llm::LlmError;

use crate::backend::backend;
use crate::state_io;

/// Prompt tokens evaluated per `decode` call (`generate`), also the context's batch sizes.
pub(crate) const BATCH_TOKENS: u32 = 512;

/// Contexts are made in multiples of this many tokens (the first one too, unless the window
/// is smaller): a short conversation never pays for the model's whole window.
pub(crate) const STEP_TOKENS: u32 = 1024;

/// How the worker's contexts are made.
pub(crate) struct Sizing {
    /// The most tokens a context may hold: the trained length capped by the config.
    pub window: u32,
    pub threads: u32,
    /// The model file, for errors.
    pub file: String,
}

impl Sizing {
    /// The size of the first context.
    pub fn initial(&self) -> u32 {
        self.window.min(STEP_TOKENS)
    }

    /// The size that holds `needed` tokens: the next multiple of [`STEP_TOKENS`], at most the
    /// window.
    pub fn target(&self, needed: usize) -> u32 {
        let needed = u32::try_from(needed).unwrap_or(u32::MAX);
        let rounded = needed.div_ceil(STEP_TOKENS).saturating_mul(STEP_TOKENS);
        rounded.min(self.window).max(1)
    }

    /// A new context of `tokens` tokens.
    pub fn make<'m>(
        &self,
        model: &'m LlamaModel,
        tokens: u32,
    ) -> Result<LlamaContext<'m>, LlmError> {
        let backend = backend().map_err(LlmError::config)?;
        let threads = i32::try_from(self.threads).unwrap_or(1);
        let params = LlamaContextParams::default()
            .with_n_ctx(NonZeroU32::new(tokens))
            .with_n_batch(BATCH_TOKENS)
            .with_n_ubatch(BATCH_TOKENS)
            .with_n_threads(threads)
            .with_n_threads_batch(threads);
        model.new_context(&backend.llama, params).map_err(|e| {
            LlmError::config(format!(
                "cannot set up the local model {} with a {tokens}-token context ({e}); lower llm.local.context_tokens or free memory",
                self.file
            ))
        })
    }

    /// Make `ctx` hold at least `needed` tokens (within the window): a larger context takes
    /// its place, with the sequence of `cached` moved into it (when the move fails, the new
    /// context starts empty and `cached` is cleared). Returns whether it grew.
    pub fn grow<'m>(
        &self,
        model: &'m LlamaModel,
        ctx: &mut LlamaContext<'m>,
        cached: &mut Vec<LlamaToken>,
        needed: usize,
    ) -> Result<bool, LlmError> {
        let target = self.target(needed);
        if target <= ctx.n_ctx() {
            return Ok(false);
        }
        let state = if cached.is_empty() { None } else { state_io::copy_out(ctx) };
        let mut bigger = self.make(model, target)?;
        if !cached.is_empty() && !state.is_some_and(|s| state_io::copy_in(&mut bigger, &s)) {
            tracing::warn!("the prompt state could not move to the larger context; read again");
            cached.clear();
        }
        tracing::info!(from = ctx.n_ctx(), to = bigger.n_ctx(), "local model context grown");
        *ctx = bigger;
        Ok(true)
    }
}
