//! Turning OpenAI chat-completion chunks into typed deltas: text, reasoning (kept apart),
//! and tool calls reassembled by `index` — id and name may come only in the first
//! fragment, arguments in many, calls may interleave or arrive whole, ids may be missing
//! (then `call_<n>`), and several calls may share one index (Ollama sends every call of a
//! reply at `index: 0`). SSE framing and `[DONE]`/error handling belong to `decode.rs`.

use serde_json::Value;

use crate::errors::LlmError;
use crate::types::{Delta, TokenUsage};

#[derive(Debug)]
struct Call {
    /// The server's `index` (or a synthetic key when it sent none).
    key: u64,
    id: String,
    /// Whether `id` is the server's (not a `call_<n>` we made up).
    server_id: bool,
    name: Option<String>,
    started: bool,
    pending_args: String,
    /// Every argument fragment so far, to tell whether the arguments are complete.
    args: String,
}

impl Call {
    /// A fragment with this id and name at this call's index begins another call: a new
    /// non-empty id, or a name arriving after the arguments already form a whole JSON value
    /// (a server repeating the same name with no arguments is not a new call).
    fn is_followed_by(&self, id: Option<&str>, name: Option<&str>, args: &str) -> bool {
        if let Some(id) = id
            && self.server_id
            && id != self.id
        {
            return true;
        }
        match (name, &self.name) {
            (Some(new), Some(old)) => {
                (new != old || !args.is_empty())
                    && serde_json::from_str::<serde::de::IgnoredAny>(&self.args).is_ok()
            }
            _ => false,
        }
    }
}

#[derive(Debug, Default)]
pub(crate) struct Reassembler {
    id_base: usize,
    calls: Vec<Call>,
    synthetic: u64,
    /// The last non-empty finish reason, verbatim.
    pub finish_reason: Option<String>,
}

const SYNTHETIC_BASE: u64 = 1 << 40;

impl Reassembler {
    /// `id_base`: tool calls already in the conversation; missing ids start at `call_<id_base>`.
    pub fn new(id_base: usize) -> Self {
        Self { id_base, ..Self::default() }
    }

    /// Process one parsed chunk (`{"choices": [...], "usage": ...}`).
    pub fn chunk(&mut self, chunk: &Value, out: &mut Vec<Delta>) {
        // Only the first choice is used (we never ask for n > 1).
        let choice = chunk.get("choices").and_then(Value::as_array).and_then(|choices| {
            choices.iter().find(|c| c.get("index").and_then(Value::as_u64).unwrap_or(0) == 0)
        });
        if let Some(choice) = choice {
            self.choice(choice, out);
        }
        // Usage at the top level (OpenAI) or inside the choice (Moonshot/Kimi).
        let usage = [chunk.get("usage"), choice.and_then(|c| c.get("usage"))]
            .into_iter()
            .flatten()
            .find(|u| u.is_object());
        if let Some(usage) = usage {
            out.push(Delta::Usage { usage: parse_usage(usage) });
        }
    }

    fn choice(&mut self, choice: &Value, out: &mut Vec<Delta>) {
        if let Some(delta) = choice.get("delta").or_else(|| choice.get("message")) {
            for field in ["reasoning_content", "reasoning"] {
                if let Some(text) =
                    delta.get(field).and_then(Value::as_str).filter(|t| !t.is_empty())
                {
                    out.push(Delta::Reasoning { text: text.to_string() });
                    break;
                }
            }
            if let Some(text) =
                delta.get("content").and_then(Value::as_str).filter(|t| !t.is_empty())
            {
                out.push(Delta::Text { text: text.to_string() });
            }
            if let Some(calls) = delta.get("tool_calls").and_then(Value::as_array) {
                for call in calls {
                    self.fragment(call, out);
                }
            }
        }
        if let Some(reason) =
            choice.get("finish_reason").and_then(Value::as_str).filter(|r| !r.is_empty())
        {
            self.finish_reason = Some(reason.to_string());
        }
    }

    fn fragment(&mut self, item: &Value, out: &mut Vec<Delta>) {
        let id = item.get("id").and_then(Value::as_str).filter(|s| !s.is_empty());
        let function = item.get("function");
        let name =
            function.and_then(|f| f.get("name")).and_then(Value::as_str).filter(|s| !s.is_empty());
        let args = match function.and_then(|f| f.get("arguments")) {
            Some(Value::String(s)) => s.clone(),
            Some(Value::Null) | None => String::new(),
            Some(other) => other.to_string(),
        };
        let key = match item.get("index").and_then(Value::as_u64) {
            Some(i) => i,
            None => self.key_without_index(id, name),
        };
        let pos = match self.calls.iter().rposition(|c| c.key == key) {
            Some(pos) if !self.calls[pos].is_followed_by(id, name, &args) => pos,
            _ => {
                let n = self.id_base + self.calls.len();
                self.calls.push(Call {
                    key,
                    id: id.map_or_else(|| format!("call_{n}"), str::to_string),
                    server_id: id.is_some(),
                    name: None,
                    started: false,
                    pending_args: String::new(),
                    args: String::new(),
                });
                self.calls.len() - 1
            }
        };
        let call = &mut self.calls[pos];
        call.args.push_str(&args);
        if call.name.is_none() {
            call.name = name.map(str::to_string);
        }
        if !call.started
            && let Some(name) = &call.name
        {
            call.started = true;
            out.push(Delta::ToolCallStart { index: pos, id: call.id.clone(), name: name.clone() });
            if !call.pending_args.is_empty() {
                out.push(Delta::ToolCallArgs {
                    index: pos,
                    fragment: std::mem::take(&mut call.pending_args),
                });
            }
        }
        if !args.is_empty() {
            if call.started {
                out.push(Delta::ToolCallArgs { index: pos, fragment: args });
            } else {
                call.pending_args.push_str(&args);
            }
        }
    }

    /// Servers that omit `index`: a fragment with a new id or a name starts a new call,
    /// anything else continues the last one.
    fn key_without_index(&mut self, id: Option<&str>, name: Option<&str>) -> u64 {
        if let Some(id) = id
            && let Some(c) = self.calls.iter().find(|c| c.id == id)
        {
            return c.key;
        }
        match self.calls.last() {
            Some(last) if id.is_none() && name.is_none() => last.key,
            _ => {
                self.synthetic += 1;
                SYNTHETIC_BASE + self.synthetic
            }
        }
    }

    /// The stream ended: every call must have had a name.
    pub fn finish(&self) -> Result<(), LlmError> {
        match self.calls.iter().find(|c| !c.started) {
            Some(c) => Err(LlmError::protocol(format!(
                "the server streamed tool call {} without a function name; the model's tool-call output is unusable (try another model or tool_mode \"structured\")",
                c.id
            ))),
            None => Ok(()),
        }
    }
}

pub(crate) fn parse_usage(usage: &Value) -> TokenUsage {
    let n = |k: &str| usage.get(k).and_then(Value::as_u64).unwrap_or(0);
    let (prompt, completion) = (n("prompt_tokens"), n("completion_tokens"));
    let total = usage.get("total_tokens").and_then(Value::as_u64).unwrap_or(prompt + completion);
    TokenUsage { prompt_tokens: prompt, completion_tokens: completion, total_tokens: total }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn run(chunks: &[Value]) -> Vec<Delta> {
        let mut r = Reassembler::new(0);
        let mut out = Vec::new();
        for c in chunks {
            r.chunk(c, &mut out);
        }
        out
    }

    fn tc(v: Value) -> Value {
        json!({"choices": [{"index": 0, "delta": {"tool_calls": [v]}}]})
    }

    #[test]
    fn id_and_name_only_in_first_fragment() {
        let out = run(&[
            tc(json!({"index": 0, "id": "c1", "function": {"name": "f", "arguments": ""}})),
            tc(json!({"index": 0, "function": {"arguments": "{\"a\""}})),
            tc(json!({"index": 0, "function": {"arguments": ":1}"}})),
        ]);
        assert_eq!(out[0], Delta::ToolCallStart { index: 0, id: "c1".into(), name: "f".into() });
        assert_eq!(out.len(), 3);
    }

    #[test]
    fn missing_or_empty_ids_get_stable_numbers_after_prior_calls() {
        let mut r = Reassembler::new(4);
        let mut out = Vec::new();
        r.chunk(
            &tc(json!({"index": 0, "id": "", "function": {"name": "f", "arguments": "{}"}})),
            &mut out,
        );
        r.chunk(&tc(json!({"index": 1, "function": {"name": "g", "arguments": "{}"}})), &mut out);
        let ids: Vec<_> = out
            .iter()
            .filter_map(|d| match d {
                Delta::ToolCallStart { id, .. } => Some(id.clone()),
                _ => None,
            })
            .collect();
        assert_eq!(ids, ["call_4", "call_5"]);
    }

    #[test]
    fn args_before_the_name_are_held_back() {
        let out = run(&[
            tc(json!({"index": 0, "id": "x", "function": {"arguments": "{\"a\":"}})),
            tc(json!({"index": 0, "function": {"name": "f", "arguments": "2}"}})),
        ]);
        assert_eq!(out[0], Delta::ToolCallStart { index: 0, id: "x".into(), name: "f".into() });
        assert_eq!(out[1], Delta::ToolCallArgs { index: 0, fragment: "{\"a\":".into() });
        assert_eq!(out[2], Delta::ToolCallArgs { index: 0, fragment: "2}".into() });
    }

    #[test]
    fn object_arguments_and_missing_index_are_accepted() {
        let out = run(&[
            tc(json!({"id": "a", "function": {"name": "f", "arguments": {"k": 1}}})),
            tc(json!({"id": "b", "function": {"name": "g", "arguments": "{"}})),
            tc(json!({"function": {"arguments": "}"}})),
        ]);
        assert_eq!(out[1], Delta::ToolCallArgs { index: 0, fragment: "{\"k\":1}".into() });
        assert_eq!(out[4], Delta::ToolCallArgs { index: 1, fragment: "}".into() });
    }

    #[test]
    fn reasoning_is_kept_apart_and_finish_reason_is_verbatim() {
        let mut r = Reassembler::new(0);
        let mut out = Vec::new();
        r.chunk(&json!({"choices": [{"index": 0, "delta": {"reasoning_content": "hmm", "content": ""}}]}), &mut out);
        r.chunk(&json!({"choices": [{"index": 0, "delta": {"reasoning": "more"}}]}), &mut out);
        r.chunk(&json!({"choices": [{"index": 0, "delta": {"content": "hi"}, "finish_reason": "Stop_Custom"}]}), &mut out);
        r.chunk(&json!({"choices": [{"index": 0, "delta": {}, "finish_reason": ""}]}), &mut out);
        assert_eq!(out[0], Delta::Reasoning { text: "hmm".into() });
        assert_eq!(out[1], Delta::Reasoning { text: "more".into() });
        assert_eq!(out[2], Delta::Text { text: "hi".into() });
        assert_eq!(r.finish_reason.as_deref(), Some("Stop_Custom"));
    }

    fn calls(out: &[Delta]) -> Vec<(usize, String, String)> {
        let mut acc = crate::collect::Accumulator::default();
        for d in out {
            acc.push(d);
        }
        acc.into_response()
            .tool_calls
            .into_iter()
            .enumerate()
            .map(|(i, c)| (i, c.id, format!("{}{}", c.name, c.arguments)))
            .collect()
    }

    #[test]
    fn calls_sharing_index_0_with_their_own_ids_stay_apart() {
        // Ollama: every call of the reply at index 0, whole or split.
        let out = run(&[
            json!({"choices": [{"index": 0, "delta": {"tool_calls": [
                {"index": 0, "id": "call_a", "function": {"name": "f", "arguments": "{\"x\":1}"}},
                {"index": 0, "id": "call_b", "function": {"name": "g", "arguments": "{\"y\""}},
            ]}}]}),
            tc(json!({"index": 0, "function": {"arguments": ":2}"}})),
        ]);
        assert_eq!(
            calls(&out),
            [(0, "call_a".into(), "f{\"x\":1}".into()), (1, "call_b".into(), "g{\"y\":2}".into())]
        );
    }

    #[test]
    fn a_name_after_complete_arguments_starts_a_call_even_without_ids() {
        let out = run(&[
            tc(json!({"index": 0, "function": {"name": "f", "arguments": "{\"a\":"}})),
            tc(json!({"index": 0, "function": {"arguments": "1}"}})),
            tc(json!({"index": 0, "function": {"name": "f", "arguments": "{}"}})),
            // The same name repeated with nothing new is not another call.
            tc(json!({"index": 0, "function": {"name": "f", "arguments": ""}})),
        ]);
        assert_eq!(
            calls(&out),
            [(0, "call_0".into(), "f{\"a\":1}".into()), (1, "call_1".into(), "f{}".into())]
        );
    }

    #[test]
    fn a_repeated_id_or_name_mid_arguments_continues_the_call() {
        let out = run(&[
            tc(json!({"index": 0, "id": "c1", "function": {"name": "f", "arguments": "{\"a\":"}})),
            tc(json!({"index": 0, "id": "c1", "function": {"name": "f", "arguments": "2}"}})),
        ]);
        assert_eq!(calls(&out), [(0, "c1".into(), "f{\"a\":2}".into())]);
    }

    #[test]
    fn usage_inside_the_choice_is_read_once() {
        let u = json!({"prompt_tokens": 9, "completion_tokens": 1, "total_tokens": 10});
        let out = run(&[
            json!({"choices": [{"index": 0, "delta": {}, "finish_reason": "stop", "usage": u}]}),
            json!({"choices": [{"index": 0, "delta": {}, "usage": u}], "usage": u}),
        ]);
        let usage = TokenUsage { prompt_tokens: 9, completion_tokens: 1, total_tokens: 10 };
        assert_eq!(out, [Delta::Usage { usage }, Delta::Usage { usage }]);
    }

    #[test]
    fn a_call_that_never_got_a_name_is_a_protocol_error() {
        let mut r = Reassembler::new(0);
        let mut out = Vec::new();
        r.chunk(&tc(json!({"index": 0, "function": {"arguments": "{}"}})), &mut out);
        assert_eq!(r.finish().map_err(|e| e.kind().as_str()), Err("protocol"));
    }
}
