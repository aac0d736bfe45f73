//! Tests of the embedded engine with the tiny random-weight models in `tests/fixtures`
//! (scripts/make-tiny-gguf.py): they write gibberish, so the tests check mechanics (loading,
//! the template, token counts, determinism, cancel, stop strings, errors), never words.
//! Only with the `engine` feature (scripts/test.sh runs them in release).

#![cfg(feature = "engine")]
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod support;

// Named `local_model_*` so that scripts/test.sh's one filter (`local_model`) runs these and
// vibe-core's `local_model` tests in one cargo invocation (one build of llama.cpp).
mod local_model_answers;
mod local_model_cancel;
mod local_model_cpu_backend;
mod local_model_grammar;
mod local_model_loading;
mod local_model_saved_state;
mod local_model_sizing;
mod local_model_warm_up;
