//! Constrained decoding: a request's `response_schema` (structured mode's action schema)
//! turned into a llama.cpp grammar (JSON Schema → GBNF with llama.cpp's own converter, kept
//! per schema text), and the greedy pick under it. A schema llama.cpp cannot convert, or a
//! grammar it cannot load, is logged and the answer is generated unconstrained: the
//! structured-action parser and its repair retry still judge it. Sampling itself stays in
//! `generate.rs`.

use llama_cpp_2::model::LlamaModel;
use llama_cpp_2::sampling::LlamaSampler;
use llama_cpp_2::token::LlamaToken;
use llama_cpp_2::token::data::LlamaTokenData;
use llama_cpp_2::token::data_array::LlamaTokenDataArray;
use serde_json::Value;

/// Schemas whose GBNF is kept (a conversation offers the same tools turn after turn).
const KEPT_GRAMMARS: usize = 8;

/// GBNF text per schema text, most recent last.
#[derive(Default)]
pub(crate) struct GrammarCache {
    kept: Vec<(String, String)>,
}

impl GrammarCache {
    /// A grammar sampler for `schema`, or `None` (logged) when llama.cpp cannot build one.
    pub fn sampler(&mut self, model: &LlamaModel, schema: &Value) -> Option<LlamaSampler> {
        let gbnf = self.gbnf(schema)?;
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

    fn gbnf(&mut self, schema: &Value) -> Option<String> {
        let key = schema.to_string();
        if let Some(at) = self.kept.iter().position(|(k, _)| *k == key) {
            let entry = self.kept.remove(at);
            let gbnf = entry.1.clone();
            self.kept.push(entry);
            return Some(gbnf);
        }
        let gbnf = match llama_cpp_2::json_schema_to_grammar(&key) {
            Ok(gbnf) => gbnf,
            Err(e) => {
                tracing::warn!(
                    "local model: llama.cpp cannot turn the response schema into a grammar ({e}); \
                     this answer is not constrained"
                );
                return None;
            }
        };
        if self.kept.len() >= KEPT_GRAMMARS {
            self.kept.remove(0);
        }
        self.kept.push((key, gbnf.clone()));
        Some(gbnf)
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
