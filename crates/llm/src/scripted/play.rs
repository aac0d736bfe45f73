//! Playing one scripted response as a delta stream: reasoning, text and tool-call
//! arguments split into chunks, an optional pause before each delta, then usage and
//! finish — or the scripted error.

use std::time::Duration;

use futures::StreamExt as _;

use crate::model::DeltaStream;
use crate::scripted::script::{Response, Script};
use crate::types::{Delta, TokenUsage};

pub(crate) fn play(script: &Script, response: &Response, prior_calls: usize) -> DeltaStream {
    let chunk = response.chunk_chars.unwrap_or(script.chunk_chars);
    let delay = Duration::from_millis(response.delay_ms.unwrap_or(script.delay_ms));
    let mut items = Vec::new();
    let push_text = |items: &mut Vec<Delta>,
                     chunks: &[String],
                     whole: &Option<String>,
                     reasoning: bool| {
        let pieces: Vec<String> = if chunks.is_empty() {
            whole.as_deref().map(|t| split(t, chunk)).unwrap_or_default()
        } else {
            chunks.to_vec()
        };
        for text in pieces {
            items.push(if reasoning { Delta::Reasoning { text } } else { Delta::Text { text } });
        }
    };
    push_text(&mut items, &response.reasoning_chunks, &response.reasoning, true);
    push_text(&mut items, &response.text_chunks, &response.text, false);
    for (index, call) in response.tool_calls.iter().enumerate() {
        let id = call.id.clone().unwrap_or_else(|| format!("call_{}", prior_calls + index));
        items.push(Delta::ToolCallStart { index, id, name: call.name.clone() });
        let arguments = match &call.arguments {
            serde_json::Value::String(raw) => raw.clone(),
            serde_json::Value::Null => "{}".to_string(),
            other => other.to_string(),
        };
        for fragment in split(&arguments, chunk) {
            items.push(Delta::ToolCallArgs { index, fragment });
        }
    }
    let mut results: Vec<Result<Delta, crate::errors::LlmError>> =
        items.into_iter().map(Ok).collect();
    match &response.error {
        Some(error) => results.push(Err(error.to_error())),
        None => {
            if let Some(u) = response.usage {
                let total = if u.total_tokens == 0 {
                    u.prompt_tokens + u.completion_tokens
                } else {
                    u.total_tokens
                };
                results.push(Ok(Delta::Usage { usage: TokenUsage { total_tokens: total, ..u } }));
            }
            let reason = response.finish_reason.clone().unwrap_or_else(|| {
                if response.tool_calls.is_empty() { "stop" } else { "tool_calls" }.to_string()
            });
            results.push(Ok(Delta::Finish { reason: Some(reason) }));
        }
    }
    let stream = futures::stream::iter(results);
    if delay.is_zero() {
        return Box::pin(stream);
    }
    Box::pin(stream.then(move |item| async move {
        tokio::time::sleep(delay).await;
        item
    }))
}

/// Split into pieces of `n` characters (`n == 0`: one piece); empty text gives none.
fn split(text: &str, n: usize) -> Vec<String> {
    if text.is_empty() {
        return Vec::new();
    }
    if n == 0 {
        return vec![text.to_string()];
    }
    let chars: Vec<char> = text.chars().collect();
    chars.chunks(n).map(|c| c.iter().collect()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::collect::collect;

    #[tokio::test]
    async fn text_is_chunked_by_characters_and_errors_end_the_stream() {
        let script = Script::parse("chunk_chars: 2\nresponses:\n  - text: 你好世界!\n    error: {kind: server, message: boom}\n", "s").unwrap();
        let mut s = play(&script, &script.responses[0], 0);
        let mut texts = Vec::new();
        let mut last_err = None;
        while let Some(item) = s.next().await {
            match item {
                Ok(Delta::Text { text }) => texts.push(text),
                Ok(other) => panic!("unexpected {other:?}"),
                Err(e) => last_err = Some(e),
            }
        }
        assert_eq!(texts, ["你好", "世界", "!"]);
        assert_eq!(last_err.map(|e| e.kind().as_str()), Some("server"));
    }

    #[tokio::test]
    async fn raw_string_arguments_are_sent_verbatim() {
        let script =
            Script::parse("responses:\n  - tool_calls: [{name: f, arguments: '{\"broken'}]\n", "s")
                .unwrap();
        let (r, _) = collect(play(&script, &script.responses[0], 3)).await;
        assert_eq!(r.tool_calls[0].arguments, "{\"broken");
        assert_eq!(r.tool_calls[0].id, "call_3");
    }
}
