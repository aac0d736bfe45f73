//! From SSE bytes to deltas: frames events (`sse.rs`), parses each data field as an OpenAI
//! chunk, stops at `[DONE]`, turns `{"error": ...}` events into typed errors and a stream
//! that ends too early into `truncated`. Timeouts and retries belong to `client.rs`.

use std::collections::VecDeque;
use std::pin::Pin;

use bytes::Bytes;
use futures::{Stream, StreamExt as _};
use serde_json::Value;

use crate::errors::LlmError;
use crate::model::DeltaStream;
use crate::reassemble::Reassembler;
use crate::sse::{SseDecoder, SseEvent};
use crate::think::ThinkSplitter;
use crate::types::Delta;

#[derive(Debug)]
pub(crate) struct DeltaDecoder {
    sse: SseDecoder,
    reassembler: Reassembler,
    think: ThinkSplitter,
    done: bool,
    endpoint: String,
}

impl DeltaDecoder {
    pub fn new(id_base: usize, endpoint: &str) -> Self {
        Self {
            sse: SseDecoder::default(),
            reassembler: Reassembler::new(id_base),
            think: ThinkSplitter::default(),
            done: false,
            endpoint: endpoint.to_string(),
        }
    }

    /// Whether `[DONE]` (and so `Finish`) was seen.
    pub fn is_done(&self) -> bool {
        self.done
    }

    /// Feed bytes; deltas go to `out` even when an error follows them.
    pub fn feed(&mut self, bytes: &[u8], out: &mut Vec<Delta>) -> Result<(), LlmError> {
        if self.done {
            return Ok(());
        }
        for event in self.sse.feed(bytes) {
            self.event(event, out)?;
            if self.done {
                break;
            }
        }
        Ok(())
    }

    /// The byte stream ended. A stream that never said `[DONE]` is complete when a finish
    /// reason arrived, else it is `truncated` (deltas already produced stand). A last line
    /// without its line end is used only when it is whole (`[DONE]` or a JSON value); a line
    /// cut in the middle is discarded, never parsed.
    pub fn finish(&mut self, out: &mut Vec<Delta>) -> Result<(), LlmError> {
        if self.done {
            return Ok(());
        }
        let end = self.sse.finish();
        let mut events = end.events;
        let mut cut = false;
        if let Some(line) = end.cut_line {
            if is_whole_line(&line) {
                events.extend(self.sse.finish_line(&line));
            } else {
                cut = true;
                tracing::debug!(line = %line.chars().take(200).collect::<String>(), "discarding a line cut by the end of the stream");
            }
        }
        for event in events {
            self.event(event, out)?;
            if self.done {
                return Ok(());
            }
        }
        if self.reassembler.finish_reason.is_some() {
            return self.complete(out);
        }
        self.think.flush(out);
        let how = if cut { " in the middle of a line" } else { "" };
        Err(LlmError::Truncated {
            message: format!(
                "the stream from {} ended{how} before the server said it was done; the answer is incomplete (the server may have crashed or cut the connection)",
                self.endpoint
            ),
        })
    }

    fn complete(&mut self, out: &mut Vec<Delta>) -> Result<(), LlmError> {
        self.done = true;
        self.think.flush(out);
        self.reassembler.finish()?;
        out.push(Delta::Finish { reason: self.reassembler.finish_reason.clone() });
        Ok(())
    }

    fn event(&mut self, event: SseEvent, out: &mut Vec<Delta>) -> Result<(), LlmError> {
        let data = event.data.trim();
        if event.event.as_deref() == Some("error") {
            // `event: error` or llama.cpp's `error:` field: JSON, or plain words.
            let value = serde_json::from_str::<Value>(data)
                .unwrap_or_else(|_| Value::String(data.to_string()));
            let error = value.get("error").filter(|e| !e.is_null()).unwrap_or(&value);
            return Err(LlmError::from_error_object(error, &self.endpoint));
        }
        if data.is_empty() {
            return Ok(());
        }
        if data == "[DONE]" {
            return self.complete(out);
        }
        let values: Vec<Value> = match serde_json::from_str(data) {
            Ok(v) => vec![v],
            // Some servers put several chunks in one event, one per `data:` line.
            Err(first) => data
                .lines()
                .filter(|l| !l.trim().is_empty())
                .map(serde_json::from_str)
                .collect::<Result<_, _>>()
                .map_err(|_| {
                    let shown: String = data.chars().take(200).collect();
                    LlmError::protocol(format!(
                        "{} sent an event that is not JSON ({first}): {shown:?}; is the base URL an OpenAI-compatible endpoint?",
                        self.endpoint
                    ))
                })?,
        };
        for value in values {
            if let Some(error) = value.get("error").filter(|e| !e.is_null()) {
                return Err(LlmError::from_error_object(error, &self.endpoint));
            }
            let mut deltas = Vec::new();
            self.reassembler.chunk(&value, &mut deltas);
            for d in deltas {
                match d {
                    Delta::Text { text } => self.think.push(&text, out),
                    other => {
                        if matches!(other, Delta::Reasoning { .. } | Delta::ToolCallStart { .. }) {
                            self.think.stop_watching(out);
                        }
                        out.push(other);
                    }
                }
            }
        }
        Ok(())
    }
}

/// Whether a last line without its line end is a whole field (`data: [DONE]`, a JSON value)
/// rather than a line the connection was cut in the middle of.
fn is_whole_line(line: &str) -> bool {
    let value = match line.trim_start().starts_with(['{', '[']) {
        true => line,
        false => line.split_once(':').map_or("", |(_, v)| v),
    };
    let value = value.trim();
    value == "[DONE]"
        || (!value.is_empty() && serde_json::from_str::<serde::de::IgnoredAny>(value).is_ok())
}

/// Decode an OpenAI-compatible SSE byte stream into deltas (no timeouts, no retries). The
/// client uses the same decoder; this entry point serves tools and benchmarks that bring
/// their own bytes.
pub fn sse_deltas<S, E>(bytes: S, endpoint: &str) -> DeltaStream
where
    S: Stream<Item = Result<Bytes, E>> + Send + 'static,
    E: std::fmt::Display,
{
    let state = Pump {
        bytes: Box::pin(bytes),
        decoder: DeltaDecoder::new(0, endpoint),
        queue: VecDeque::new(),
        error: None,
        ended: false,
        got_bytes: false,
    };
    Box::pin(futures::stream::unfold(state, |mut pump| async move {
        let item = pump.next().await?;
        Some((item, pump))
    }))
}

struct Pump<S> {
    bytes: Pin<Box<S>>,
    decoder: DeltaDecoder,
    queue: VecDeque<Delta>,
    error: Option<LlmError>,
    ended: bool,
    got_bytes: bool,
}

impl<S, E> Pump<S>
where
    S: Stream<Item = Result<Bytes, E>>,
    E: std::fmt::Display,
{
    async fn next(&mut self) -> Option<Result<Delta, LlmError>> {
        loop {
            if let Some(d) = self.queue.pop_front() {
                return Some(Ok(d));
            }
            if let Some(e) = self.error.take() {
                self.ended = true;
                return Some(Err(e));
            }
            if self.ended {
                return None;
            }
            let mut out = Vec::new();
            let result = match self.bytes.next().await {
                Some(Ok(chunk)) => {
                    self.got_bytes = true;
                    self.decoder.feed(&chunk, &mut out)
                }
                Some(Err(e)) if self.got_bytes => Err(LlmError::Truncated {
                    message: format!("the stream was cut mid-answer: {e}"),
                }),
                Some(Err(e)) => {
                    Err(LlmError::Network { message: format!("reading the stream failed: {e}") })
                }
                None => {
                    self.ended = true;
                    self.decoder.finish(&mut out)
                }
            };
            self.queue.extend(out);
            self.ended |= self.decoder.is_done();
            self.error = result.err();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    const STREAM: &str = concat!(
        ": keep-alive\r\n\r\n",
        "data: {\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\"}}]}\n\n",
        "data:{\"choices\":[{\"index\":0,\"delta\":{\"reasoning_content\":\"想一想\"}}]}\r\n\r\n",
        "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"你好, \"}}]}\n\n",
        "data: {\"choices\":[],\n",
        "data: \"usage\":null}\n\n",
        "data: {\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,\"id\":\"\",\"function\":{\"name\":\"f\",\"arguments\":\"{\\\"a\\\"\"}}]}}]}\n\n",
        "data: {\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,\"function\":{\"arguments\":\": \\\"é\\\"}\"}}]}}]}\n\n",
        "data: {\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"tool_calls\"}]}\n\n",
        "data: {\"choices\":[],\"usage\":{\"prompt_tokens\":3,\"completion_tokens\":4,\"total_tokens\":7}}\n\n",
        "data: [DONE]\n\n",
    );

    fn decode(parts: &[&[u8]]) -> (Vec<Delta>, Option<LlmError>) {
        let mut d = DeltaDecoder::new(0, "test");
        let mut out = Vec::new();
        for p in parts {
            if let Err(e) = d.feed(p, &mut out) {
                return (out, Some(e));
            }
        }
        let err = d.finish(&mut out).err();
        (out, err)
    }

    #[test]
    fn a_stream_with_every_quirk_decodes_in_order() {
        let (out, err) = decode(&[STREAM.as_bytes()]);
        assert_eq!(err, None);
        assert_eq!(out[0], Delta::Reasoning { text: "想一想".into() });
        assert_eq!(out[1], Delta::Text { text: "你好, ".into() });
        assert_eq!(
            out[2],
            Delta::ToolCallStart { index: 0, id: "call_0".into(), name: "f".into() }
        );
        assert_eq!(out.last(), Some(&Delta::Finish { reason: Some("tool_calls".into()) }));
        assert!(out.contains(&Delta::Usage {
            usage: crate::types::TokenUsage {
                prompt_tokens: 3,
                completion_tokens: 4,
                total_tokens: 7
            }
        }));
    }

    #[test]
    fn no_done_without_finish_reason_is_truncated_and_keeps_text() {
        let (out, err) =
            decode(&[b"data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"part\"}}]}\n\n"]);
        assert_eq!(out, vec![Delta::Text { text: "part".into() }]);
        assert_eq!(err.map(|e| e.kind().as_str()), Some("truncated"));
    }

    #[test]
    fn no_done_after_a_finish_reason_is_complete() {
        let (out, err) = decode(&[b"data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"x\"},\"finish_reason\":\"stop\"}]}\n\n"]);
        assert_eq!(err, None);
        assert_eq!(out.last(), Some(&Delta::Finish { reason: Some("stop".into()) }));
    }

    #[test]
    fn error_object_mid_stream_follows_the_text_before_it() {
        let (out, err) = decode(&[b"data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"a\"}}]}\n\ndata: {\"error\":{\"message\":\"model crashed\"}}\n\n"]);
        assert_eq!(out, vec![Delta::Text { text: "a".into() }]);
        let err = err.unwrap();
        assert_eq!(err.kind().as_str(), "server");
        assert!(err.to_string().contains("model crashed"));
    }

    #[test]
    fn a_line_cut_mid_way_is_discarded_and_the_stream_is_truncated() {
        let whole = "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"kept\"}}]}\n\n";
        let cut = "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"lo";
        let (out, err) = decode(&[whole.as_bytes(), cut.as_bytes()]);
        assert_eq!(out, vec![Delta::Text { text: "kept".into() }]);
        let err = err.unwrap();
        assert_eq!(err.kind().as_str(), "truncated");
        assert!(err.to_string().contains("middle of a line"), "{err}");
    }

    #[test]
    fn a_done_without_its_line_end_still_completes() {
        let (out, err) = decode(&[
            b"data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"x\"}}]}\n\ndata: [DONE]",
        ]);
        assert_eq!(err, None);
        assert_eq!(out.last(), Some(&Delta::Finish { reason: None }));
    }

    #[test]
    fn the_llama_cpp_error_field_is_an_error_with_the_server_message() {
        let body = "data: {\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\"}}]}\n\nerror: {\"code\":500,\"message\":\"slot crashed\",\"type\":\"server_error\"}\n\ndata: [DONE]\n\n";
        let (out, err) = decode(&[body.as_bytes()]);
        assert_eq!(out, vec![]);
        let err = err.unwrap();
        assert_eq!(err.kind().as_str(), "server");
        assert!(err.to_string().contains("slot crashed"), "{err}");
        let (_, err) = decode(&[b"error: the model is not loaded\n\n"]);
        assert!(err.unwrap().to_string().contains("the model is not loaded"));
    }

    #[test]
    fn garbage_is_a_protocol_error_naming_the_endpoint() {
        let (_, err) = decode(&[b"data: <html>oops</html>\n\n"]);
        let err = err.unwrap();
        assert_eq!(err.kind().as_str(), "protocol");
        assert!(err.to_string().contains("test"));
    }

    proptest! {
        #[test]
        fn splitting_at_any_byte_boundaries_gives_the_same_deltas(cuts in proptest::collection::vec(0..STREAM.len(), 0..12)) {
            let bytes = STREAM.as_bytes();
            let mut cuts = cuts;
            cuts.sort_unstable();
            let mut parts: Vec<&[u8]> = Vec::new();
            let mut last = 0;
            for c in cuts {
                parts.push(&bytes[last..c]);
                last = c;
            }
            parts.push(&bytes[last..]);
            prop_assert_eq!(decode(&parts), decode(&[bytes]));
        }
    }
}
