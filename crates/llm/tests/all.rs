//! Integration tests of the LLM layer against the fake server and the scripted model.

mod client_errors;
mod client_quirks;
mod scripted;
mod structured_mode;
mod support;
