//! The connected MCP servers the chat service's turns use (docs/mcp.md, "What the coach
//! sees"): the enabled servers of the settings resolved (secrets from the keychain) into one
//! [`Connections`], kept while the servers' settings stay the same (so a server is started
//! and its tools listed once, not at every turn or settings change), and "always allow"
//! written to a server's `always_allow` when the person answers an approval so. Connecting,
//! offering and calling are `vibe-agent`'s.

use std::sync::{Arc, PoisonError};

use serde_json::Value;
use vibe_agent::connections::{Connections, ServerConfig};
use vibe_wire::command::{McpServerView, SetMcpToolAlwaysAllowRequest, SettingChange};
use vibe_wire::settings::McpSettings;

use crate::app::mcp_config::{self, secret_account};
use crate::app::{App, AppError};

/// The hub and the settings it was made from (`always_allow` left out: a change of it
/// keeps the connections).
pub(crate) type KeptHub = Option<(McpSettings, Arc<Connections>)>;

fn without_allowances(settings: &McpSettings) -> McpSettings {
    let mut s = settings.clone();
    for server in s.servers.values_mut() {
        server.always_allow.clear();
    }
    s
}

impl App {
    /// The enabled servers as one hub (`None`: no server is enabled); kept while their
    /// settings are the same.
    pub(crate) fn mcp_connections(&self) -> Option<Arc<Connections>> {
        let settings = self.settings().mcp.clone();
        if !settings.servers.values().any(|s| s.enabled) {
            return None;
        }
        let key = without_allowances(&settings);
        let mut kept = self.mcp_hub.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some((made_from, hub)) = kept.as_ref()
            && *made_from == key
        {
            return Some(Arc::clone(hub));
        }
        let configs = settings
            .servers
            .iter()
            .filter(|(_, s)| s.enabled)
            .map(|(name, server)| ServerConfig {
                name: name.clone(),
                spec: mcp_config::spec(name, server, |kind, n| {
                    self.keys
                        .get_secret(&secret_account(name, kind, n))
                        .ok()
                        .flatten()
                        .map(|v| v.to_string())
                }),
                always_allow: server.always_allow.clone(),
            })
            .collect();
        let hub = Arc::new(Connections::new(configs, self.assembly().mcp_limits));
        *kept = Some((key, Arc::clone(&hub)));
        Some(hub)
    }

    /// Starts connecting the enabled servers in the background on `runtime` (a long-lived
    /// front end calls it once the app is open, so the first turn does not wait for them).
    pub fn start_connections(&self, runtime: &tokio::runtime::Handle) {
        if let Some(hub) = self.mcp_connections() {
            hub.start(runtime);
        }
    }

    /// Always allow `tool` (its own name) of the server `server`: at once for the turns
    /// running, and in the settings for later ones.
    pub fn always_allow_mcp_tool(&self, server: &str, tool: &str) -> Result<(), AppError> {
        let request = SetMcpToolAlwaysAllowRequest {
            server: server.to_string(),
            tool: tool.to_string(),
            always_allow: true,
        };
        self.set_mcp_tool_always_allow(&request).map(|_| ())
    }

    /// `set_mcp_tool_always_allow`: the server's `always_allow` list read and written in one
    /// settings change (no other change comes between), then the running turns told.
    pub fn set_mcp_tool_always_allow(
        &self,
        request: &SetMcpToolAlwaysAllowRequest,
    ) -> Result<McpServerView, AppError> {
        let (server, tool) = (request.server.as_str(), request.tool.trim());
        if tool.is_empty() {
            return Err(AppError::InvalidInput(format!(
                "no tool named: give the name `vibe mcp tools {server}` shows"
            )));
        }
        let mut saved = None;
        self.update_settings_with(|settings| {
            let Some(s) = settings.mcp.servers.get(server) else {
                return Err(AppError::InvalidInput(format!(
                    "no MCP server is named {server:?}; `vibe mcp list` shows the servers"
                )));
            };
            let mut entry = s.clone();
            entry.always_allow.retain(|t| t != tool);
            if request.always_allow {
                entry.always_allow.push(tool.to_string());
            }
            let change = SettingChange {
                key: format!("mcp.servers.{server}.always_allow"),
                value: Value::from(entry.always_allow.clone()),
            };
            saved = Some(entry);
            Ok(vec![change])
        })?;
        let kept = self.mcp_hub.lock().unwrap_or_else(PoisonError::into_inner).clone();
        if let Some((_, hub)) = kept {
            if request.always_allow {
                hub.allow_always(server, tool);
            } else {
                hub.ask_again(server, tool);
            }
        }
        let saved =
            saved.ok_or_else(|| AppError::InvalidInput(format!("{server:?}: not saved")))?;
        Ok(self.mcp_view(server, &saved))
    }
}
