//! Integration tests of the LLM layer against the fake server and the scripted model.

#![allow(clippy::unwrap_used)] // test helpers outside #[test] fns unwrap too

mod client_errors;
mod client_quirks;
mod provider_streams;
mod retry_wait;
mod scripted;
mod secrets;
mod structured_mode;
mod support;
mod truncation;
