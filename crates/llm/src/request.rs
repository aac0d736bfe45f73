//! Encoding a [`ChatRequest`] as an OpenAI `POST /chat/completions` body (streaming); a
//! response schema becomes `response_format` only for presets known to honour it.
//! Sending it, timeouts and retries belong to `client.rs`.

use serde_json::{Map, Value, json};

use crate::settings::Endpoint;
use crate::types::{ChatRequest, Message};

pub(crate) fn chat_body(endpoint: &Endpoint, request: &ChatRequest) -> Value {
    let mut body = Map::new();
    if let Some(model) = &endpoint.model {
        body.insert("model".into(), json!(model));
    }
    body.insert(
        "messages".into(),
        Value::Array(request.messages.iter().map(message_json).collect()),
    );
    body.insert("stream".into(), json!(true));
    if endpoint.include_usage {
        body.insert("stream_options".into(), json!({"include_usage": true}));
    }
    if !request.tools.is_empty() {
        let tools = request
            .tools
            .iter()
            .map(|t| {
                json!({"type": "function", "function": {
                    "name": t.name, "description": t.description, "parameters": t.parameters,
                }})
            })
            .collect();
        body.insert("tools".into(), Value::Array(tools));
    }
    let p = &request.params;
    if let Some(t) = p.temperature.or(endpoint.temperature) {
        body.insert("temperature".into(), json!(t));
    }
    if let Some(t) = p.top_p {
        body.insert("top_p".into(), json!(t));
    }
    if let Some(n) = p.max_tokens.or(endpoint.max_tokens) {
        body.insert("max_tokens".into(), json!(n));
    }
    if !p.stop.is_empty() {
        body.insert("stop".into(), json!(p.stop));
    }
    if let Some(seed) = p.seed {
        body.insert("seed".into(), json!(seed));
    }
    if let Some(schema) = p.response_schema.as_ref().filter(|_| endpoint.preset.json_schema_output)
    {
        body.insert(
            "response_format".into(),
            json!({"type": "json_schema", "json_schema": {"name": "action", "schema": schema}}),
        );
    }
    Value::Object(body)
}

fn message_json(message: &Message) -> Value {
    match message {
        Message::System { content } => json!({"role": "system", "content": content}),
        Message::User { content } => json!({"role": "user", "content": content}),
        Message::Assistant { content, tool_calls } if tool_calls.is_empty() => {
            json!({"role": "assistant", "content": content})
        }
        Message::Assistant { content, tool_calls } => json!({
            "role": "assistant",
            "content": content,
            "tool_calls": tool_calls.iter().map(|c| json!({
                "id": c.id, "type": "function",
                "function": {"name": c.name, "arguments": c.history_arguments()},
            })).collect::<Vec<_>>(),
        }),
        Message::Tool { tool_call_id, content } => {
            json!({"role": "tool", "tool_call_id": tool_call_id, "content": content})
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::settings::{LlmSettings, LlmSettingsExt};
    use crate::types::{ToolCall, ToolDef};

    #[test]
    fn body_carries_tools_history_and_usage_option() {
        let endpoint =
            LlmSettings { model: Some("m".into()), ..LlmSettings::default() }.resolve().unwrap();
        let mut req = ChatRequest::new(vec![
            Message::user("hi"),
            Message::assistant(
                "",
                vec![ToolCall { id: "c1".into(), name: "f".into(), arguments: "{}".into() }],
            ),
            Message::tool("c1", "ok"),
        ]);
        req.tools.push(ToolDef {
            name: "f".into(),
            description: "d".into(),
            parameters: json!({"type": "object"}).into(),
        });
        let body = chat_body(&endpoint, &req);
        assert_eq!(body["model"], "m");
        assert_eq!(body["stream"], true);
        assert_eq!(body["stream_options"]["include_usage"], true);
        assert_eq!(body["messages"][1]["tool_calls"][0]["function"]["name"], "f");
        assert_eq!(body["messages"][2]["tool_call_id"], "c1");
        assert_eq!(body["tools"][0]["function"]["parameters"]["type"], "object");
    }

    #[test]
    fn arguments_that_are_not_a_json_object_are_never_sent_back_raw() {
        let endpoint =
            LlmSettings { model: Some("m".into()), ..LlmSettings::default() }.resolve().unwrap();
        let call = |id: &str, arguments: &str| ToolCall {
            id: id.into(),
            name: "f".into(),
            arguments: arguments.into(),
        };
        let req = ChatRequest::new(vec![Message::assistant(
            "",
            vec![call("a", "{\"x\":1}{\"y\":2}"), call("b", "[1]"), call("c", "{\"ok\":true}")],
        )]);
        let body = chat_body(&endpoint, &req);
        let sent: Vec<_> = (0..3)
            .map(|i| body["messages"][0]["tool_calls"][i]["function"]["arguments"].clone())
            .collect();
        assert_eq!(sent, [json!("{}"), json!("{}"), json!("{\"ok\":true}")]);
    }

    #[test]
    fn a_response_schema_is_sent_only_to_presets_that_honour_it() {
        let schema = json!({"type": "object", "properties": {"action": {"type": "object"}}});
        let mut req = ChatRequest::new(vec![Message::user("hi")]);
        req.params.response_schema = Some(schema.clone());
        let body_of = |preset: &str, req: &ChatRequest| {
            let settings = LlmSettings {
                preset: Some(preset.into()),
                base_url: Some("http://127.0.0.1:9/v1".into()),
                model: Some("m".into()),
                ..LlmSettings::default()
            };
            chat_body(&settings.resolve().unwrap(), req)
        };
        let body = |preset: &str| body_of(preset, &req);
        for preset in ["llamacpp", "lmstudio", "ollama"] {
            assert_eq!(
                body(preset)["response_format"],
                json!({"type": "json_schema", "json_schema": {"name": "action", "schema": schema}}),
                "{preset}"
            );
        }
        for preset in ["custom", "openai", "vllm", "deepseek", "openrouter"] {
            assert!(body(preset).get("response_format").is_none(), "{preset}");
        }
        let without = ChatRequest::new(vec![Message::user("hi")]);
        assert!(body_of("llamacpp", &without).get("response_format").is_none());
    }
}
