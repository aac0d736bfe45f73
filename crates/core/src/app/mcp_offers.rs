//! What MCP servers offer besides tools (docs/mcp.md, "Prompts and resources"): the enabled
//! servers' prompts for the conversation starters, read from the running connections (the
//! chat's hub: no server is started twice), a prompt's text (`prompts/get`), and one server's
//! resources and a resource's content, read over a connection of their own as the tools list
//! of Settings → Connections is. Sending anything is the person's: these only give text.

use serde_json::{Map, Value};
use vibe_wire::command::{
    GetMcpPromptRequest, McpPromptArgumentView, McpPromptList, McpPromptView, McpResourceList,
    McpResourceView, McpServerRequest, McpText, ReadMcpResourceRequest,
};

use crate::app::{App, AppError};

impl App {
    /// `mcp_prompts`: the prompts of every enabled server (a server that fails is named in
    /// `unavailable`, the others are listed).
    pub async fn mcp_prompts(&self) -> McpPromptList {
        let mut list = McpPromptList::default();
        let Some(hub) = self.mcp_connections() else { return list };
        for server in hub.names() {
            let listed = match hub.live(server).await {
                Ok(live) => live.connection().list_prompts().await.map_err(|e| e.to_string()),
                Err(e) => Err(e),
            };
            match listed {
                Ok(prompts) => list.prompts.extend(prompts.into_iter().map(|p| {
                    McpPromptView {
                        server: server.to_string(),
                        name: p.name,
                        title: p.title,
                        description: p.description,
                        arguments: p
                            .arguments
                            .into_iter()
                            .map(|a| McpPromptArgumentView {
                                name: a.name,
                                description: a.description,
                                required: a.required,
                            })
                            .collect(),
                    }
                })),
                Err(e) => list.unavailable.push(format!("{server}: {e}")),
            }
        }
        list
    }

    /// `get_mcp_prompt`: the prompt's text (its messages), for the composer.
    pub async fn get_mcp_prompt(&self, request: &GetMcpPromptRequest) -> Result<McpText, AppError> {
        let server = request.server.as_str();
        let hub = self.mcp_connections().filter(|h| h.names().contains(&server));
        let Some(hub) = hub else {
            return Err(AppError::InvalidInput(format!(
                "no enabled MCP server is named {server:?}; `vibe mcp list` shows the servers"
            )));
        };
        let live = hub.live(server).await.map_err(|e| {
            AppError::InvalidInput(format!("the MCP server {server} is unavailable: {e}"))
        })?;
        let arguments: Map<String, Value> =
            request.arguments.iter().map(|(k, v)| (k.clone(), Value::from(v.clone()))).collect();
        let text = live.connection().get_prompt(&request.name, arguments).await?;
        Ok(McpText { server: server.to_string(), text })
    }

    /// `mcp_server_resources`.
    pub async fn mcp_server_resources(
        &self,
        request: &McpServerRequest,
    ) -> Result<McpResourceList, AppError> {
        let (conn, _) = self.mcp_connect(&request.name).await?;
        let resources = conn.list_resources().await;
        conn.close().await;
        let resources = resources?
            .into_iter()
            .map(|r| McpResourceView {
                uri: r.uri,
                name: r.name,
                title: r.title,
                description: r.description,
                mime_type: r.mime_type,
            })
            .collect();
        Ok(McpResourceList { server: request.name.clone(), resources })
    }

    /// `read_mcp_resource`: the resource's content (within the result cap).
    pub async fn read_mcp_resource(
        &self,
        request: &ReadMcpResourceRequest,
    ) -> Result<McpText, AppError> {
        let (conn, _) = self.mcp_connect(&request.server).await?;
        let text = conn.read_resource(&request.uri).await;
        conn.close().await;
        Ok(McpText { server: request.server.clone(), text: text? })
    }
}
