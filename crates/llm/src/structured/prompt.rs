//! Structured-action mode, prompt side: how tools, earlier tool calls and tool results are
//! put into plain chat messages for a model without native tool calling (an unusable reply
//! is shown as it was sent, its observation as what was wrong), and the repair message
//! after a malformed answer. Parsing the answer belongs to `answer.rs`.

use serde_json::{Value, json};

use super::UNUSABLE_REPLY;
use super::answer::PLAN_TOOL;
use crate::types::{ChatRequest, Message, ToolCall, ToolDef};

/// The protocol the model must follow, appended to the system prompt.
pub(crate) fn protocol(tools: &[ToolDef]) -> String {
    let mut out = String::from(
        "\n\n## How to answer\n\
         You cannot call tools directly. Every reply must be exactly one JSON object and nothing else \
         (no Markdown fences, no text before or after it), in one of these two shapes:\n\
         1. To use a tool: {\"action\": {\"type\": \"<tool name>\", \"arguments\": {<arguments matching the tool's schema>}}}\n\
         2. To answer the user: {\"action\": {\"type\": \"final_answer\", \"content\": \"...\"}}, where \"content\" is your whole reply to the user (Markdown allowed), never a placeholder.\n\
         Use at most one tool per reply; its result comes back in the next message as an observation.\n",
    );
    if tools.iter().any(|t| t.name == PLAN_TOOL) {
        out.push_str(
            "To show or update your plan, add \"plan_update\": {\"goal\": \"...\", \"steps\": [{\"title\": \"...\", \"status\": \"pending|in_progress|done|skipped\"}]} \
             before \"action\", best together with a tool action (it replaces the whole plan).\n",
        );
    }
    out.push_str("\n## Tools\n");
    for t in tools {
        out.push_str(&format!(
            "- {}: {}\n  arguments schema: {}\n",
            t.name,
            if t.description.is_empty() { "(no description)" } else { &t.description },
            t.parameters
        ));
    }
    out
}

/// The JSON an earlier tool call is shown as in the history; an [`UNUSABLE_REPLY`] call is
/// shown as the reply the model actually sent.
pub(crate) fn call_json(call: &ToolCall) -> String {
    if call.name == UNUSABLE_REPLY {
        let args = serde_json::from_str::<Value>(&call.arguments).unwrap_or(Value::Null);
        return args["reply"].as_str().unwrap_or_default().to_string();
    }
    let arguments = serde_json::from_str::<Value>(&call.arguments)
        .unwrap_or(Value::String(call.arguments.clone()));
    json!({"action": {"type": call.name, "arguments": arguments}}).to_string()
}

/// Rewrite a request with tools into one without: protocol in the system prompt, tool
/// calls as action JSON, tool results as observation messages.
pub(crate) fn rewrite(request: &ChatRequest) -> ChatRequest {
    let protocol = protocol(&request.tools);
    let mut messages = Vec::with_capacity(request.messages.len() + 1);
    let mut calls: Vec<&ToolCall> = Vec::new();
    let mut has_system = false;
    for m in &request.messages {
        match m {
            Message::System { content } if !has_system => {
                has_system = true;
                messages.push(Message::system(format!("{content}{protocol}")));
            }
            Message::Assistant { content, tool_calls } if !tool_calls.is_empty() => {
                let plan_only = tool_calls.iter().all(|c| c.name == PLAN_TOOL);
                if plan_only && !content.is_empty() {
                    // A final answer that came with a plan update: shown as the model sent it.
                    let answer = json!({"action": {"type": "final_answer", "content": content}});
                    messages.push(Message::assistant(answer.to_string(), Vec::new()));
                }
                for call in tool_calls {
                    calls.push(call);
                    messages.push(Message::assistant(call_json(call), Vec::new()));
                }
                // Other text beside native calls has no place in the protocol.
            }
            Message::Assistant { content, .. } => {
                let answer = json!({"action": {"type": "final_answer", "content": content}});
                messages.push(Message::assistant(answer.to_string(), Vec::new()));
            }
            Message::Tool { tool_call_id, content } => {
                let name = calls
                    .iter()
                    .find(|c| &c.id == tool_call_id)
                    .map_or("the tool", |c| c.name.as_str());
                let text = if name == UNUSABLE_REPLY {
                    format!("Your previous reply could not be used:\n{content}")
                } else {
                    format!("Observation from {name}:\n{content}")
                };
                messages.push(Message::user(text));
            }
            other => messages.push(other.clone()),
        }
    }
    if !has_system {
        messages.insert(0, Message::system(protocol.trim_start().to_string()));
    }
    ChatRequest { messages, tools: Vec::new(), params: request.params.clone() }
}

/// After a malformed answer: show the model what it sent and what was wrong.
pub(crate) fn repair(mut request: ChatRequest, raw: &str, problem: &str) -> ChatRequest {
    request.messages.push(Message::assistant(raw.to_string(), Vec::new()));
    request.messages.push(Message::user(format!(
        "Your previous reply could not be used: {problem}. Reply again with exactly one JSON object \
         of the form {{\"action\": {{\"type\": ..., ...}}}} as described in the instructions, and nothing else."
    )));
    request
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tools_move_into_the_prompt_and_results_become_observations() {
        let mut req = ChatRequest::new(vec![
            Message::system("You are a coach."),
            Message::user("weather?"),
            Message::assistant(
                "",
                vec![ToolCall {
                    id: "c1".into(),
                    name: "get_weather".into(),
                    arguments: "{\"city\":\"Berlin\"}".into(),
                }],
            ),
            Message::tool("c1", "sunny"),
        ]);
        req.tools.push(ToolDef {
            name: "get_weather".into(),
            description: "Weather now".into(),
            parameters: json!({"type": "object"}).into(),
        });
        let out = rewrite(&req);
        assert!(out.tools.is_empty());
        let Message::System { content } = &out.messages[0] else { panic!() };
        assert!(content.starts_with("You are a coach."));
        assert!(content.contains("- get_weather: Weather now"));
        assert_eq!(
            out.messages[2],
            Message::assistant(
                "{\"action\":{\"type\":\"get_weather\",\"arguments\":{\"city\":\"Berlin\"}}}",
                vec![]
            )
        );
        assert_eq!(out.messages[3], Message::user("Observation from get_weather:\nsunny"));
    }
}
