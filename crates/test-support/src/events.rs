//! Builders for OpenAI `chat.completion.chunk` events and their SSE framing, so tests read
//! like `sse(vec![ev_text("Hel"), ev_text("lo"), ev_finish("stop")])`.

use serde_json::{Value, json};

/// A chunk with one choice carrying `delta` (and `finish_reason: null`).
pub fn chunk(delta: Value) -> Value {
    json!({
        "id": "chatcmpl-fake", "object": "chat.completion.chunk", "created": 0, "model": "fake",
        "choices": [{"index": 0, "delta": delta, "finish_reason": null}],
    })
}

/// The role-only first chunk many servers send.
pub fn ev_role() -> Value {
    chunk(json!({"role": "assistant", "content": ""}))
}

pub fn ev_text(text: &str) -> Value {
    chunk(json!({"content": text}))
}

/// Reasoning in DeepSeek/Qwen style (`reasoning_content`).
pub fn ev_reasoning(text: &str) -> Value {
    chunk(json!({"reasoning_content": text}))
}

/// The first fragment of a tool call (or a whole call when `arguments` is complete).
pub fn ev_tool_call(index: u64, id: &str, name: &str, arguments: &str) -> Value {
    chunk(json!({"tool_calls": [{
        "index": index, "id": id, "type": "function",
        "function": {"name": name, "arguments": arguments},
    }]}))
}

/// Several whole tool calls in one chunk, every one at `index: 0` with its own id, as
/// Ollama's OpenAI-compatible endpoint sends parallel calls. Items: `(id, name, arguments)`.
pub fn ev_tool_calls_at_index_0(calls: &[(&str, &str, &str)]) -> Value {
    let items: Vec<Value> = calls
        .iter()
        .map(|(id, name, arguments)| {
            json!({"index": 0, "id": id, "type": "function",
                   "function": {"name": name, "arguments": arguments}})
        })
        .collect();
    chunk(json!({"tool_calls": items}))
}

/// A later fragment of the arguments of the call at `index`.
pub fn ev_tool_args(index: u64, fragment: &str) -> Value {
    chunk(json!({"tool_calls": [{"index": index, "function": {"arguments": fragment}}]}))
}

/// The chunk that carries the finish reason.
pub fn ev_finish(reason: &str) -> Value {
    json!({
        "id": "chatcmpl-fake", "object": "chat.completion.chunk", "created": 0, "model": "fake",
        "choices": [{"index": 0, "delta": {}, "finish_reason": reason}],
    })
}

/// The usage chunk (`choices: []`) sent with `stream_options.include_usage`.
pub fn ev_usage(prompt: u64, completion: u64) -> Value {
    json!({
        "id": "chatcmpl-fake", "object": "chat.completion.chunk", "created": 0, "model": "fake",
        "choices": [],
        "usage": {"prompt_tokens": prompt, "completion_tokens": completion, "total_tokens": prompt + completion},
    })
}

/// The last chunk as Moonshot/Kimi sends it: the finish reason with the usage inside
/// `choices[0].usage` (not at the top level).
pub fn ev_finish_usage_in_choice(reason: &str, prompt: u64, completion: u64) -> Value {
    json!({
        "id": "chatcmpl-fake", "object": "chat.completion.chunk", "created": 0, "model": "fake",
        "choices": [{"index": 0, "delta": {}, "finish_reason": reason,
            "usage": {"prompt_tokens": prompt, "completion_tokens": completion, "total_tokens": prompt + completion}}],
    })
}

/// An error object sent as a data event mid-stream.
pub fn ev_error(message: &str) -> Value {
    json!({"error": {"message": message, "type": "server_error"}})
}

/// Frame events as `data: {json}\n\n` and end with `data: [DONE]\n\n`.
pub fn sse(events: Vec<Value>) -> String {
    let mut out = sse_frame(events);
    out.push_str("data: [DONE]\n\n");
    out
}

/// Frame events without the closing `[DONE]` (a cut stream).
pub fn sse_frame(events: Vec<Value>) -> String {
    events.iter().map(|e| format!("data: {e}\n\n")).collect()
}

/// An error sent the way some llama.cpp server builds did: a non-standard `error:` SSE field
/// (not `data:`), framed as its own event; the stream usually goes on with `data: [DONE]`.
pub fn sse_error_field(error: &Value) -> String {
    format!("error: {error}\n\n")
}
