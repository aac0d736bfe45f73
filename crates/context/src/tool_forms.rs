//! The short form of tool definitions, the phase-2 trim's last resort for a small context
//! window (docs/context.md): each description cut to its first sentence and the schemas' own
//! descriptions and examples left out, so names, types, enums and required fields — what a call
//! must match — stay. It must not drop a tool or change what a call may carry.

use std::sync::Arc;

use serde_json::Value;
use vibe_llm::ToolDef;

use super::sections::first_sentence;

/// `tools` in their short form.
pub(crate) fn short_tools(tools: &[ToolDef]) -> Vec<ToolDef> {
    tools
        .iter()
        .map(|t| ToolDef {
            name: t.name.clone(),
            description: first_sentence(&t.description).to_string(),
            parameters: Arc::new(bare_schema(&t.parameters)),
        })
        .collect()
}

/// A JSON schema without its `description`, `title` and `examples` keywords, at every depth.
/// Keys of `properties` are field names, never keywords: they are all kept.
fn bare_schema(schema: &Value) -> Value {
    match schema {
        Value::Object(map) => Value::Object(
            map.iter()
                .filter(|(k, _)| !matches!(k.as_str(), "description" | "title" | "examples"))
                .map(|(k, v)| {
                    let v = if k == "properties" {
                        match v {
                            Value::Object(fields) => Value::Object(
                                fields.iter().map(|(f, s)| (f.clone(), bare_schema(s))).collect(),
                            ),
                            other => other.clone(),
                        }
                    } else {
                        bare_schema(v)
                    };
                    (k.clone(), v)
                })
                .collect(),
        ),
        Value::Array(items) => Value::Array(items.iter().map(bare_schema).collect()),
        other => other.clone(),
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn a_short_tool_keeps_what_a_call_must_match() {
        let tool = ToolDef {
            name: "append_to_list".into(),
            description: "在技能记录的列表末尾追加一项。用于日记、打卡等。不要用来改写旧条目。"
                .into(),
            parameters: Arc::new(json!({
                "type": "object",
                "description": "参数",
                "properties": {
                    "key": {"type": "string", "description": "列表的键", "examples": ["journal"]},
                    "description": {"type": "string", "description": "a field named description"},
                    "mode": {"type": "string", "enum": ["a", "b"], "title": "Mode"},
                    "items": {"type": "array", "items": {"type": "object", "description": "x",
                        "properties": {"n": {"type": "integer", "description": "n"}}}}
                },
                "required": ["key"]
            })),
        };
        let short = short_tools(std::slice::from_ref(&tool));
        assert_eq!(short[0].name, "append_to_list");
        assert_eq!(short[0].description, "在技能记录的列表末尾追加一项。");
        assert_eq!(
            *short[0].parameters,
            json!({
                "type": "object",
                "properties": {
                    "key": {"type": "string"},
                    "description": {"type": "string"},
                    "mode": {"type": "string", "enum": ["a", "b"]},
                    "items": {"type": "array", "items": {"type": "object",
                        "properties": {"n": {"type": "integer"}}}}
                },
                "required": ["key"]
            })
        );
    }
}
