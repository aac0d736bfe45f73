//! The embedded inference engine: a [`ChatModel`](vibe_llm::ChatModel) over llama.cpp (through
//! the `llama-cpp-2` crate, wrapped here and nowhere else) for GGUF model files on this
//! machine. One worker thread per loaded model owns the model and its context; requests queue
//! to it and tokens stream back over a channel, so the async runtime never waits on inference.
//! Which file to load (installed model ids, paths) is the caller's business (the core's
//! assembly); downloading models is `vibe-models`'. No agent logic, no tool protocol (the
//! structured-action adapter of `vibe-llm` wraps this model), no settings files.
//!
//! Everything is behind the `engine` feature: without it this crate is empty, so a plain
//! `cargo check --workspace` does not compile llama.cpp.
#![cfg(feature = "engine")]

mod backend;
mod config;
mod generate;
mod model;
mod prompt;
mod shared;
mod stop;
mod utf8;
mod worker;

pub use config::{LocalConfig, MAX_DEFAULT_THREADS};
pub use model::{EngineStats, LoadedInfo, LocalModel, TemplateSource};
pub use shared::shared_model;
