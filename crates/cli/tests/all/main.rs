//! Scenario tests of the `vibe` binary: one test binary, one module per command family. Every
//! test builds its command through [`support::vibe`] (or [`support::vibe_std`]), which clears
//! the developer's `VIBE_*` environment so the suite runs the same everywhere.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod support;

mod backup;
mod birth_place;
mod chat;
mod chat_config;
mod chat_repl;
mod compute;
mod encryption;
mod first_use;
mod headless;
mod hygiene;
mod input_caps;
mod integrity;
mod journal;
mod llm;
// Named `local_model` so scripts/test.sh's one filter runs it with the engine's tests.
#[cfg(feature = "local-llm")]
mod local_model;
#[cfg(feature = "local-llm")]
mod local_model_bench;
mod mcp;
mod memory;
mod models;
mod protocol;
mod run_damage;
mod runs;
mod safety;
mod safety_chat;
mod skills;
mod state;
mod state_history;
mod sync;
mod sync_kill;
mod today;
mod v010_upgrade;
