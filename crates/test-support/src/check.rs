//! Conversation checks on captured request bodies: every tool result message answers a
//! tool call made by an earlier assistant message of the same request.

use serde_json::Value;

/// `Ok` when every `role: tool` message's `tool_call_id` names a call of an earlier
/// assistant message; otherwise a description of the first orphan.
pub fn check_tool_pairs(body: &Value) -> Result<(), String> {
    let Some(messages) = body.get("messages").and_then(Value::as_array) else {
        return Err("request body has no messages array".into());
    };
    let mut calls: Vec<&str> = Vec::new();
    for (i, m) in messages.iter().enumerate() {
        match m.get("role").and_then(Value::as_str) {
            Some("assistant") => {
                for call in m.get("tool_calls").and_then(Value::as_array).into_iter().flatten() {
                    if let Some(id) = call.get("id").and_then(Value::as_str) {
                        calls.push(id);
                    }
                }
            }
            Some("tool") => {
                let id = m.get("tool_call_id").and_then(Value::as_str).unwrap_or("");
                if !calls.contains(&id) {
                    return Err(format!(
                        "message {i} is a tool result for {id:?}, but no earlier assistant message made that call"
                    ));
                }
            }
            _ => {}
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn orphan_tool_results_are_reported() {
        let ok = json!({"messages": [
            {"role": "assistant", "content": "", "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "f", "arguments": "{}"}}]},
            {"role": "tool", "tool_call_id": "c1", "content": "r"},
        ]});
        assert_eq!(check_tool_pairs(&ok), Ok(()));
        let bad = json!({"messages": [{"role": "tool", "tool_call_id": "c9", "content": "r"}]});
        assert!(check_tool_pairs(&bad).unwrap_err().contains("c9"));
    }
}
