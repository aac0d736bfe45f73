//! Integration tests of vibe-core: one binary, one module per topic.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod compute;
mod context;
mod tools;

mod after_reply;
mod app;
mod app_commands;
mod app_settings;
mod backup;
mod calibration;
mod chat;
mod compaction;
mod encryption;
mod harness;
mod http;
mod journal;
mod keychain;
mod layering;
#[cfg(feature = "local-llm")]
mod local_model;
#[cfg(feature = "local-llm")]
mod local_model_warm_up;
mod mcp;
mod mcp_failures;
mod mcp_offers;
mod mcp_python;
mod mcp_turns;
mod memory;
mod model_window;
mod models;
mod module_cycles;
mod prompt_prefix;
mod protocol;
mod recording;
mod run_id;
mod safety;
mod sealed_runs;
mod storage;
mod store_waits;
mod stored_calls;
mod structured;
mod sync;
mod sync_remote;
mod sync_runner;
mod sync_syncthing;
mod today;
mod tool_order;
mod undo;
mod v010_upgrade;
mod warm_up;
mod wellbeing;
