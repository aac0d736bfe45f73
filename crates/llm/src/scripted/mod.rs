//! The scripted model: a deterministic `ChatModel` driven by a YAML script or by the model
//! events of a recorded run (`scripted:PATH`). Used for offline replay, evals and tests.
//! The file formats live in `script.rs` and `replay.rs`; turning one response into deltas
//! lives in `play.rs`.

mod play;
mod replay;
mod script;

use std::path::Path;
use std::sync::{Arc, Mutex};

use futures::future::BoxFuture;

use crate::errors::LlmError;
use crate::model::{ChatModel, DeltaStream, error_stream};
use crate::types::{ChatRequest, Message, ModelInfo};
use script::{Order, Response, Script};

/// The largest script or recorded run read (a long run's events.jsonl fits many times over);
/// `scripted:/dev/zero` stops here instead of filling memory.
const MAX_SCRIPT_BYTES: u64 = 64 * 1024 * 1024;

/// The text of a script file, at most [`MAX_SCRIPT_BYTES`]; `what` names it in errors.
fn read_script_file(path: &Path, what: &str) -> Result<String, LlmError> {
    use std::io::Read as _;
    let fail =
        |e: std::io::Error| LlmError::config(format!("cannot read {what} {}: {e}", path.display()));
    let mut bytes = Vec::new();
    std::fs::File::open(path)
        .and_then(|f| f.take(MAX_SCRIPT_BYTES + 1).read_to_end(&mut bytes))
        .map_err(fail)?;
    if bytes.len() as u64 > MAX_SCRIPT_BYTES {
        return Err(LlmError::config(format!(
            "{what} {} is larger than the {} MiB limit",
            path.display(),
            MAX_SCRIPT_BYTES >> 20
        )));
    }
    String::from_utf8(bytes).map_err(|e| {
        LlmError::config(format!(
            "{what} {} is not UTF-8 text (invalid byte at offset {})",
            path.display(),
            e.utf8_error().valid_up_to()
        ))
    })
}

/// Reads a recorded run's `events.jsonl` into its clear JSON lines; the error is one line
/// naming the file. The app passes one that opens sealed run files with the data folder's key
/// (this crate knows nothing of keys or stores).
pub type ReadRecording = Arc<dyn Fn(&Path) -> Result<String, String> + Send + Sync>;

/// A model that answers from a script.
pub struct ScriptedModel {
    script: Script,
    source: String,
    next: Mutex<usize>,
}

impl ScriptedModel {
    /// Load `path`: an `events.jsonl` of a recorded run (by extension) or a YAML script.
    pub fn load(path: &Path) -> Result<Self, LlmError> {
        Self::load_with(path, None)
    }

    /// [`ScriptedModel::load`], reading a recorded run with `recordings` when given.
    pub fn load_with(path: &Path, recordings: Option<&ReadRecording>) -> Result<Self, LlmError> {
        let is_events = path.extension().is_some_and(|e| e.eq_ignore_ascii_case("jsonl"));
        let script =
            if is_events { replay::load_events(path, recordings)? } else { Script::load(path)? };
        Ok(Self { script, source: path.display().to_string(), next: Mutex::new(0) })
    }

    /// A model from YAML text (`source` names it in errors).
    pub fn from_yaml(text: &str, source: &str) -> Result<Self, LlmError> {
        Ok(Self {
            script: Script::parse(text, source)?,
            source: source.to_string(),
            next: Mutex::new(0),
        })
    }

    fn pick(&self, request: &ChatRequest) -> Result<&Response, LlmError> {
        match self.script.mode {
            Order::Ordered => {
                let mut next = self.next.lock().unwrap_or_else(|p| p.into_inner());
                let response = self.script.responses.get(*next).ok_or_else(|| {
                    LlmError::config(format!(
                        "the model script {} has {} responses but request #{} asked for another; add responses to the script",
                        self.source,
                        self.script.responses.len(),
                        *next + 1
                    ))
                })?;
                *next += 1;
                Ok(response)
            }
            Order::Matched => self.script.responses.iter().find(|r| matches(r, request)).ok_or_else(|| {
                LlmError::config(format!(
                    "no response of the model script {} matches this request (last user message: {:?}); add one with a matching `when`, or one without `when` as a fallback",
                    self.source,
                    last_user(request).unwrap_or("")
                ))
            }),
        }
    }
}

fn last_user(request: &ChatRequest) -> Option<&str> {
    request.messages.iter().rev().find_map(|m| match m {
        Message::User { content } => Some(content.as_str()),
        _ => None,
    })
}

fn matches(response: &Response, request: &ChatRequest) -> bool {
    let Some(when) = &response.when else { return true };
    let user_ok = when
        .user
        .as_ref()
        .is_none_or(|u| last_user(request).is_some_and(|t| t.contains(u.as_str())));
    let tool_ok = when.tool_result.as_ref().is_none_or(|want| {
        matches!(request.messages.last(), Some(Message::Tool { content, .. }) if content.contains(want.as_str()))
    });
    user_ok && tool_ok
}

impl ChatModel for ScriptedModel {
    fn stream(&self, request: ChatRequest) -> DeltaStream {
        match self.pick(&request) {
            Ok(response) => play::play(&self.script, response, request.prior_tool_calls()),
            Err(e) => error_stream(e),
        }
    }

    fn list_models(&self) -> BoxFuture<'_, Result<Vec<ModelInfo>, LlmError>> {
        let id = self.model_name().to_string();
        Box::pin(async move { Ok(vec![ModelInfo { id, owned_by: Some("scripted".into()) }]) })
    }

    fn model_name(&self) -> &str {
        self.script.model.as_deref().unwrap_or("scripted")
    }
}

#[cfg(test)]
mod read_tests {
    #[test]
    fn an_endless_script_file_is_refused_at_the_cap() {
        let err = super::read_script_file(std::path::Path::new("/dev/zero"), "the model script")
            .unwrap_err()
            .to_string();
        assert!(err.contains("/dev/zero") && err.contains("64 MiB"), "{err}");
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::collect::collect;

    #[tokio::test]
    async fn matched_responses_follow_user_text_and_tool_results() {
        let m = ScriptedModel::from_yaml(
            "mode: matched\nresponses:\n  - when: {tool_result: sunny}\n    text: It is sunny.\n  - when: {user: weather}\n    tool_calls: [{name: get_weather, arguments: {city: Berlin}}]\n  - text: fallback\n",
            "s.yaml",
        )
        .unwrap();
        let first = ChatRequest::new(vec![Message::user("weather in Berlin?")]);
        let (r, _) = collect(m.stream(first)).await;
        assert_eq!(r.tool_calls[0].name, "get_weather");
        assert_eq!(r.tool_calls[0].id, "call_0");
        assert_eq!(r.finish_reason.as_deref(), Some("tool_calls"));
        let second = ChatRequest::new(vec![
            Message::user("weather in Berlin?"),
            Message::assistant("", r.tool_calls.clone()),
            Message::tool("call_0", "sunny, 20°C"),
        ]);
        let (r, _) = collect(m.stream(second)).await;
        assert_eq!(r.text, "It is sunny.");
        let (r, _) = collect(m.stream(ChatRequest::new(vec![Message::user("hi")]))).await;
        assert_eq!(r.text, "fallback");
    }

    #[tokio::test]
    async fn ordered_scripts_run_out_with_a_clear_error() {
        let m = ScriptedModel::from_yaml("responses:\n  - text: one\n", "s.yaml").unwrap();
        let (r, err) = collect(m.stream(ChatRequest::default())).await;
        assert_eq!((r.text.as_str(), err), ("one", None));
        let (_, err) = collect(m.stream(ChatRequest::default())).await;
        assert!(err.unwrap().to_string().contains("has 1 responses but request #2"));
    }
}
