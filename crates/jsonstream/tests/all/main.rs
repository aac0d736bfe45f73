//! Integration tests of vibe-jsonstream, one module per area.

#![allow(clippy::unwrap_used)] // test helpers outside #[test] fns unwrap too

mod chunking;
mod depth;
mod grammar_numbers;
mod grammar_strings;
mod grammar_structure;
mod subscriptions;
mod suite;
mod support;
