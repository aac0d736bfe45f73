//! Memory the person owns (issue #11, docs/memory.md): the extraction pass that turns new
//! messages into `extracted` items (one model call with a JSON answer, audited as its own run),
//! the rule that decides when it runs, and the memory switch. What of memory reaches a skill's
//! prompt is `vibe-context`'s (`memory.rs`). Storing items, tombstones and
//! watermarks is `vibe_store`'s; printing them is the front ends'. Nothing here reads a
//! message the safety screen marked.

mod answer;
mod extract;
mod request;
mod settings;
mod trigger;

#[cfg(test)]
mod answer_tests;
#[cfg(test)]
mod trigger_tests;

pub use answer::{AnswerError, parse_answer};
pub use extract::{
    ExtractOptions, Extraction, ExtractionStatus, extract_conversation, extract_due,
};
pub use request::extraction_request;
pub use settings::{MemorySettings, memory_enabled, set_memory_enabled};
pub use trigger::{BACKOFF_CAP_MINUTES, Trigger, backoff_wait, extraction_due};
