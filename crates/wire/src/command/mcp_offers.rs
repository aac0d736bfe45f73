//! What MCP servers offer besides tools (docs/mcp.md, "Prompts and resources"): their prompts,
//! shown beside the skills' conversation starters (choosing one runs `prompts/get` and fills
//! the composer with its text, as Claude Desktop puts a chosen prompt into the message being
//! written), and their resources, listed under the server in Settings → Connections (one's
//! content can be put into the message being written).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

/// `mcp_prompts`: the prompts of every enabled server.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct McpPromptList {
    /// Servers in name order, each server's prompts in its own order.
    pub prompts: Vec<McpPromptView>,
    /// Servers whose prompts could not be read, with why (`SERVER: reason`).
    pub unavailable: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct McpPromptView {
    pub server: String,
    /// The server's name for it (for `get_mcp_prompt`).
    pub name: String,
    pub title: Option<String>,
    pub description: Option<String>,
    pub arguments: Vec<McpPromptArgumentView>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct McpPromptArgumentView {
    pub name: String,
    pub description: Option<String>,
    pub required: bool,
}

/// `get_mcp_prompt`: the prompt `name` of `server` with its arguments' values.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(default)]
pub struct GetMcpPromptRequest {
    pub server: String,
    pub name: String,
    pub arguments: BTreeMap<String, String>,
}

/// `mcp_server_resources`: one server's resources.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct McpResourceList {
    pub server: String,
    pub resources: Vec<McpResourceView>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct McpResourceView {
    pub uri: String,
    pub name: String,
    pub title: Option<String>,
    pub description: Option<String>,
    pub mime_type: Option<String>,
}

/// `read_mcp_resource`: the resource `uri` of `server`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct ReadMcpResourceRequest {
    pub server: String,
    pub uri: String,
}

/// Text from a server (a prompt's messages, a resource's content), for the message being
/// written: the person reads and sends it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct McpText {
    pub server: String,
    pub text: String,
}
