//! Tests of the action schema (`schema.rs`) and that the adapter puts it on every request it
//! sends, the repair retry's included.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};

use futures::future::BoxFuture;
use serde_json::json;

use super::*;
use crate::model::{ChatModel, DeltaStream};
use crate::structured::StructuredModel;
use crate::types::{ChatRequest, Delta, Message, ModelInfo};
use crate::{LlmError, collect};

fn tool(name: &str, parameters: Value) -> ToolDef {
    ToolDef {
        name: name.into(),
        description: format!("{name} tool"),
        parameters: parameters.into(),
    }
}

fn weather() -> ToolDef {
    tool(
        "get_weather",
        json!({"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}),
    )
}

fn plan() -> ToolDef {
    tool(
        "update_plan",
        json!({
            "type": "object",
            "properties": {
                "goal": {"type": "string"},
                "steps": {"type": "array", "maxItems": 20, "items": {
                    "type": "object",
                    "properties": {
                        "title": {"type": "string"},
                        "status": {"type": "string", "enum": ["pending", "in_progress", "done", "skipped"]}
                    },
                    "required": ["title", "status"]
                }}
            },
            "required": ["goal", "steps"]
        }),
    )
}

fn final_branch() -> Value {
    json!({
        "type": "object",
        "properties": {"type": {"const": "final_answer"}, "content": {"type": "string"}},
        "required": ["type", "content"]
    })
}

#[test]
fn one_branch_per_tool_then_the_final_answer_type_first() {
    let schema = action_schema(&[weather()]);
    assert_eq!(
        schema,
        json!({
            "type": "object",
            "properties": {"action": {"anyOf": [
                {
                    "type": "object",
                    "properties": {
                        "type": {"const": "get_weather"},
                        "arguments": weather().parameters
                    },
                    "required": ["type", "arguments"]
                },
                final_branch()
            ]}},
            "required": ["action"]
        })
    );
    // The order a constrained model writes: `type` before `arguments`.
    let text = schema.to_string();
    assert!(text.find("\"type\":{\"const\"").unwrap() < text.find("\"arguments\"").unwrap());
}

#[test]
fn without_tools_only_a_final_answer_fits() {
    let schema = action_schema(&[]);
    assert_eq!(schema["properties"]["action"], json!({"anyOf": [final_branch()]}));
}

#[test]
fn an_offered_plan_tool_allows_a_plan_update_before_the_action() {
    let schema = action_schema(&[weather(), plan()]);
    let [with_plan, action_only] = schema["anyOf"].as_array().unwrap().as_slice() else {
        panic!("{schema}")
    };
    let keys: Vec<_> = with_plan["properties"].as_object().unwrap().keys().cloned().collect();
    assert_eq!(keys, ["plan_update", "action"]);
    assert_eq!(with_plan["properties"]["plan_update"], *plan().parameters);
    assert_eq!(with_plan["required"], json!(["plan_update", "action"]));
    assert_eq!(action_only["required"], json!(["action"]));
    // update_plan stays a tool of its own too.
    let branches = action_only["properties"]["action"]["anyOf"].as_array().unwrap();
    assert_eq!(branches[1]["properties"]["type"]["const"], "update_plan");
    assert_eq!(with_plan["properties"]["action"], action_only["properties"]["action"]);
}

#[test]
fn a_tool_whose_schema_a_grammar_cannot_express_gets_any_object_and_the_others_keep_theirs() {
    let odd = [
        tool("by_ref", json!({"type": "object", "properties": {"x": {"$ref": "#/$defs/x"}}})),
        tool(
            "by_pattern",
            json!({"type": "object", "properties": {"d": {"type": "string", "pattern": "^\\d+$"}}}),
        ),
        tool("odd_type", json!({"type": "object", "properties": {"t": {"type": "date"}}})),
        tool("bad_enum", json!({"type": "object", "properties": {"e": {"enum": []}}})),
        tool("bad_count", json!({"type": "array", "maxItems": -1})),
        tool("not_object", json!({"type": "string"})),
        tool("not_a_schema", json!(true)),
    ];
    let mut tools = odd.to_vec();
    tools.push(weather());
    let schema = action_schema(&tools);
    let branches = schema["properties"]["action"]["anyOf"].as_array().unwrap();
    assert_eq!(branches.len(), odd.len() + 2);
    for (branch, t) in branches.iter().zip(&odd) {
        assert_eq!(branch["properties"]["type"]["const"], t.name.as_str());
        assert_eq!(branch["properties"]["arguments"], json!({"type": "object"}), "{}", t.name);
    }
    assert_eq!(branches[odd.len()]["properties"]["arguments"], *weather().parameters);
}

#[test]
fn common_schema_features_are_kept() {
    let rich = json!({
        "type": "object",
        "description": "annotations are fine",
        "properties": {
            "kind": {"type": "string", "enum": ["a", "b"]},
            "on": {"type": "boolean", "default": false},
            "n": {"type": ["integer", "null"], "minimum": 1, "maximum": 5},
            "tags": {"type": "array", "items": {"type": "string", "maxLength": 20}, "maxItems": 3},
            "when": {"type": "string", "format": "date"},
            "either": {"anyOf": [{"type": "string"}, {"type": "object", "additionalProperties": {"type": "number"}}]}
        },
        "required": ["kind"],
        "additionalProperties": false
    });
    let schema = action_schema(&[tool("rich", rich.clone())]);
    assert_eq!(schema["properties"]["action"]["anyOf"][0]["properties"]["arguments"], rich);
}

/// A model that answers with scripted texts and records what it was asked.
struct Recorder {
    replies: Mutex<VecDeque<String>>,
    requests: Mutex<Vec<ChatRequest>>,
}

impl ChatModel for Recorder {
    fn stream(&self, request: ChatRequest) -> DeltaStream {
        self.requests.lock().unwrap().push(request);
        let text = self.replies.lock().unwrap().pop_front().unwrap_or_default();
        Box::pin(futures::stream::iter([
            Ok(Delta::Text { text }),
            Ok(Delta::Finish { reason: Some("stop".into()) }),
        ]))
    }

    fn list_models(&self) -> BoxFuture<'_, Result<Vec<ModelInfo>, LlmError>> {
        Box::pin(async { Ok(Vec::new()) })
    }

    fn model_name(&self) -> &str {
        "recorder"
    }
}

#[tokio::test]
async fn every_request_of_a_round_carries_the_schema_the_repair_retry_too() {
    let inner = Arc::new(Recorder {
        replies: Mutex::new(
            [
                "not json at all",
                r#"{"action": {"type": "get_weather", "arguments": {"city": "Oslo"}}}"#,
            ]
            .map(String::from)
            .into(),
        ),
        requests: Mutex::new(Vec::new()),
    });
    let model = StructuredModel::new(inner.clone());
    let mut request = ChatRequest::new(vec![Message::user("weather in Oslo?")]);
    request.tools.push(weather());
    let (response, err) = collect(model.stream(request)).await;
    assert_eq!(err, None);
    assert_eq!(response.tool_calls[0].name, "get_weather");
    let requests = inner.requests.lock().unwrap();
    assert_eq!(requests.len(), 2, "the first answer and the repair retry");
    let expected = action_schema(&[weather()]);
    for r in requests.iter() {
        assert!(r.tools.is_empty());
        assert_eq!(r.params.response_schema.as_ref(), Some(&expected));
    }
}

#[tokio::test]
async fn a_request_without_tools_passes_through_without_a_schema() {
    let inner = Arc::new(Recorder {
        replies: Mutex::new(VecDeque::from(["Hello".to_string()])),
        requests: Mutex::new(Vec::new()),
    });
    let model = StructuredModel::new(inner.clone());
    let (response, _) = collect(model.stream(ChatRequest::new(vec![Message::user("hi")]))).await;
    assert_eq!(response.text, "Hello");
    assert_eq!(inner.requests.lock().unwrap()[0].params.response_schema, None);
}
