//! MCP server commands (docs/mcp.md): list, add, remove, turn on or off, import a Claude
//! Desktop or Cursor config, list a server's tools, test it. Secret values go in (add,
//! import) and never come back: views name them only.

use serde::{Deserialize, Serialize};

use crate::ErrorInfo;
use crate::settings::McpSandbox;

/// A name with a secret value (an environment variable or an HTTP header), kept in the
/// keychain. `Debug` never shows the value.
#[derive(Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct McpSecret {
    pub name: String,
    pub value: String,
}

impl std::fmt::Debug for McpSecret {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "McpSecret({}=***)", self.name)
    }
}

/// `add_mcp_server`: `command` (+ `args`, `env`, `sandbox`) for a stdio server, or `url`
/// (+ `headers`) for a streamable HTTP server.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(default)]
pub struct AddMcpServerRequest {
    pub name: String,
    pub command: Option<String>,
    pub args: Vec<String>,
    pub env: Vec<McpSecret>,
    pub url: Option<String>,
    pub headers: Vec<McpSecret>,
    pub sandbox: McpSandbox,
}

/// A request naming one server.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct McpServerRequest {
    pub name: String,
}

/// `set_mcp_server_enabled`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct SetMcpServerEnabledRequest {
    pub name: String,
    pub enabled: bool,
}

/// `set_mcp_server_grant`: what a stdio server may touch, replaced whole (network, folders
/// to read, folders to write, unconfined); the server is started again with it at its next use.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct SetMcpServerGrantRequest {
    pub name: String,
    pub sandbox: McpSandbox,
}

/// `set_mcp_tool_always_allow`: call `tool` (the server's own name for it) without asking
/// each time, or ask again.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct SetMcpToolAlwaysAllowRequest {
    pub server: String,
    pub tool: String,
    pub always_allow: bool,
}

/// One server as configured (secret values never: names only).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct McpServerView {
    pub name: String,
    pub command: Option<String>,
    pub args: Vec<String>,
    pub url: Option<String>,
    /// Names of its environment variables (values in the keychain).
    pub env: Vec<String>,
    /// Names of its HTTP headers (values in the keychain).
    pub headers: Vec<String>,
    pub enabled: bool,
    pub sandbox: McpSandbox,
    pub always_allow: Vec<String>,
    /// What it may touch, in plain words (English; a front end may word it from `sandbox`).
    pub permissions: String,
    /// Names whose value is not in the keychain (it will not start until given again).
    pub missing_secrets: Vec<String>,
}

/// `list_mcp_servers`, by name.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct McpServerList {
    pub servers: Vec<McpServerView>,
}

/// `remove_mcp_server`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct McpServerRemoved {
    pub name: String,
}

/// One tool of a server.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct McpToolView {
    /// The server's name for it.
    pub name: String,
    /// `mcp__SERVER__TOOL`, as a model sees it.
    pub model_name: String,
    pub title: Option<String>,
    pub description: Option<String>,
    /// The server's hints (not guarantees).
    pub read_only: Option<bool>,
    pub destructive: Option<bool>,
    pub open_world: Option<bool>,
    /// Called without asking (`always_allow`).
    pub always_allow: bool,
}

/// `mcp_server_tools`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct McpToolList {
    pub server: String,
    pub tools: Vec<McpToolView>,
}

/// `test_mcp_server`: a failure is an answer carrying the error, not an error.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct McpTestReport {
    pub server: String,
    pub ok: bool,
    /// The server's own name and version.
    pub server_name: Option<String>,
    pub server_version: Option<String>,
    pub tools: usize,
    pub error: Option<ErrorInfo>,
}

/// `import_mcp_servers`: the text of a Claude Desktop or Cursor config
/// (`{"mcpServers": {...}}`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct ImportMcpServersRequest {
    pub json: String,
}

/// A server an import left out, and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct McpImportSkipped {
    pub name: String,
    pub reason: String,
}

/// `import_mcp_servers`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct McpImportReport {
    pub added: Vec<McpServerView>,
    pub skipped: Vec<McpImportSkipped>,
}
