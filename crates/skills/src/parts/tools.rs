//! `tools.yaml`: the tools a skill uses. A top-level `tools:` list whose items are either the
//! name of a built-in tool (the one list of them is [`BUILTIN_TOOLS`]) or a declared tool
//! `{name, description, parameters: <JSON schema object>, examples: [..], edge_cases: [..]}`.
//! A mapping may carry a built-in name: it then documents that built-in for this skill (the
//! app executes it; the skill supplies description, schema, examples and edge cases).
//! An optional top-level `network: true` asks for network access for the skill's scripts.
//! An item `{mcp: SERVER/TOOL}` names a tool of a connected MCP server the skill uses (offered
//! while the skill is active; whether the server is configured is the app's check).
//! Executing tools is the agent's job; JSON-schema checks are in `tools_schema`.

use std::path::Path;
use std::sync::Arc;

use serde::Serialize;
use serde_json::Value as Json;

use super::Parsed;
use super::tools_schema::{check_examples, check_parameters};
use crate::problem::has_errors;
use crate::yaml::Node;
use crate::yaml_read::Reader;

/// Every built-in tool the agent provides. Kept here, once; the agent's tool registry must
/// implement exactly these names.
pub const BUILTIN_TOOLS: &[&str] = &[
    "use_skill",
    "read_state",
    "write_state",
    "append_to_list",
    "update_plan",
    "load_resource",
    "run_script",
    "show_chart",
    "compute_chart",
    "draw_tarot",
    "show_protocol_invitation",
    "advance_protocol_step",
    "cancel_protocol",
    "flag_wellbeing_concern",
    "use_connection",
];

/// The parsed `tools.yaml`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ToolsSpec {
    pub tools: Vec<ToolRef>,
    /// `network: true`: the skill's scripts ask for network access (the approval of each run
    /// says so; without it scripts run with no network).
    pub network: bool,
}

impl ToolsSpec {
    /// Names of all tools, built-in and declared, in file order.
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.tools.iter().map(ToolRef::name)
    }
}

/// One item of the `tools:` list.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum ToolRef {
    /// A built-in tool, by name.
    Builtin { name: String },
    /// A tool declared by the skill.
    Declared(DeclaredTool),
    /// A connected MCP server's tool (`mcp: SERVER/TOOL`).
    Mcp(McpToolRef),
}

/// A tool of a connected MCP server a skill uses.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct McpToolRef {
    /// `mcp:SERVER/TOOL`, as written.
    pub name: String,
    /// The server's name in the settings (`mcp.servers.SERVER`).
    pub server: String,
    /// The tool's own name on the server.
    pub tool: String,
    /// Where in tools.yaml (for reports).
    pub line: usize,
}

impl ToolRef {
    pub fn name(&self) -> &str {
        match self {
            Self::Builtin { name } => name,
            Self::Declared(t) => &t.name,
            Self::Mcp(t) => &t.name,
        }
    }
}

/// A tool the skill declares itself (docs/design.md#tools).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct DeclaredTool {
    /// 1–64 characters of `A-Z a-z 0-9 _ -` (what model APIs accept).
    pub name: String,
    /// True when `name` is in [`BUILTIN_TOOLS`]: the app executes the tool and this entry is
    /// the skill's description of it (the agent must keep both schemas compatible).
    pub builtin: bool,
    pub description: String,
    /// A JSON schema with `type: object`; `{type: object, properties: {}}` when omitted.
    /// Shared: every run's definition of the tool holds this schema, not a copy.
    pub parameters: Arc<Json>,
    /// Example calls; a mapping with `arguments` is checked against `parameters`.
    pub examples: Vec<Json>,
    /// Situations to handle with care, in words.
    pub edge_cases: Vec<String>,
}

const TOOL_FIELDS: &[&str] = &["name", "description", "parameters", "examples", "edge_cases"];

pub(crate) fn parse_tools(path: &Path, text: &str) -> Parsed<ToolsSpec> {
    let mut r = Reader::new(path);
    let Some(node) = r.document(text, 1, "") else {
        return (None, r.problems);
    };
    let Some(entries) = node.as_map() else {
        r.error(
            node.pos,
            format!(
                "tools.yaml must be a mapping with a `tools:` list, found {}",
                node.kind_name()
            ),
        );
        return (None, r.problems);
    };
    r.unknown_keys(entries, &["tools", "network"], "key");
    let network = node.get("network").and_then(|n| r.bool(n, "network")).unwrap_or(false);
    let Some(list) = node.get("tools") else {
        r.error(node.pos, "missing `tools:` (a list of built-in tool names or declared tools)");
        return (None, r.problems);
    };
    let items: &[Node] = match &list.value {
        crate::yaml::Value::Seq(items) => items,
        _ if list.is_null() => &[],
        _ => {
            r.error(list.pos, format!("`tools` must be a list, found {}", list.kind_name()));
            return (None, r.problems);
        }
    };
    let mut tools: Vec<ToolRef> = Vec::new();
    for item in items {
        let Some(tool) = tool_item(&mut r, item) else { continue };
        if tools.iter().any(|t| t.name() == tool.name()) {
            r.error(item.pos, format!("tool `{}` is listed twice", tool.name()));
            continue;
        }
        tools.push(tool);
    }
    let ok = !has_errors(&r.problems);
    (ok.then_some(ToolsSpec { tools, network }), r.problems)
}

fn tool_item(r: &mut Reader<'_>, item: &Node) -> Option<ToolRef> {
    if let Some(name) = item.scalar_text() {
        if BUILTIN_TOOLS.contains(&name) {
            return Some(ToolRef::Builtin { name: name.to_string() });
        }
        r.error(
            item.pos,
            format!(
                "unknown built-in tool `{name}` (known: {}); to declare your own tool write a mapping with name, description and parameters",
                BUILTIN_TOOLS.join(", ")
            ),
        );
        return None;
    }
    let Some(entries) = item.as_map() else {
        r.error(
            item.pos,
            format!("a tool is a built-in name or a mapping, found {}", item.kind_name()),
        );
        return None;
    };
    if let Some(reference) = item.get("mcp") {
        r.unknown_keys(entries, &["mcp"], "key of an mcp entry");
        return mcp_item(r, reference);
    }
    r.unknown_keys(entries, TOOL_FIELDS, "tool field");
    let name = match item.get("name") {
        Some(n) => r.text(n, "name").filter(|name| check_tool_name(r, n, name)),
        None => {
            r.error(item.pos, "a declared tool needs a `name`");
            None
        }
    };
    let description = match item.get("description") {
        Some(n) => r.text(n, "description").filter(|d| !d.trim().is_empty()),
        None => None,
    };
    if description.is_none() {
        let pos = item.get("description").map_or(item.pos, |n| n.pos);
        r.error(
            pos,
            "a declared tool needs a non-empty `description` (what it does, when to call it)",
        );
    }
    let parameters = check_parameters(r, item.get("parameters"));
    let examples =
        item.get("examples").map(|n| check_examples(r, n, parameters.as_ref())).unwrap_or_default();
    let edge_cases = item
        .get("edge_cases")
        .map(|n| r.text_list(n, "edge_cases").into_iter().map(|(t, _)| t).collect())
        .unwrap_or_default();
    let name = name?;
    Some(ToolRef::Declared(DeclaredTool {
        builtin: BUILTIN_TOOLS.contains(&name.as_str()),
        name,
        description: description?,
        parameters: Arc::new(parameters?),
        examples,
        edge_cases,
    }))
}

/// `mcp: SERVER/TOOL`.
fn mcp_item(r: &mut Reader<'_>, node: &Node) -> Option<ToolRef> {
    let text = r.text(node, "mcp")?;
    let server_ok = |s: &str| {
        !s.is_empty() && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
    };
    match text.split_once('/') {
        Some((server, tool)) if server_ok(server.trim()) && !tool.trim().is_empty() => {
            let (server, tool) = (server.trim().to_string(), tool.trim().to_string());
            Some(ToolRef::Mcp(McpToolRef {
                name: format!("mcp:{server}/{tool}"),
                server,
                tool,
                line: node.pos.line,
            }))
        }
        _ => {
            r.error(
                node.pos,
                format!(
                    "`mcp: {text}` must name a connection and one of its tools as SERVER/TOOL, \
                     e.g. `mcp: calendar/list_events` (the names `vibe mcp tools SERVER` shows)"
                ),
            );
            None
        }
    }
}

/// The MCP tools `tools.yaml` in `dir` names (none when it has none or cannot be read).
pub fn declared_mcp_tools(dir: &Path) -> Vec<McpToolRef> {
    let path = dir.join("tools.yaml");
    let Ok(text) = std::fs::read_to_string(&path) else { return Vec::new() };
    let (spec, _) = parse_tools(&path, &text);
    spec.into_iter()
        .flat_map(|s| s.tools)
        .filter_map(|t| match t {
            ToolRef::Mcp(m) => Some(m),
            _ => None,
        })
        .collect()
}

fn check_tool_name(r: &mut Reader<'_>, node: &Node, name: &str) -> bool {
    let ok = (1..=64).contains(&name.len())
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
    if !ok {
        r.error(
            node.pos,
            format!("tool name `{name}` must be 1–64 characters of A-Z, a-z, 0-9, `_` or `-`"),
        );
    }
    ok
}

#[cfg(test)]
#[path = "tools_tests.rs"]
mod tests;
