//! The VibeLife core above the store, skills and LLM layers: the chat service (one request →
//! one run), the agent loop, context building, tools, the audit log, evals and benchmarks,
//! memory extraction, and chart computation. Parsing CLI input or talking to a front end does
//! not belong here.

pub mod agent;
pub mod app;
pub mod audit;
pub mod backup;
pub mod bench;
pub mod chat;
pub mod compute;
pub mod context;
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
