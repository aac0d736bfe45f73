//! Integration tests of the skill registry against real folders.
#![allow(clippy::unwrap_used, clippy::expect_used)] // test helpers outside #[test] fns

mod support;

mod builtins;
mod fixture;
mod loading;
mod precedence;
mod reload;
