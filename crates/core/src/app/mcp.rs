//! The MCP server commands (docs/mcp.md): list, add, remove, turn on or off, import, list a
//! server's tools and test it. Secret values (environment variables, HTTP headers) go to the
//! [`KeyStore`](crate::app::KeyStore) before the settings name them, and never come back;
//! the settings change goes through `update_settings` (checked, written atomically). What a
//! configuration means is `mcp_config.rs`'s; connecting is `vibe-mcp`'s.

use serde_json::Value;
use vibe_mcp::Connection;
use vibe_wire::command::{
    AddMcpServerRequest, ImportMcpServersRequest, McpImportReport, McpSecret, McpServerList,
    McpServerRemoved, McpServerRequest, McpServerView, McpTestReport, McpToolList, McpToolView,
    SetMcpServerEnabledRequest, SetMcpServerGrantRequest, SettingChange, UpdateSettingsRequest,
};
use vibe_wire::settings::McpServer;

use crate::app::mcp_config::{self, secret_account};
use crate::app::{App, AppError};

impl App {
    /// `list_mcp_servers`.
    pub fn list_mcp_servers(&self) -> McpServerList {
        let settings = self.settings();
        let servers = settings.mcp.servers.iter().map(|(n, s)| self.mcp_view(n, s)).collect();
        McpServerList { servers }
    }

    /// `add_mcp_server`: checked, its secrets stored, then saved (replacing one of that name
    /// is refused: remove it first). On an error nothing is kept.
    pub fn add_mcp_server(&self, request: AddMcpServerRequest) -> Result<McpServerView, AppError> {
        let name = request.name.trim().to_string();
        if self.settings().mcp.servers.contains_key(&name) {
            return Err(AppError::InvalidInput(format!(
                "an MCP server named {name} exists already; remove it first (`vibe mcp rm {name}`) \
                 or choose another name"
            )));
        }
        let server = McpServer {
            command: request.command.filter(|c| !c.trim().is_empty()),
            args: request.args,
            env: request.env.iter().map(|s| s.name.clone()).collect(),
            url: request.url.filter(|u| !u.trim().is_empty()),
            headers: request.headers.iter().map(|s| s.name.clone()).collect(),
            enabled: true,
            sandbox: request.sandbox,
            always_allow: Vec::new(),
        };
        self.save_mcp_server(&name, &server, &request.env, &request.headers)
    }

    fn save_mcp_server(
        &self,
        name: &str,
        server: &McpServer,
        env: &[McpSecret],
        headers: &[McpSecret],
    ) -> Result<McpServerView, AppError> {
        mcp_config::check(name, server).map_err(AppError::InvalidInput)?;
        let secrets: Vec<(String, &str)> = env
            .iter()
            .map(|s| (secret_account(name, "env", &s.name), s.value.as_str()))
            .chain(
                headers.iter().map(|s| (secret_account(name, "header", &s.name), s.value.as_str())),
            )
            .collect();
        let mut stored = Vec::new();
        let result = (|| {
            for (account, value) in &secrets {
                self.keys.set_secret(account, value)?;
                stored.push(account.clone());
            }
            let value = serde_json::to_value(server).unwrap_or(Value::Null);
            self.set_mcp_entry(name, value)
        })();
        if let Err(e) = result {
            for account in &stored {
                let _ = self.keys.delete_secret(account);
            }
            return Err(e);
        }
        Ok(self.mcp_view(name, server))
    }

    fn set_mcp_entry(&self, name: &str, value: Value) -> Result<(), AppError> {
        let change = SettingChange { key: format!("mcp.servers.{name}"), value };
        self.update_settings(UpdateSettingsRequest { changes: vec![change] }).map(|_| ())
    }

    fn mcp_server(&self, name: &str) -> Result<McpServer, AppError> {
        self.settings().mcp.servers.get(name).cloned().ok_or_else(|| {
            AppError::InvalidInput(format!(
                "no MCP server is named {name:?}; `vibe mcp list` shows the servers"
            ))
        })
    }

    /// `remove_mcp_server`: out of the settings, then its secrets out of the keychain.
    pub fn remove_mcp_server(
        &self,
        request: &McpServerRequest,
    ) -> Result<McpServerRemoved, AppError> {
        let server = self.mcp_server(&request.name)?;
        self.set_mcp_entry(&request.name, Value::Null)?;
        for (kind, names) in [("env", &server.env), ("header", &server.headers)] {
            for n in names {
                self.keys.delete_secret(&secret_account(&request.name, kind, n))?;
            }
        }
        Ok(McpServerRemoved { name: request.name.clone() })
    }

    /// `set_mcp_server_enabled`.
    pub fn set_mcp_server_enabled(
        &self,
        request: &SetMcpServerEnabledRequest,
    ) -> Result<McpServerView, AppError> {
        let mut server = self.mcp_server(&request.name)?;
        server.enabled = request.enabled;
        let key = format!("mcp.servers.{}.enabled", request.name);
        let change = SettingChange { key, value: Value::Bool(request.enabled) };
        self.update_settings(UpdateSettingsRequest { changes: vec![change] })?;
        Ok(self.mcp_view(&request.name, &server))
    }

    /// `set_mcp_server_grant`: the stdio server's grant replaced whole, checked as at add
    /// (absolute folders; none for a server reached at a URL); its connection is made again
    /// with it at the next use (the hub follows the settings).
    pub fn set_mcp_server_grant(
        &self,
        request: &SetMcpServerGrantRequest,
    ) -> Result<McpServerView, AppError> {
        let mut server = self.mcp_server(&request.name)?;
        server.sandbox = request.sandbox.clone();
        mcp_config::check(&request.name, &server).map_err(AppError::InvalidInput)?;
        let key = format!("mcp.servers.{}.sandbox", request.name);
        let value = serde_json::to_value(&server.sandbox).unwrap_or(Value::Null);
        self.update_settings(UpdateSettingsRequest {
            changes: vec![SettingChange { key, value }],
        })?;
        Ok(self.mcp_view(&request.name, &server))
    }

    /// `import_mcp_servers`: each usable server of the config is added (its secrets to the
    /// keychain); one whose name is taken, or that cannot be used, is skipped with the reason.
    pub fn import_mcp_servers(
        &self,
        request: &ImportMcpServersRequest,
    ) -> Result<McpImportReport, AppError> {
        let (servers, mut skipped) =
            mcp_config::parse_import(&request.json).map_err(AppError::InvalidInput)?;
        let mut added = Vec::new();
        for imported in servers {
            if self.settings().mcp.servers.contains_key(&imported.name) {
                skipped.push(vibe_wire::command::McpImportSkipped {
                    name: imported.name.clone(),
                    reason: "a server of that name exists already (remove it first to replace it)"
                        .to_string(),
                });
                continue;
            }
            match self.save_mcp_server(
                &imported.name,
                &imported.server,
                &imported.env,
                &imported.headers,
            ) {
                Ok(view) => added.push(view),
                Err(e) => skipped.push(vibe_wire::command::McpImportSkipped {
                    name: imported.name.clone(),
                    reason: e.to_string(),
                }),
            }
        }
        Ok(McpImportReport { added, skipped })
    }

    /// Connects to the server (starting a stdio one confined as granted).
    pub(crate) async fn mcp_connect(
        &self,
        name: &str,
    ) -> Result<(Connection, McpServer), AppError> {
        let server = self.mcp_server(name)?;
        let spec = mcp_config::spec(name, &server, |kind, n| {
            self.keys
                .get_secret(&secret_account(name, kind, n))
                .ok()
                .flatten()
                .map(|v| v.to_string())
        })
        .map_err(AppError::InvalidInput)?;
        let conn = Connection::connect(&spec, self.assembly().mcp_limits).await?;
        Ok((conn, server))
    }

    /// `mcp_server_tools`.
    pub async fn mcp_server_tools(
        &self,
        request: &McpServerRequest,
    ) -> Result<McpToolList, AppError> {
        let (conn, server) = self.mcp_connect(&request.name).await?;
        let tools = conn.list_tools().await;
        conn.close().await;
        let tools = tools?
            .into_iter()
            .map(|t| McpToolView {
                always_allow: server.always_allow.contains(&t.name),
                name: t.name,
                model_name: t.model_name,
                title: t.title,
                description: t.description,
                read_only: t.read_only,
                destructive: t.destructive,
                open_world: t.open_world,
            })
            .collect();
        Ok(McpToolList { server: request.name.clone(), tools })
    }

    /// `test_mcp_server`: connect and list the tools; a failure is the answer's `error`.
    pub async fn test_mcp_server(
        &self,
        request: &McpServerRequest,
    ) -> Result<McpTestReport, AppError> {
        self.mcp_server(&request.name)?;
        let mut report = McpTestReport {
            server: request.name.clone(),
            ok: false,
            server_name: None,
            server_version: None,
            tools: 0,
            error: None,
        };
        match self.mcp_connect(&request.name).await {
            Ok((conn, _)) => {
                if let Some((n, v)) = conn.server_info() {
                    report.server_name = Some(n).filter(|s| !s.is_empty());
                    report.server_version = Some(v).filter(|s| !s.is_empty());
                }
                match conn.list_tools().await {
                    Ok(tools) => {
                        report.ok = true;
                        report.tools = tools.len();
                    }
                    Err(e) => report.error = Some(AppError::from(e).to_error_info()),
                }
                conn.close().await;
            }
            Err(e) => report.error = Some(e.to_error_info()),
        }
        Ok(report)
    }

    pub(crate) fn mcp_view(&self, name: &str, s: &McpServer) -> McpServerView {
        let missing = |kind: &str, names: &[String]| -> Vec<String> {
            names
                .iter()
                .filter(|n| {
                    !matches!(self.keys.get_secret(&secret_account(name, kind, n)), Ok(Some(_)))
                })
                .cloned()
                .collect()
        };
        let mut missing_secrets = missing("env", &s.env);
        missing_secrets.extend(missing("header", &s.headers));
        McpServerView {
            name: name.to_string(),
            command: s.command.clone(),
            args: s.args.clone(),
            url: s.url.as_deref().map(vibe_llm::redact_url),
            env: s.env.clone(),
            headers: s.headers.clone(),
            enabled: s.enabled,
            sandbox: s.sandbox.clone(),
            always_allow: s.always_allow.clone(),
            permissions: mcp_config::permissions(s),
            missing_secrets,
        }
    }
}
