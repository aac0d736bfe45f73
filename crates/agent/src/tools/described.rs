//! A skill's own description of a tool: [`Described`] runs a built-in handler under the
//! name, description, schema, examples and edge cases a skill declared in `tools.yaml` (e.g.
//! tarot's `draw_tarot`), and [`declared_def`] turns a declaration into the definition the
//! model sees. Which declarations are honoured is `toolset`'s decision.

use std::sync::Arc;

use futures::future::BoxFuture;
use serde_json::Value;
use vibe_llm::ToolDef;
use vibe_skills::DeclaredTool;

use super::{Tool, ToolContext, ToolKind, ToolOutput};

/// At most this many examples and edge cases go into a description (prompt budget).
const MAX_EXAMPLES: usize = 3;
const MAX_EDGE_CASES: usize = 5;

/// The definition for a declared tool: its description followed by its examples (as
/// argument JSON) and edge cases.
pub(crate) fn declared_def(tool: &DeclaredTool) -> ToolDef {
    let mut text = tool.description.trim().to_string();
    let examples: Vec<String> = tool
        .examples
        .iter()
        .take(MAX_EXAMPLES)
        .map(|ex| {
            let args = ex.get("arguments").unwrap_or(ex);
            let args = serde_json::to_string(args).unwrap_or_default();
            match ex.get("description").and_then(Value::as_str) {
                Some(when) => format!("{when}：{args}"),
                None => args,
            }
        })
        .collect();
    if !examples.is_empty() {
        text.push_str("\n例：\n- ");
        text.push_str(&examples.join("\n- "));
    }
    if !tool.edge_cases.is_empty() {
        text.push_str("\n注意：\n- ");
        let cases: Vec<&str> =
            tool.edge_cases.iter().take(MAX_EDGE_CASES).map(|c| c.trim()).collect();
        text.push_str(&cases.join("\n- "));
    }
    ToolDef { name: tool.name.clone(), description: text, parameters: tool.parameters.clone() }
}

/// A built-in handler presented with a skill's definition.
pub(crate) struct Described {
    pub definition: ToolDef,
    pub handler: Arc<dyn Tool>,
}

impl Tool for Described {
    fn name(&self) -> &str {
        &self.definition.name
    }

    fn definition(&self) -> ToolDef {
        self.definition.clone()
    }

    fn kind(&self) -> ToolKind {
        self.handler.kind()
    }

    fn changes_state(&self) -> bool {
        self.handler.changes_state()
    }

    fn needs_approval(&self, args: &Value) -> Option<String> {
        self.handler.needs_approval(args)
    }

    fn approval_in(&self, ctx: &ToolContext, args: &Value) -> Option<String> {
        self.handler.approval_in(ctx, args)
    }

    fn call<'a>(&'a self, ctx: &'a ToolContext, args: Value) -> BoxFuture<'a, ToolOutput> {
        self.handler.call(ctx, args)
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn examples_and_edge_cases_follow_the_description() {
        let tool = DeclaredTool {
            name: "draw_tarot".into(),
            builtin: true,
            description: "抽牌。".into(),
            parameters: json!({"type": "object", "properties": {}}).into(),
            examples: vec![json!({"description": "今日指引", "arguments": {"spread": "single"}})],
            edge_cases: vec!["不要反复抽".into()],
        };
        let def = declared_def(&tool);
        assert_eq!(
            def.description,
            "抽牌。\n例：\n- 今日指引：{\"spread\":\"single\"}\n注意：\n- 不要反复抽"
        );
        assert_eq!(def.parameters, tool.parameters);
    }
}
