//! The VibeLife core above the store, skills and LLM layers and the `vibe-context`,
//! `vibe-protocol` and `vibe-sandbox` crates: the app facade, the chat service (one request →
//! one run), the agent loop, tools, the audit log, memory extraction, the safety screen,
//! backups, evals and benchmarks, and chart computation. Parsing CLI input or talking to a
//! front end does not belong here.
//!
//! A module imports only modules listed before it (docs/architecture.md, "Module boundaries"):
//! `emit`, `input`, `compute`, `profile_set`, `store_io`, `audit` (the run log), `safety`,
//! `wellbeing`, `tools`, `memory`, `agent`, `chat`, `backup`, `eval`, `app`, `bench`.

pub mod agent;
pub mod app;
pub mod audit;
pub mod backup;
pub mod bench;
pub mod chat;
pub mod compute;
pub mod emit;
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
