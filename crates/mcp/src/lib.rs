//! The MCP client (on the official Rust SDK, `rmcp`): one [`Connection`] to one Model Context
//! Protocol server — a stdio server started as a confined child through `vibe-sandbox`
//! (`stdio`, its program found by `resolve`) or a streamable HTTP server (`http`) —
//! initialize, tools listed (all pages, capped; again after `list_changed`) and called (timeout, size cap, cancellation),
//! its prompts and resources listed and read (`offers`),
//! with [`McpError`]s a person can act on; and the names tools reach a model under
//! (`names`). Settings, the keychain, approvals and the agent loop are not here: `vibe-core`
//! resolves a server's settings and secrets into a [`ServerSpec`]; the agent decides which
//! tools a model sees.

mod client;
mod error;
mod http;
mod names;
mod notified;
mod offers;
mod pages;
mod resolve;
mod spec;
mod stdio;

pub use client::{Connection, ToolInfo, ToolOutput, by_model_name};
pub use error::{Looked, McpError, StderrTail};
pub use names::{
    MAX_MODEL_NAME, MAX_SERVER_NAME, check_server_name, model_tool_name, split_model_tool_name,
};
pub use offers::{PromptArgument, PromptInfo, ResourceInfo};
pub use resolve::{default_read, resolve_program, search_dirs};
pub use spec::{
    DEFAULT_MAX_RESULT_BYTES, DEFAULT_MAX_TOOLS, Grant, HttpSpec, Limits, ServerSpec, StdioSpec,
    Transport,
};
pub use stdio::readable_by_default;
pub use tokio_util::sync::CancellationToken;
