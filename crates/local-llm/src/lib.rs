//! The embedded inference engine: a [`ChatModel`](vibe_llm::ChatModel) over llama.cpp (through
//! the `llama-cpp-2` crate, wrapped here and nowhere else) for GGUF model files on this
//! machine. One worker thread per loaded model owns the model and its context; requests queue
//! to it and tokens stream back over a channel, so the async runtime never waits on inference.
//! Which file to load (installed model ids, paths) is the caller's business (the core's
//! assembly); downloading models is `vibe-models`'. No agent logic, no tool protocol (the
//! structured-action adapter of `vibe-llm` wraps this model; the engine only honours the
//! JSON Schema a request's answer must match, as a grammar), no settings files.
//!
//! Everything that touches llama.cpp is behind the `engine` feature: without it only the
//! plain text helpers below are compiled (and tested), so a plain `cargo check --workspace`
//! does not compile llama.cpp.

#[cfg(feature = "engine")]
mod backend;
#[cfg(feature = "engine")]
mod config;
#[cfg(feature = "engine")]
pub mod cpu_backend;
#[cfg(feature = "engine")]
mod generate;
#[cfg(feature = "engine")]
mod grammar;
#[cfg(feature = "engine")]
mod model;
#[cfg(feature = "engine")]
mod prompt;
pub mod saved_state;
#[cfg(feature = "engine")]
mod shared;
#[cfg(feature = "engine")]
mod sizing;
#[cfg(feature = "engine")]
mod state_io;
#[cfg_attr(not(feature = "engine"), allow(dead_code))]
mod state_saver;
#[cfg(feature = "engine")]
mod stats;
#[cfg(feature = "engine")]
mod warm_up;
#[cfg(feature = "engine")]
mod worker;

#[cfg_attr(not(feature = "engine"), allow(dead_code))]
mod stop;
#[cfg_attr(not(feature = "engine"), allow(dead_code))]
mod utf8;

#[cfg(feature = "engine")]
pub use config::{LocalConfig, MAX_DEFAULT_THREADS};
#[cfg(feature = "engine")]
pub use cpu_backend::CpuBackend;
#[cfg(feature = "engine")]
pub use model::LocalModel;
pub use saved_state::{DEFAULT_STATES_CAP_BYTES, STATES_DIR, SavedStates, StateSeal};
#[cfg(feature = "engine")]
pub use shared::{shared_model, shared_model_info, shared_model_stats};
pub use state_saver::{delete_saved_state, flush as flush_saved_states};
#[cfg(feature = "engine")]
pub use stats::{EngineStats, LoadedInfo, TemplateSource};
