//! Case matching (seed 001 "Cases（倒排索引匹配）"): an inverted index over a skill's cases
//! returning the top-k for a user message. Terms come from `tokenize` (CJK unigrams + bigrams,
//! English words); ranking is SQLite FTS5's BM25 in an in-memory database, with keywords
//! weighted above titles and titles above text. Loading cases is the registry's job.

mod fts;
mod tokenize;

pub(crate) use fts::CaseIndex;
pub use fts::CaseMatch;
