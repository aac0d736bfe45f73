//! Saved prompt states on the worker thread (docs/local-model.md#saved-states): after an answer
//! to a request that names its conversation (`Params::cache_key`), the KV cache's sequence is
//! copied out of llama.cpp and handed to the saver thread, which seals and writes it
//! (`state_saver`, `saved_state`); when a request of that
//! conversation arrives and the cache does not already hold it (a new process, or another
//! request ran in between), the saved state is put back when it shares more of the new prompt
//! than the cache does. Files, sealing and the cap are `saved_state`'s; deciding what to
//! evaluate stays `generate`'s.

// llama-cpp-2 0.1.160 copies a sequence's state out and back only through raw pointers (its
// safe `SeqState` cannot be built from bytes read from disk). Each `unsafe` says why it is sound.
#![allow(unsafe_code)]

use std::sync::Arc;

use llama_cpp_2::context::LlamaContext;
use llama_cpp_2::context::session::LlamaStateSeqFlags;
use llama_cpp_2::token::LlamaToken;

use crate::saved_state::{Ignored, SavedState, SavedStates};
use crate::state_saver;

/// A saved state is only worth loading when it spares at least this many prompt tokens (a
/// state of another prompt shares only the template's first tokens).
pub(crate) const MIN_REUSE_TOKENS: usize = 32;

/// Where the worker keeps states, and the model they belong to.
pub(crate) struct Persist {
    pub states: SavedStates,
    /// `saved_state::model_identity` of the loaded file.
    pub model_id: String,
}

/// What restoring did to the KV cache.
pub(crate) enum Restored {
    /// Nothing: the cache is as it was.
    Untouched,
    /// The cache now holds these tokens (sequence 0), from the saved state.
    Loaded(Vec<LlamaToken>),
    /// Loading failed half-way: the cache was cleared.
    Cleared,
}

/// Put conversation `key`'s saved state into the cache when it shares more of `tokens` than
/// the `shared_now` tokens the cache already shares (and at least [`MIN_REUSE_TOKENS`]). A state
/// longer than the context asks `room` for a context that holds its length (false: the window
/// is too small, or no larger context could be made).
pub(crate) fn restore<'m>(
    ctx: &mut LlamaContext<'m>,
    persist: &Persist,
    key: &str,
    tokens: &[LlamaToken],
    shared_now: usize,
    room: &mut dyn FnMut(&mut LlamaContext<'m>, usize) -> bool,
) -> Restored {
    let Some(saved) = saved_state(persist, key) else { return Restored::Untouched };
    let shared = saved.tokens.iter().zip(tokens).take_while(|(a, b)| **a == b.0).count();
    if shared < MIN_REUSE_TOKENS || shared <= shared_now {
        tracing::debug!(shared, shared_now, "saved prompt state not worth loading");
        return Restored::Untouched;
    }
    if saved.tokens.len() >= ctx.n_ctx() as usize && !room(ctx, saved.tokens.len()) {
        tracing::info!(
            tokens = saved.tokens.len(),
            "saved prompt state larger than the context window; the prompt is read in full"
        );
        return Restored::Untouched;
    }
    // The bytes are what `save` below copied out of llama.cpp for this same model file: the
    // seal authenticates them with the data folder's key and binds them to the model's
    // identity and the conversation (or they never left this process: `state_saver`).
    if !copy_in(ctx, &saved.state) {
        tracing::warn!("saved prompt state refused by llama.cpp; the prompt is read in full");
        return Restored::Cleared;
    }
    tracing::info!(tokens = saved.tokens.len(), shared, "saved prompt state loaded");
    Restored::Loaded(saved.tokens.iter().copied().map(LlamaToken::new).collect())
}

/// Conversation `key`'s newest state: one this process has not written yet, else its file.
fn saved_state(persist: &Persist, key: &str) -> Option<Arc<SavedState>> {
    if let Some(unwritten) = state_saver::unwritten(&persist.states, key, &persist.model_id) {
        return Some(unwritten);
    }
    match persist.states.load(key, &persist.model_id) {
        Ok(saved) => Some(Arc::new(saved)),
        Err(Ignored::Missing) => None,
        Err(why) => {
            tracing::warn!(reason = ?why, "saved prompt state ignored; the prompt is read in full");
            None
        }
    }
}

/// Save the cache's sequence (holding `cached`) as conversation `key`'s state: copied out
/// here, sealed and written by the saver thread. Failures are logged: a turn never fails for
/// want of a saved state. Whether a state was handed over.
pub(crate) fn save(
    ctx: &LlamaContext<'_>,
    persist: &Persist,
    key: &str,
    cached: &[LlamaToken],
) -> bool {
    if cached.is_empty() {
        return false;
    }
    let Some(state) = copy_out(ctx) else { return false };
    let tokens = cached.iter().map(|t| t.0).collect();
    state_saver::save(&persist.states, key, &persist.model_id, SavedState { tokens, state });
    true
}

/// llama.cpp's bytes of sequence 0 (its KV cells), or `None` (logged) when they cannot be
/// copied.
pub(crate) fn copy_out(ctx: &LlamaContext<'_>) -> Option<Vec<u8>> {
    let flags = LlamaStateSeqFlags::empty();
    let size = ctx.state_seq_get_size_ext(0, flags);
    let mut state = vec![0u8; size];
    // SAFETY: `state` holds exactly the size llama.cpp just reported for sequence 0 with the
    // same flags, and nothing runs on this context in between (one worker thread owns it).
    let written = unsafe { ctx.state_seq_get_data_ext(state.as_mut_ptr(), 0, flags) };
    if written != size || size == 0 {
        tracing::warn!(size, written, "the prompt state could not be copied");
        return None;
    }
    Some(state)
}

/// Put `state` (from [`copy_out`] of a context of the same model, possibly by an earlier
/// process) into sequence 0 of `ctx`, whose cache is cleared first; false (and the cache
/// cleared) when llama.cpp refuses it.
pub(crate) fn copy_in(ctx: &mut LlamaContext<'_>, state: &[u8]) -> bool {
    ctx.clear_kv_cache();
    // SAFETY: the caller passes bytes llama.cpp itself wrote for this model (`copy_out`, kept
    // in memory or authenticated by the seal), so its reader only sees its own output; it
    // also checks their shape against this context and reports a mismatch by returning 0.
    let ok = unsafe { ctx.state_seq_set_data_ext(state, 0, LlamaStateSeqFlags::empty()) };
    if !ok {
        ctx.clear_kv_cache();
    }
    ok
}
