//! The scripted model's YAML format: ordered or matched responses, each with reasoning,
//! text, tool calls, an error, chunking and delays. Loading and validating a file lives
//! here; playing a response as deltas lives in `play.rs`.

use std::path::Path;

use serde::Deserialize;
use serde_json::Value;

use crate::errors::LlmError;
use crate::types::TokenUsage;

#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub(crate) enum Order {
    /// Responses in order, one per request.
    #[default]
    Ordered,
    /// The first response whose `when` matches the request.
    Matched,
}

#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub(crate) struct Script {
    /// Model name reported by `list_models` and in logs.
    pub model: Option<String>,
    pub mode: Order,
    /// Default characters per text/reasoning/arguments delta (0: one delta each).
    pub chunk_chars: usize,
    /// Default pause before each delta, in milliseconds.
    pub delay_ms: u64,
    pub responses: Vec<Response>,
}

#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub(crate) struct When {
    /// Substring of the last user message.
    pub user: Option<String>,
    /// Substring of the tool result the request ends with.
    pub tool_result: Option<String>,
}

#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub(crate) struct Response {
    pub when: Option<When>,
    pub reasoning: Option<String>,
    pub text: Option<String>,
    pub tool_calls: Vec<ScriptedCall>,
    /// Ends the answer with this error (after any text/reasoning above).
    pub error: Option<ScriptedError>,
    /// Default: `tool_calls` when there are calls, else `stop`.
    pub finish_reason: Option<String>,
    pub usage: Option<TokenUsage>,
    pub chunk_chars: Option<usize>,
    pub delay_ms: Option<u64>,
    /// Text already split into deltas (replay keeps the recorded chunking).
    #[serde(skip)]
    pub text_chunks: Vec<String>,
    #[serde(skip)]
    pub reasoning_chunks: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ScriptedCall {
    pub name: String,
    /// An object (sent as its JSON text) or a raw string (sent verbatim, may be invalid).
    #[serde(default = "empty_object")]
    pub arguments: Value,
    pub id: Option<String>,
}

fn empty_object() -> Value {
    Value::Object(serde_json::Map::new())
}

#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ScriptedError {
    /// One of the error kinds: auth, rate_limited, server, bad_request, network, timeout,
    /// protocol, truncated.
    pub kind: String,
    #[serde(default)]
    pub message: Option<String>,
    #[serde(default)]
    pub retry_after_s: Option<u64>,
}

impl ScriptedError {
    pub fn to_error(&self) -> LlmError {
        let message =
            self.message.clone().unwrap_or_else(|| format!("scripted {} error", self.kind));
        let retry_after = self.retry_after_s.map(std::time::Duration::from_secs);
        match self.kind.as_str() {
            "auth" => LlmError::Auth { status: 401, message },
            "rate_limited" => LlmError::RateLimited { message, retry_after },
            "server" => LlmError::Server { status: Some(500), message, retry_after },
            "bad_request" => LlmError::BadRequest { status: 400, message },
            "network" => LlmError::Network { message },
            "timeout" => LlmError::Timeout { message },
            "truncated" => LlmError::Truncated { message },
            _ => LlmError::Protocol { message },
        }
    }
}

const KINDS: &[&str] = &[
    "auth",
    "rate_limited",
    "server",
    "bad_request",
    "network",
    "timeout",
    "protocol",
    "truncated",
];

impl Script {
    pub fn load(path: &Path) -> Result<Self, LlmError> {
        let text = super::read_script_file(path, "the model script").map_err(|e| {
            LlmError::config(format!(
                "{e} (base URL scripted:PATH names a YAML script or an events.jsonl)"
            ))
        })?;
        Self::parse(&text, &path.display().to_string())
    }

    pub fn parse(text: &str, source: &str) -> Result<Self, LlmError> {
        let script: Script = serde_yaml_ng::from_str(text).map_err(|e| {
            let at =
                e.location().map(|l| format!(":{}:{}", l.line(), l.column())).unwrap_or_default();
            LlmError::config(format!(
                "{source}{at}: invalid model script: {e} (see docs/llm.md, \"Scripted model\")"
            ))
        })?;
        script.validate(source)?;
        Ok(script)
    }

    fn validate(&self, source: &str) -> Result<(), LlmError> {
        if self.responses.is_empty() {
            return Err(LlmError::config(format!(
                "{source}: the model script has no responses; add at least one under `responses:`"
            )));
        }
        for (i, r) in self.responses.iter().enumerate() {
            if let Some(e) = &r.error
                && !KINDS.contains(&e.kind.as_str())
            {
                return Err(LlmError::config(format!(
                    "{source}: responses[{i}].error.kind {:?} is unknown; use one of {}",
                    e.kind,
                    KINDS.join(", ")
                )));
            }
            if let Some(c) = r.tool_calls.iter().find(|c| c.name.trim().is_empty()) {
                return Err(LlmError::config(format!(
                    "{source}: responses[{i}] has a tool call without a name ({c:?})"
                )));
            }
            if self.mode == Order::Ordered && r.when.is_some() {
                return Err(LlmError::config(format!(
                    "{source}: responses[{i}] has `when`, which only applies with `mode: matched`"
                )));
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_full_script_parses() {
        let s = Script::parse(
            "model: demo\nmode: matched\nchunk_chars: 2\nresponses:\n  - when: {user: 天气}\n    reasoning: hmm\n    tool_calls:\n      - name: get_weather\n        arguments: {city: Berlin}\n  - text: hello\n    delay_ms: 5\n    error: {kind: rate_limited, retry_after_s: 3}\n",
            "t.yaml",
        )
        .unwrap();
        assert_eq!(s.mode, Order::Matched);
        assert_eq!(s.responses[0].tool_calls[0].arguments["city"], "Berlin");
        assert_eq!(
            s.responses[1].error.as_ref().map(|e| e.to_error().retry_after_s()),
            Some(Some(3))
        );
    }

    #[test]
    fn mistakes_name_the_file_and_place() {
        let e = Script::parse("responses:\n  - txet: hi\n", "s.yaml").unwrap_err();
        assert!(e.to_string().starts_with("s.yaml:2:"), "{e}");
        let e = Script::parse("responses:\n  - error: {kind: boom}\n", "s.yaml").unwrap_err();
        assert!(e.to_string().contains("responses[0].error.kind"));
        let e = Script::parse("responses: []\n", "s.yaml").unwrap_err();
        assert!(e.to_string().contains("no responses"));
        let e =
            Script::parse("responses:\n  - when: {user: x}\n    text: y\n", "s.yaml").unwrap_err();
        assert!(e.to_string().contains("mode: matched"));
    }
}
