//! One connection to one MCP server ([`Connection`]): connect (start or reach it, then
//! `initialize`) within a timeout, list its tools (every page, at most `max_tools`), call one
//! under a timeout, a size cap and a cancellation token, and close. Failures become
//! [`McpError`]s that say what happened, with the stdio server's last stderr lines. Which tools
//! reach a model, approvals and turning a result into a tool message are the agent's.

use std::collections::HashMap;
use std::time::Duration;

use rmcp::ServiceExt;
use rmcp::model::CallToolRequestParams;
use rmcp::service::{RoleClient, RunningService, ServiceError};
use rmcp::transport::StreamableHttpClientTransport;
use serde_json::{Map, Value};
use tokio_util::sync::CancellationToken;

use crate::error::{McpError, StderrTail};
use crate::http;
use crate::names::{check_server_name, model_tool_name};
use crate::notified::Notified;
use crate::pages::pages;
use crate::spec::{Limits, ServerSpec, Transport};
use crate::stdio::{self, Fault, Stdio};

/// How long a stdio server that closed its output gets to exit before its status is read.
const EXIT_WAIT: Duration = Duration::from_secs(2);

/// One tool of a server.
#[derive(Debug, Clone, PartialEq)]
pub struct ToolInfo {
    /// The server's own name for it.
    pub name: String,
    /// `mcp__SERVER__TOOL`, the name a model sees.
    pub model_name: String,
    pub title: Option<String>,
    pub description: Option<String>,
    /// Its arguments' JSON schema.
    pub input_schema: Value,
    /// What the server says of it (hints, not guarantees).
    pub read_only: Option<bool>,
    pub destructive: Option<bool>,
    pub open_world: Option<bool>,
}

/// What a tool call gave.
#[derive(Debug, Clone, PartialEq)]
pub struct ToolOutput {
    /// Its text parts joined; other parts (images, audio, resources) named by a line.
    pub text: String,
    /// The tool said the call failed (the text says why).
    pub is_error: bool,
    pub structured: Option<Value>,
    /// Size of the result as JSON.
    pub bytes: usize,
}

/// A live connection. Dropping it stops a stdio server.
pub struct Connection {
    name: String,
    service: RunningService<RoleClient, Notified>,
    notified: Notified,
    stdio: Option<Stdio>,
    url: Option<String>,
    limits: Limits,
}

impl Connection {
    /// Starts or reaches `spec` and initializes the session within `limits.connect_timeout`.
    pub async fn connect(spec: &ServerSpec, limits: Limits) -> Result<Connection, McpError> {
        let name = spec.name.clone();
        check_server_name(&name)
            .map_err(|reason| McpError::Config { server: name.clone(), reason })?;
        let notified = Notified::default();
        let handler = notified.clone();
        let (served, stdio, url) = match &spec.transport {
            Transport::Stdio(s) => {
                let (stdio, read, write) = stdio::start(&name, s, &limits)?;
                let served =
                    tokio::time::timeout(limits.connect_timeout, handler.serve((read, write)))
                        .await;
                (served.map(|r| r.map_err(|e| e.to_string())), Some(stdio), None)
            }
            Transport::Http(h) => {
                let transport =
                    StreamableHttpClientTransport::from_config(http::config(&name, h, &limits)?);
                let served =
                    tokio::time::timeout(limits.connect_timeout, handler.serve(transport)).await;
                if matches!(served, Ok(Err(_))) && http::speaks_old_sse(h).await {
                    return Err(McpError::OldSse { server: name, url: http::shown(&h.url) });
                }
                (served.map(|r| r.map_err(|e| e.to_string())), None, Some(h.url.clone()))
            }
        };
        let conn_err = Failure {
            name: &name,
            stdio: stdio.as_ref(),
            url: url.as_deref(),
            during: "initialize",
            tool: None,
            limit: limits.max_result_bytes,
        };
        let service = match served {
            Ok(Ok(service)) => service,
            Ok(Err(reason)) => return Err(conn_err.closed(reason).await),
            Err(_) => return Err(conn_err.timed_out(limits.connect_timeout).await),
        };
        Ok(Connection { name, service, notified, stdio, url, limits })
    }

    pub fn name(&self) -> &str {
        &self.name
    }

    /// Whether the server said its tools changed since the last call (`list_changed`; the
    /// news is taken: list the tools again).
    pub fn take_tools_changed(&self) -> bool {
        self.notified.take_tools_changed()
    }

    /// Whether the session ended (the server stopped, closed its output or the transport
    /// failed): nothing more can be asked on it.
    pub fn is_closed(&self) -> bool {
        self.service.is_closed() || self.service.peer().is_transport_closed()
    }

    /// The server's name and version as it gives them.
    pub fn server_info(&self) -> Option<(String, String)> {
        self.service.peer_info().map(|i| {
            let v = serde_json::to_value(&i.server_info).unwrap_or_default();
            let s = |k: &str| v.get(k).and_then(Value::as_str).unwrap_or_default().to_string();
            (s("name"), s("version"))
        })
    }

    /// What the server says of itself for a model (its `instructions`), when it says anything.
    pub fn instructions(&self) -> Option<String> {
        let info = self.service.peer_info()?;
        info.instructions.clone().filter(|i| !i.trim().is_empty())
    }

    fn failure<'a>(&'a self, during: &'a str, tool: Option<&'a str>) -> Failure<'a> {
        Failure {
            name: &self.name,
            stdio: self.stdio.as_ref(),
            url: self.url.as_deref(),
            during,
            tool,
            limit: self.limits.max_result_bytes,
        }
    }

    /// Every tool of the server (all pages), at most `max_tools`.
    pub async fn list_tools(&self) -> Result<Vec<ToolInfo>, McpError> {
        let listed = pages(
            "tools",
            self.limits.max_tools,
            |params| self.json("tools/list", self.service.peer().list_tools(params)),
            || McpError::TooManyTools { server: self.name.clone(), limit: self.limits.max_tools },
        )
        .await?;
        Ok(listed.iter().map(|tool| tool_info(&self.name, tool)).collect())
    }

    /// The session's peer, for the requests of `offers`.
    pub(crate) fn peer(&self) -> &rmcp::Peer<RoleClient> {
        self.service.peer()
    }

    pub(crate) fn limits(&self) -> &Limits {
        &self.limits
    }

    /// What the server said of itself at initialize, as JSON.
    pub(crate) fn peer_info_value(&self) -> Value {
        self.service.peer_info().and_then(|i| serde_json::to_value(i).ok()).unwrap_or_default()
    }

    /// One request (no tool) under `call_timeout`, its answer as JSON.
    pub(crate) async fn json<T: serde::Serialize>(
        &self,
        during: &str,
        fut: impl Future<Output = Result<T, ServiceError>>,
    ) -> Result<Value, McpError> {
        let answer = self.request(during, None, fut).await?;
        Ok(serde_json::to_value(&answer).unwrap_or_default())
    }

    /// Calls `tool` with `arguments`; stops waiting (and tells the server) when `cancel` is
    /// tripped or the call takes longer than `call_timeout`.
    pub async fn call_tool(
        &self,
        tool: &str,
        arguments: Map<String, Value>,
        cancel: &CancellationToken,
    ) -> Result<ToolOutput, McpError> {
        let during = format!("the call of {tool}");
        let params = CallToolRequestParams::new(tool.to_string()).with_arguments(arguments);
        let call = self.service.peer().call_tool(params);
        let result = tokio::select! {
            r = self.request(&during, Some(tool), call) => r?,
            () = cancel.cancelled() => {
                return Err(McpError::Cancelled { server: self.name.clone(), tool: tool.to_string() });
            }
        };
        let value = serde_json::to_value(&result).unwrap_or_default();
        let bytes = value.to_string().len();
        if bytes > self.limits.max_result_bytes {
            return Err(McpError::ResultTooLarge {
                server: self.name.clone(),
                tool: tool.to_string(),
                bytes,
                limit: self.limits.max_result_bytes,
            });
        }
        Ok(output(&value, bytes))
    }

    /// One request under `call_timeout`, its failure worded.
    async fn request<T>(
        &self,
        during: &str,
        tool: Option<&str>,
        fut: impl Future<Output = Result<T, ServiceError>>,
    ) -> Result<T, McpError> {
        match tokio::time::timeout(self.limits.call_timeout, fut).await {
            Ok(Ok(v)) => Ok(v),
            Ok(Err(ServiceError::McpError(e))) => Err(McpError::Server {
                server: self.name.clone(),
                during: during.to_string(),
                message: e.message.to_string(),
            }),
            Ok(Err(e)) => Err(self.failure(during, tool).closed(e.to_string()).await),
            Err(_) => Err(self.failure(during, tool).timed_out(self.limits.call_timeout).await),
        }
    }

    /// Ends the session and stops a stdio server.
    pub async fn close(mut self) {
        let _ = self.service.close_with_timeout(Duration::from_secs(2)).await;
        if let Some(stdio) = &self.stdio {
            stdio.kill().await;
        }
    }
}

/// Words a failure of a connection for a person.
struct Failure<'a> {
    name: &'a str,
    stdio: Option<&'a Stdio>,
    url: Option<&'a str>,
    during: &'a str,
    /// The tool being called, if any.
    tool: Option<&'a str>,
    /// The result cap.
    limit: usize,
}

impl Failure<'_> {
    fn stderr(&self) -> StderrTail {
        self.stdio.map(Stdio::stderr).unwrap_or_default()
    }

    fn fault(&self) -> Option<McpError> {
        Some(match self.stdio?.fault()? {
            Fault::Malformed(excerpt) => McpError::Malformed {
                server: self.name.to_string(),
                during: self.during.to_string(),
                excerpt,
                stderr: self.stderr(),
            },
            Fault::TooLarge(bytes) => McpError::ResultTooLarge {
                server: self.name.to_string(),
                tool: self.tool.unwrap_or(self.during).to_string(),
                bytes,
                limit: self.limit,
            },
        })
    }

    /// The connection closed or the transport failed (`reason` from the SDK).
    async fn closed(&self, reason: String) -> McpError {
        if let Some(e) = self.fault() {
            return e;
        }
        match self.stdio {
            Some(stdio) => McpError::Crashed {
                server: self.name.to_string(),
                status: stdio.status(EXIT_WAIT).await,
                during: self.during.to_string(),
                stderr: stdio.stderr(),
            },
            None => {
                let raw = self.url.unwrap_or_default();
                let url = http::shown(raw);
                // The transport's words may quote the URL as configured.
                let reason = if raw.is_empty() { reason } else { http::redact(&reason, raw) };
                McpError::Http {
                    server: self.name.to_string(),
                    url,
                    reason: format!("{} failed: {reason}", self.during),
                }
            }
        }
    }

    async fn timed_out(&self, after: Duration) -> McpError {
        if let Some(e) = self.fault() {
            return e;
        }
        McpError::TimedOut {
            server: self.name.to_string(),
            during: self.during.to_string(),
            after,
            stderr: self.stderr(),
        }
    }
}

fn tool_info(server: &str, tool: &Value) -> ToolInfo {
    let s = |v: Option<&Value>| v.and_then(Value::as_str).map(str::to_string);
    let name = s(tool.get("name")).unwrap_or_default();
    let hints = tool.get("annotations");
    let hint = |k: &str| hints.and_then(|h| h.get(k)).and_then(Value::as_bool);
    ToolInfo {
        model_name: model_tool_name(server, &name),
        title: s(tool.get("title")).or_else(|| s(hints.and_then(|h| h.get("title")))),
        description: s(tool.get("description")),
        input_schema: tool.get("inputSchema").cloned().unwrap_or(Value::Null),
        read_only: hint("readOnlyHint"),
        destructive: hint("destructiveHint"),
        open_world: hint("openWorldHint"),
        name,
    }
}

fn output(result: &Value, bytes: usize) -> ToolOutput {
    let mut parts = Vec::new();
    for block in result.get("content").and_then(Value::as_array).into_iter().flatten() {
        let kind = block.get("type").and_then(Value::as_str).unwrap_or("?");
        match block.get("text").and_then(Value::as_str) {
            Some(text) if kind == "text" => parts.push(text.to_string()),
            _ => {
                let mime = block.get("mimeType").and_then(Value::as_str).unwrap_or("");
                parts.push(format!("[{kind} {mime}]").replace(" ]", "]"));
            }
        }
    }
    ToolOutput {
        text: parts.join("\n"),
        is_error: result.get("isError").and_then(Value::as_bool).unwrap_or(false),
        structured: result.get("structuredContent").cloned(),
        bytes,
    }
}

/// Model names of `tools` → the server's names (for a model's call).
pub fn by_model_name(tools: &[ToolInfo]) -> HashMap<String, String> {
    tools.iter().map(|t| (t.model_name.clone(), t.name.clone())).collect()
}
