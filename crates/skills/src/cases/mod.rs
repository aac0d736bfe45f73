//! Case matching (docs/design.md#case-matching): an inverted index over a skill's cases
//! returning the top-k for a user message. Terms come from `tokenize` (CJK unigrams + bigrams,
//! English words, stemmed); ranking is BM25 in memory, with keywords weighted above titles
//! and titles above text. Loading cases is the registry's job.

mod bm25;
mod tokenize;

pub(crate) use bm25::CaseIndex;
pub use bm25::CaseMatch;
