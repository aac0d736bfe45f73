//! Integration tests of the LLM layer against the fake OpenAI-compatible server.

mod client_errors;
mod client_quirks;
mod support;
