//! Integration tests of vibe-core: one binary, one module per topic.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod audit;
mod compute;
mod context;
mod tools;

mod calibration;
mod chat;
mod compaction;
mod harness;
mod http;
mod protocol;
mod recording;
mod safety;
mod structured;
mod tool_order;
