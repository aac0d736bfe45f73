//! The VibeLife agent above the store, skills, LLM, context, protocol, sandbox and run log
//! crates: the chat service (one request → one run), the agent loop, tools, memory
//! extraction, the safety screen and wellbeing, and chart computation. The `App` facade,
//! settings, keys, backups and evals are `vibe-core`'s, above this crate; parsing CLI input or
//! talking to a front end does not belong here.
//!
//! A module imports only modules listed before it (docs/architecture.md, "Module boundaries"):
//! `error`, `input`, `store_io`, `compute`, `profile_set`, `safety`, `wellbeing`, `connections`, `tools`,
//! `memory`, `agent`, `chat`.

pub mod agent;
pub mod chat;
pub mod compute;
pub mod connections;
mod error;
pub mod input;
pub mod memory;
pub mod profile_set;
pub mod safety;
pub mod store_io;
pub mod tools;
mod wellbeing;

pub use error::CoreError;
pub use wellbeing::crisis_resources;
