//! One answer on the worker thread: the prompt rendered and tokenised, the part shared with
//! the previous prompt kept in the KV cache (a conversation grows at the end, so most of a
//! turn's prompt is already evaluated), the rest evaluated in batches, then one token at a
//! time sampled (under the grammar of the request's response schema, if any), turned into
//! text, split into answer and reasoning, and sent. A closed channel (the reader dropped the
//! stream) is checked before every evaluation: a cancel costs at most one more token. Token
//! counts are the model's own tokenizer's.

use std::sync::atomic::Ordering;

use llama_cpp_2::context::LlamaContext;
use llama_cpp_2::llama_batch::LlamaBatch;
use llama_cpp_2::model::LlamaModel;
use llama_cpp_2::sampling::LlamaSampler;
use llama_cpp_2::token::LlamaToken;
use tokio::sync::mpsc::Sender;
use vibe_llm::{ChatRequest, Delta, LlmError, Params, ThinkSplitter, TokenUsage};

use crate::grammar::{self, greedy_pick};
use crate::prompt::Template;
use crate::sizing::{BATCH_TOKENS, Sizing};
use crate::state_io::{self, Persist, Restored};
use crate::stats::Counters;
use crate::stop::StopScan;
use crate::utf8::Utf8Assembler;

/// Tokens of answer the context makes room for beside the prompt (it grows again for more).
pub(crate) const ANSWER_ROOM: usize = 512;

/// Sampling defaults when the request leaves them open (llama.cpp's server defaults).
const DEFAULT_TEMPERATURE: f32 = 0.8;
const DEFAULT_TOP_P: f32 = 0.95;
const DEFAULT_TOP_K: i32 = 40;
const DEFAULT_MIN_P: f32 = 0.05;

type Out = Sender<Result<Delta, LlmError>>;

/// Why generation ended.
enum End {
    /// End of turn, or a stop string.
    Stop,
    /// `max_tokens` or the context window.
    Length,
    /// The reader went away.
    Cancelled,
}

/// The loaded model's parts an answer or a warm-up reads (the context is passed apart: it is
/// the one thing they change).
pub(crate) struct Engine<'a, 'm> {
    pub model: &'m LlamaModel,
    pub template: &'a Template,
    pub counters: &'a Counters,
}

/// What the context holds between answers, and the defaults of requests.
pub(crate) struct Session {
    /// The tokens whose state is in the KV cache (sequence 0), in order.
    pub(crate) cached: Vec<LlamaToken>,
    /// The conversation (`Params::cache_key`) whose request filled the cache last, if any.
    pub(crate) cached_key: Option<String>,
    /// Where prompt states are saved across processes; `None`: they are not.
    persist: Option<Persist>,
    /// How large a context may grow, and how to make one.
    pub(crate) sizing: Sizing,
    temperature: Option<f32>,
    max_tokens: Option<u32>,
}

impl Session {
    /// A session whose requests default to `temperature` and `max_tokens` (the endpoint's),
    /// saving prompt states through `persist` when there is one, its context grown by
    /// `sizing`.
    pub fn new(
        temperature: Option<f32>,
        max_tokens: Option<u32>,
        persist: Option<Persist>,
        sizing: Sizing,
    ) -> Self {
        Self { cached: Vec::new(), cached_key: None, persist, sizing, temperature, max_tokens }
    }

    /// Answer `request` into `out`; errors go there too.
    pub fn answer<'m>(
        &mut self,
        engine: &Engine<'_, 'm>,
        ctx: &mut LlamaContext<'m>,
        request: &ChatRequest,
        out: &Out,
    ) {
        if out.is_closed() {
            return;
        }
        let result = self.try_answer(engine, ctx, request, out);
        engine.counters.context_allocated.store(u64::from(ctx.n_ctx()), Ordering::Relaxed);
        if let Err(e) = result {
            self.forget(ctx);
            let _ = out.blocking_send(Err(e));
        }
    }

    /// After a failure: the cache may hold half an evaluation, so start clean next time.
    pub(crate) fn forget(&mut self, ctx: &mut LlamaContext<'_>) {
        ctx.clear_kv_cache();
        self.cached.clear();
        self.cached_key = None;
    }

    fn try_answer<'m>(
        &mut self,
        engine: &Engine<'_, 'm>,
        ctx: &mut LlamaContext<'m>,
        request: &ChatRequest,
        out: &Out,
    ) -> Result<(), LlmError> {
        let Engine { model, template, counters } = *engine;
        let prompt = template.render(model, &request.messages)?;
        let tokens = model.vocab().tokenize(prompt.as_bytes(), true, true);
        let window = self.sizing.window as usize;
        if tokens.is_empty() {
            return Err(LlmError::BadRequest {
                status: 400,
                message: "the prompt is empty".into(),
            });
        }
        if tokens.len() >= window {
            return Err(LlmError::BadRequest {
                status: 400,
                message: format!(
                    "the prompt is {} tokens but the local model's context window is {window}; shorten the conversation (chat.context.max_context_tokens) or raise llm.local.context_tokens if the model allows more",
                    tokens.len()
                ),
            });
        }
        let params = &request.params;
        let max_new = params.max_tokens.or(self.max_tokens).map_or(usize::MAX, |m| m as usize);
        // Room for the prompt and the start of the answer; a longer answer grows it again.
        let needed = tokens.len() + max_new.min(ANSWER_ROOM);
        self.sizing.grow(model, ctx, &mut self.cached, needed)?;
        let key = params.cache_key.as_deref();
        self.restore_saved(engine, ctx, key, &tokens, false);
        let Some(mut last_logits) = self.evaluate_prompt(ctx, counters, &tokens, out)? else {
            return Ok(()); // cancelled while evaluating the prompt
        };

        let grammar =
            params.response_schema.as_ref().and_then(|schema| grammar::sampler(model, schema));
        let mut sampler = sampler(params, params.temperature.or(self.temperature), grammar);
        let mut utf8 = Utf8Assembler::default();
        let mut stops = StopScan::new(&params.stop);
        let mut think = ThinkSplitter::default();
        let mut batch = LlamaBatch::new(1, 1);
        let mut generated = 0usize;
        let mut stopped_by_string = false;
        let end = loop {
            if out.is_closed() {
                break End::Cancelled;
            }
            if generated >= max_new {
                break End::Length;
            }
            if self.cached.len() + 1 >= window {
                break End::Length;
            }
            let token = match &mut sampler {
                Sampling::Greedy(None) => argmax(ctx.get_logits_ith(last_logits)),
                Sampling::Greedy(Some(grammar)) => {
                    let logits = ctx.get_logits_ith(last_logits);
                    match greedy_pick(grammar, logits, argmax(logits)) {
                        Some(token) => token,
                        None => break End::Stop, // the grammar allows nothing more
                    }
                }
                Sampling::Chain(chain) => chain.sample(ctx, last_logits),
            };
            if model.vocab().is_eog(token) {
                break End::Stop;
            }
            generated += 1;
            counters.generated_tokens.fetch_add(1, Ordering::Relaxed);
            let piece = utf8.push(&model.vocab().token_to_piece(token, false, None));
            let scanned = stops.push(&piece);
            let mut deltas = Vec::new();
            think.push(&scanned.text, &mut deltas);
            if !send_all(out, deltas) {
                break End::Cancelled;
            }
            if scanned.stopped {
                stopped_by_string = true;
                break End::Stop;
            }
            if self.cached.len() + 1 >= ctx.n_ctx() as usize {
                let needed = self.cached.len() + ANSWER_ROOM;
                self.sizing.grow(model, ctx, &mut self.cached, needed)?;
                if self.cached.is_empty() {
                    // The state did not move: the answer cannot go on from here.
                    break End::Length;
                }
            }
            batch.clear();
            batch.add(token, position(self.cached.len()), &[0], true).map_err(internal)?;
            ctx.decode(&mut batch).map_err(|e| failed("generating", &e))?;
            self.cached.push(token);
            last_logits = 0;
        };
        let reason = match end {
            // What the cache holds is still this conversation's (an adapter may stop reading
            // once it has the whole action).
            End::Cancelled => {
                self.save_state(ctx, counters, key);
                return Ok(());
            }
            End::Stop => "stop",
            End::Length => "length",
        };
        let mut deltas = Vec::new();
        if !stopped_by_string {
            let tail = stops.push(&utf8.finish()).text + &stops.finish();
            think.push(&tail, &mut deltas);
        }
        think.flush(&mut deltas);
        let (prompt_tokens, completion_tokens) = (tokens.len() as u64, generated as u64);
        deltas.push(Delta::Usage {
            usage: TokenUsage {
                prompt_tokens,
                completion_tokens,
                total_tokens: prompt_tokens + completion_tokens,
            },
        });
        deltas.push(Delta::Finish { reason: Some(reason.into()) });
        send_all(out, deltas);
        // After the answer is out: the reader does not wait for the file.
        self.save_state(ctx, counters, key);
        Ok(())
    }

    /// Save the cache as conversation `key`'s prompt state, when states are saved.
    fn save_state(&self, ctx: &LlamaContext<'_>, counters: &Counters, key: Option<&str>) {
        if let (Some(persist), Some(key)) = (&self.persist, key)
            && state_io::save(ctx, persist, key, &self.cached)
        {
            counters.states_saved.fetch_add(1, Ordering::Relaxed);
        }
    }

    /// Before a request of conversation `key` (or a warm-up of its prefix, `prefix`): put its
    /// saved state into the cache when the cache does not hold that conversation already and
    /// the state shares more of `tokens` — for a prefix, also when both hold all of it (the
    /// state brings the conversation's history with it). Then the cache is `key`'s — for a
    /// prefix only when the state was loaded: a state left out because the context is still
    /// smaller than it is tried again by the request. Returns whether a state was loaded.
    pub(crate) fn restore_saved<'m>(
        &mut self,
        engine: &Engine<'_, 'm>,
        ctx: &mut LlamaContext<'m>,
        key: Option<&str>,
        tokens: &[LlamaToken],
        prefix: bool,
    ) -> bool {
        let loaded = 'load: {
            let (Some(persist), Some(key)) = (&self.persist, key) else { break 'load false };
            if self.cached_key.as_deref() == Some(key) {
                break 'load false; // the cache is this conversation's latest
            }
            let mut shared_now = shared_prefix(&self.cached, tokens);
            if prefix {
                shared_now = shared_now.min(tokens.len().saturating_sub(1));
            }
            // A state longer than the context gets a larger one (within the window); what the
            // cache holds is replaced by the state, so nothing is moved into it.
            let (sizing, cached) = (&self.sizing, &mut self.cached);
            let mut room = |ctx: &mut LlamaContext<'m>, state_tokens: usize| {
                if state_tokens >= sizing.window as usize {
                    return false; // no context may hold it: the cache stays as it is
                }
                cached.clear();
                let needed = (state_tokens + ANSWER_ROOM).min(sizing.window as usize);
                match sizing.grow(engine.model, ctx, cached, needed) {
                    Ok(_) => true,
                    Err(e) => {
                        tracing::warn!("no larger context for the saved prompt state: {e}");
                        false
                    }
                }
            };
            match state_io::restore(ctx, persist, key, tokens, shared_now, &mut room) {
                Restored::Untouched => false,
                Restored::Loaded(cached) => {
                    self.cached = cached;
                    engine.counters.states_loaded.fetch_add(1, Ordering::Relaxed);
                    true
                }
                Restored::Cleared => {
                    self.cached.clear();
                    false
                }
            }
        };
        if loaded || !prefix {
            self.cached_key = key.map(str::to_string);
        }
        loaded
    }

    /// Bring the KV cache to `tokens`: keep the longest shared prefix, evaluate the rest.
    /// Returns the batch index of the last token's logits, or `None` when cancelled.
    fn evaluate_prompt(
        &mut self,
        ctx: &mut LlamaContext<'_>,
        counters: &Counters,
        tokens: &[LlamaToken],
        out: &Out,
    ) -> Result<Option<i32>, LlmError> {
        // The last prompt token is always evaluated again: its logits start the answer.
        let keep = shared_prefix(&self.cached, tokens).min(tokens.len() - 1);
        self.fill(ctx, counters, tokens, keep, &|| out.is_closed())
    }

    /// Keep the first `keep` cached tokens (the caller knows they are a prefix of `tokens`)
    /// and evaluate the rest of `tokens` in batches, with the last token's logits. Returns the
    /// batch index of those logits, or `None` when `cancelled` says so between batches (what
    /// was evaluated stays in the cache).
    pub(crate) fn fill(
        &mut self,
        ctx: &mut LlamaContext<'_>,
        counters: &Counters,
        tokens: &[LlamaToken],
        keep: usize,
        cancelled: &dyn Fn() -> bool,
    ) -> Result<Option<i32>, LlmError> {
        let kept = u32::try_from(keep).map_err(internal)?;
        if ctx.kv_cache_seq_rm(0, Some(kept), None).is_ok() {
            self.cached.truncate(keep);
        } else {
            ctx.clear_kv_cache();
            self.cached.clear();
        }
        counters.prompt_tokens_reused.fetch_add(self.cached.len() as u64, Ordering::Relaxed);
        let rest = &tokens[self.cached.len()..];
        let mut batch = LlamaBatch::new(BATCH_TOKENS as usize, 1);
        let chunks = rest.chunks(BATCH_TOKENS as usize).count();
        let mut last = 0;
        for (n, chunk) in rest.chunks(BATCH_TOKENS as usize).enumerate() {
            if cancelled() {
                return Ok(None);
            }
            batch.clear();
            for (i, token) in chunk.iter().enumerate() {
                let is_last = n + 1 == chunks && i + 1 == chunk.len();
                batch
                    .add(*token, position(self.cached.len() + i), &[0], is_last)
                    .map_err(internal)?;
            }
            ctx.decode(&mut batch).map_err(|e| failed("reading the prompt", &e))?;
            self.cached.extend_from_slice(chunk);
            counters.prompt_tokens_evaluated.fetch_add(chunk.len() as u64, Ordering::Relaxed);
            last = batch.n_tokens() - 1;
        }
        Ok(Some(last))
    }
}

/// How many tokens `a` and `b` share from their start.
pub(crate) fn shared_prefix(a: &[LlamaToken], b: &[LlamaToken]) -> usize {
    a.iter().zip(b).take_while(|(x, y)| x == y).count()
}

/// How the next token is chosen.
enum Sampling {
    /// The most likely token, read straight from the logits: llama.cpp's greedy sampler first
    /// copies every logit into a candidate array (262,144 of them for Gemma 3, per token).
    /// With a grammar: the most likely token it allows (`grammar::greedy_pick`).
    Greedy(Option<LlamaSampler>),
    /// llama.cpp's sampler chain, the grammar (when there is one) first, so that top-k and
    /// the rest only ever see tokens it allows.
    Chain(LlamaSampler),
}

/// The first token with the highest logit (what llama.cpp's greedy sampler picks).
fn argmax(logits: &[f32]) -> LlamaToken {
    let mut best = 0;
    for (i, &logit) in logits.iter().enumerate() {
        if logit > logits[best] {
            best = i;
        }
    }
    LlamaToken::new(i32::try_from(best).unwrap_or(0))
}

/// Greedy at temperature 0 (reproducible), else llama.cpp's usual chain with the request's
/// temperature, top-p and seed; constrained by `grammar` when there is one.
fn sampler(params: &Params, temperature: Option<f32>, grammar: Option<LlamaSampler>) -> Sampling {
    let temperature = temperature.unwrap_or(DEFAULT_TEMPERATURE);
    if temperature <= 0.0 {
        return Sampling::Greedy(grammar);
    }
    let seed = params.seed.map_or_else(random_seed, |s| (s & 0xffff_ffff) as u32);
    Sampling::Chain(LlamaSampler::chain_simple(grammar.into_iter().chain([
        LlamaSampler::top_k(DEFAULT_TOP_K),
        LlamaSampler::top_p(params.top_p.unwrap_or(DEFAULT_TOP_P), 1),
        LlamaSampler::min_p(DEFAULT_MIN_P, 1),
        LlamaSampler::temp(temperature),
        LlamaSampler::dist(seed),
    ])))
}

fn random_seed() -> u32 {
    use std::hash::{BuildHasher as _, Hasher as _};
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    h.write_u128(
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos()),
    );
    (h.finish() & 0xffff_ffff) as u32
}

/// Send deltas in order; false when the reader has gone.
fn send_all(out: &Out, deltas: Vec<Delta>) -> bool {
    deltas.into_iter().all(|d| out.blocking_send(Ok(d)).is_ok())
}

fn position(index: usize) -> i32 {
    i32::try_from(index).unwrap_or(i32::MAX)
}

fn failed(what: &str, e: &dyn std::fmt::Display) -> LlmError {
    LlmError::Server {
        status: None,
        message: format!(
            "the local model failed while {what} ({e}); try again, or free memory if this repeats"
        ),
        retry_after: None,
    }
}

fn internal(e: impl std::fmt::Display) -> LlmError {
    LlmError::Server { status: None, message: format!("local model: {e}"), retry_after: None }
}
