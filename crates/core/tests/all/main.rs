//! Integration tests of vibe-core: one binary, one module per topic.

mod audit;
mod compute;
mod context;
mod tools;

mod chat;
mod harness;
mod http;
