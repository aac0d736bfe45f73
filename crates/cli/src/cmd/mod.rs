//! One module per top-level command. Each parses nothing itself (clap did) and only adapts:
//! call the core, then print through `output`.

pub mod backup;
pub mod bench;
pub mod bench_local;
pub mod chat;
pub mod compute;
pub mod conversations;
pub mod db;
pub mod eval;
pub mod insights;
pub mod journal;
pub mod llm;
pub mod mcp;
pub mod memory;
pub mod memory_render;
pub mod models;
pub mod profile;
pub mod protocol;
pub mod runs;
pub mod safety;
pub mod skills;
pub mod state;
pub mod state_history;
pub mod sync;
mod sync_target;
pub mod terminal;
pub mod today;
