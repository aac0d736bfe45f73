//! What a server offers besides tools: its prompts (`prompts/list`, `prompts/get`: shown as
//! conversation starters) and resources (`resources/list`, `resources/read`: content a
//! person may attach to a message), every list read page by page (`pages`). A server that does not declare prompts or resources offers none.
//! Showing them and sending their text is the app's.

use rmcp::model::{GetPromptRequestParams, ReadResourceRequestParams};
use serde_json::{Map, Value};

use crate::client::Connection;
use crate::error::McpError;
use crate::pages::pages;

/// One prompt of a server.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PromptInfo {
    pub name: String,
    pub title: Option<String>,
    pub description: Option<String>,
    pub arguments: Vec<PromptArgument>,
}

/// One argument a prompt takes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PromptArgument {
    pub name: String,
    pub description: Option<String>,
    pub required: bool,
}

/// One resource of a server.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ResourceInfo {
    pub uri: String,
    pub name: String,
    pub title: Option<String>,
    pub description: Option<String>,
    pub mime_type: Option<String>,
}

fn text(v: &Value, key: &str) -> Option<String> {
    v.get(key).and_then(Value::as_str).map(str::to_string)
}

impl Connection {
    /// Whether the server declared `capability` (`prompts`, `resources`) at initialize.
    fn declares(&self, capability: &str) -> bool {
        let info = self.peer_info_value();
        info.get("capabilities").and_then(|c| c.get(capability)).is_some_and(|c| !c.is_null())
    }

    /// Every prompt of the server (all pages, at most `max_tools` of them).
    pub async fn list_prompts(&self) -> Result<Vec<PromptInfo>, McpError> {
        if !self.declares("prompts") {
            return Ok(Vec::new());
        }
        let listed = pages(
            "prompts",
            self.limits().max_tools,
            |params| self.json("prompts/list", self.peer().list_prompts(params)),
            || self.too_many("prompts"),
        )
        .await?;
        Ok(listed.iter().map(prompt_info).collect())
    }

    /// The prompt `name` with `arguments` as the text a person would send: its messages'
    /// text parts, one paragraph each (other parts named by a line).
    pub async fn get_prompt(
        &self,
        name: &str,
        arguments: Map<String, Value>,
    ) -> Result<String, McpError> {
        let mut params = GetPromptRequestParams::new(name);
        if !arguments.is_empty() {
            params.arguments = Some(arguments);
        }
        let during = format!("prompts/get of {name}");
        let got = self.json(&during, self.peer().get_prompt(params)).await?;
        let parts: Vec<String> = got
            .get("messages")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(|m| m.get("content"))
            .map(content_text)
            .collect();
        self.capped(name, parts.join("\n\n"))
    }

    /// Every resource of the server (all pages, at most `max_tools` of them).
    pub async fn list_resources(&self) -> Result<Vec<ResourceInfo>, McpError> {
        if !self.declares("resources") {
            return Ok(Vec::new());
        }
        let listed = pages(
            "resources",
            self.limits().max_tools,
            |params| self.json("resources/list", self.peer().list_resources(params)),
            || self.too_many("resources"),
        )
        .await?;
        Ok(listed.iter().map(resource_info).collect())
    }

    /// The resource `uri` as text (its text contents joined; binary contents named by a
    /// line), within the result cap.
    pub async fn read_resource(&self, uri: &str) -> Result<String, McpError> {
        let during = format!("resources/read of {uri}");
        let params = ReadResourceRequestParams::new(uri);
        let read = self.json(&during, self.peer().read_resource(params)).await?;
        let parts: Vec<String> = read
            .get("contents")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .map(|c| match text(c, "text") {
                Some(t) => t,
                None => format!("[{}]", text(c, "mimeType").unwrap_or_else(|| "binary".into())),
            })
            .collect();
        self.capped(uri, parts.join("\n\n"))
    }

    fn too_many(&self, what: &str) -> McpError {
        McpError::Config {
            server: self.name().to_string(),
            reason: format!(
                "it lists more than {} {what}; the app takes at most that many from one server",
                self.limits().max_tools
            ),
        }
    }

    fn capped(&self, what: &str, text: String) -> Result<String, McpError> {
        let limit = self.limits().max_result_bytes;
        if text.len() > limit {
            return Err(McpError::ResultTooLarge {
                server: self.name().to_string(),
                tool: what.to_string(),
                bytes: text.len(),
                limit,
            });
        }
        Ok(text)
    }
}

fn content_text(content: &Value) -> String {
    let kind = text(content, "type").unwrap_or_default();
    match (kind.as_str(), text(content, "text")) {
        ("text", Some(t)) => t,
        ("resource", _) => {
            let inner = content.get("resource").cloned().unwrap_or(Value::Null);
            text(&inner, "text").unwrap_or_else(|| "[resource]".to_string())
        }
        _ => format!("[{kind}]"),
    }
}

fn prompt_info(p: &Value) -> PromptInfo {
    let arguments = p
        .get("arguments")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .map(|a| PromptArgument {
            name: text(a, "name").unwrap_or_default(),
            description: text(a, "description"),
            required: a.get("required").and_then(Value::as_bool).unwrap_or(false),
        })
        .collect();
    PromptInfo {
        name: text(p, "name").unwrap_or_default(),
        title: text(p, "title"),
        description: text(p, "description"),
        arguments,
    }
}

fn resource_info(r: &Value) -> ResourceInfo {
    ResourceInfo {
        uri: text(r, "uri").unwrap_or_default(),
        name: text(r, "name").unwrap_or_default(),
        title: text(r, "title"),
        description: text(r, "description"),
        mime_type: text(r, "mimeType"),
    }
}
