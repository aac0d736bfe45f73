//! Constrained decoding: a request's `response_schema` (structured mode's action schema)
//! turned into a llama.cpp grammar (JSON Schema → GBNF with llama.cpp's own converter), and
//! the greedy pick under it. A schema llama.cpp cannot convert, or a grammar it cannot load,
//! is logged and the answer is generated unconstrained: the structured-action parser and its
//! repair retry still judge it. Sampling itself stays in `generate.rs`.

use llama_cpp_2::model::LlamaModel;
use llama_cpp_2::sampling::LlamaSampler;
use llama_cpp_2::token::LlamaToken;
use llama_cpp_2::token::data::LlamaTokenData;
use llama_cpp_2::token::data_array::LlamaTokenDataArray;
use serde_json::Value;

/// A grammar sampler for `schema`, or `None` (logged) when llama.cpp cannot build one.
/// Converting is cheap (an action schema with two tools: 0.3 ms, against seconds for the
/// answer; docs/performance.md), so nothing is kept between answers.
pub(crate) fn sampler(model: &LlamaModel, schema: &Value) -> Option<LlamaSampler> {
    let gbnf = match llama_cpp_2::json_schema_to_grammar(&schema.to_string()) {
        Ok(gbnf) => gbnf,
        Err(e) => {
            tracing::warn!(
                "local model: llama.cpp cannot turn the response schema into a grammar ({e}); \
                 this answer is not constrained"
            );
            return None;
        }
    };
    match LlamaSampler::grammar(model, &gbnf, "root") {
        Ok(sampler) => Some(sampler),
        Err(e) => {
            tracing::warn!(
                "local model: llama.cpp cannot load the grammar of the response schema ({e}); \
                 this answer is not constrained"
            );
            None
        }
    }
}

/// The greedy choice under `grammar`: the most likely token the grammar allows, accepted
/// into the grammar's state. The argmax is tried alone first (usually it fits: the full
/// check runs the grammar over the whole vocabulary). `None` when the grammar allows no
/// token at all.
pub(crate) fn greedy_pick(
    grammar: &mut LlamaSampler,
    logits: &[f32],
    argmax: LlamaToken,
) -> Option<LlamaToken> {
    let best = usize::try_from(argmax.0).ok()?;
    let mut alone =
        LlamaTokenDataArray::new(vec![LlamaTokenData::new(argmax, logits[best], 0.0)], false);
    alone.apply_sampler(grammar);
    let token = if alone.data[0].logit().is_finite() {
        argmax
    } else {
        let mut all = LlamaTokenDataArray::from_iter(
            logits.iter().enumerate().map(|(i, &logit)| {
                LlamaTokenData::new(LlamaToken::new(i32::try_from(i).unwrap_or(0)), logit, 0.0)
            }),
            false,
        );
        all.apply_sampler(grammar);
        // Ties go to the lowest id, as for the unconstrained argmax.
        all.data
            .iter()
            .filter(|d| d.logit().is_finite())
            .fold(None::<&LlamaTokenData>, |best, d| match best {
                Some(b) if b.logit() >= d.logit() => Some(b),
                _ => Some(d),
            })?
            .id()
    };
    grammar.accept(token);
    Some(token)
}
