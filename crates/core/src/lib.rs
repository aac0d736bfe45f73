//! The VibeLife core above the store, skills and LLM layers and the `vibe-context`,
//! `vibe-protocol`, `vibe-sandbox` and `vibe-runlog` crates: the app facade, the chat service (one request →
//! one run), the agent loop, tools, memory extraction, the safety screen,
//! backups, evals and benchmarks, and chart computation. Parsing CLI input or talking to a
//! front end does not belong here.
//!
//! A module imports only modules listed before it (docs/architecture.md, "Module boundaries"):
//! `input`, `compute`, `profile_set`, `store_io`, `safety`,
//! `wellbeing`, `tools`, `memory`, `agent`, `chat`, `backup`, `eval`, `app`, `bench`.

pub mod agent;
pub mod app;
pub mod backup;
pub mod bench;
pub mod chat;
pub mod compute;
mod error;
pub mod eval;
pub mod input;
pub mod memory;
pub mod profile_set;
pub mod safety;
mod store_io;
pub mod tools;
mod wellbeing;

pub use error::CoreError;

/// Events of a run as the front ends receive them: a sink they implement, the emitter a host
/// stamps its own notices with.
pub use vibe_runlog::emit;

/// The run log as the front ends see it: finishing the writes a run left waiting before the
/// process exits, the data folder's run folders (`App::run_folders`) and what they hold.
pub mod audit {
    pub use vibe_runlog::{EXTERNALIZE_THRESHOLD, RunAudit, RunFolders, RunKey, write_waiting};
}
