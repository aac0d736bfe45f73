//! The `mcp` section: the MCP servers the person connected (docs/mcp.md), in the shape of
//! Claude Desktop's `mcpServers` (command, args, env, url, headers) plus what only VibeLife
//! has: `enabled`, the sandbox grant and the tools always allowed. Secret values never are
//! here: `env` and `headers` list names only, their values live in the OS keychain. Checking
//! names and connecting are `vibe-mcp`'s and the core's.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

/// The `mcp` section of `settings.json`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(default, deny_unknown_fields)]
pub struct McpSettings {
    /// The servers by name (the `SERVER` of `mcp__SERVER__TOOL`).
    pub servers: BTreeMap<String, McpServer>,
}

/// One server: `command` (with `args`) for a stdio server the app starts, or `url` for a
/// streamable HTTP server.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(default, deny_unknown_fields)]
pub struct McpServer {
    /// The program: a bare command (looked up on the app's PATH and the usual install
    /// folders) or an absolute path.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub command: Option<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub args: Vec<String>,
    /// Names of the environment variables it gets; their values are in the keychain.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub env: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
    /// Names of the HTTP headers sent; their values are in the keychain.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub headers: Vec<String>,
    /// Off: kept but not connected.
    pub enabled: bool,
    /// What a stdio server may touch.
    pub sandbox: McpSandbox,
    /// Tools called without asking each time (the server's names).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub always_allow: Vec<String>,
}

impl Default for McpServer {
    fn default() -> Self {
        McpServer {
            command: None,
            args: Vec::new(),
            env: Vec::new(),
            url: None,
            headers: Vec::new(),
            enabled: true,
            sandbox: McpSandbox::default(),
            always_allow: Vec::new(),
        }
    }
}

/// What a stdio server may touch beyond its own program's folder and the system's programs
/// and libraries: nothing unless granted.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(default, deny_unknown_fields)]
pub struct McpSandbox {
    pub network: bool,
    /// Folders it may read.
    pub read: Vec<String>,
    /// Folders it may write (and read).
    pub write: Vec<String>,
    /// Run it without the sandbox, with all the person's rights (an explicit, warned choice).
    pub unconfined: bool,
}
