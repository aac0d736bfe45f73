//! A stream that began and ended early is `truncated` — connection closed mid-line, chunked
//! body cut or reset mid-chunk, EOF without a finish reason — distinct from `network`
//! (nothing received) and `protocol` (malformed data). The cut line is never parsed, the text
//! before it is kept, and half-built tool calls are dropped.

use std::time::Duration;

use serde_json::json;
use vibe_llm::{LlmSettings, LlmSettingsExt};
use vibe_test_support::*;

use crate::support::*;

/// The start of a text chunk, cut before its line end.
const CUT_LINE: &str = "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"lost wor";

fn no_retries(server: &FakeServer) -> vibe_llm::OpenAiClient {
    client_with(
        LlmSettings::from_section(
            &json!({"base_url": server.url(), "model": "m", "retries": 0}),
            "test",
        )
        .unwrap(),
    )
}

#[tokio::test]
async fn a_connection_closed_mid_line_is_truncated_and_the_cut_line_is_not_parsed() {
    let server = FakeServer::start();
    server.push(Reply::sse_chunks(vec![
        sse_frame(vec![ev_role(), ev_text("kept ")]),
        CUT_LINE.into(),
    ]));
    let (r, err) = ask(&client(&server)).await;
    let err = err.unwrap();
    assert_eq!(err.kind().as_str(), "truncated", "{err}");
    assert!(err.to_string().contains("middle of a line"), "{err}");
    assert_eq!(r.text, "kept ");
}

#[tokio::test]
async fn a_chunked_body_reset_mid_chunk_is_truncated_not_network() {
    let server = FakeServer::start();
    server.push(
        Reply::sse_chunked(vec![sse_frame(vec![ev_text("so far")])])
            .delay(Duration::from_millis(100))
            .cut_chunk(CUT_LINE, 40)
            .then_reset(),
    );
    let (r, err) = ask(&client(&server)).await;
    let err = err.unwrap();
    assert_eq!(err.kind().as_str(), "truncated", "{err}");
    assert_eq!(r.text, "so far");
    assert_eq!(server.requests().len(), 1, "no retry after the first delta");
}

#[tokio::test]
async fn a_chunked_body_closed_mid_chunk_is_truncated() {
    let server = FakeServer::start();
    server.push(
        Reply::sse_chunked(vec![sse_frame(vec![ev_text("so far")])])
            .delay(Duration::from_millis(100))
            .cut_chunk(CUT_LINE, 40),
    );
    let (r, err) = ask(&client(&server)).await;
    assert_eq!(err.map(|e| e.kind().as_str()), Some("truncated"));
    assert_eq!(r.text, "so far");
}

#[tokio::test]
async fn eof_without_a_finish_reason_drops_the_half_built_tool_call() {
    let server = FakeServer::start();
    server.push(Reply::sse(sse_frame(vec![
        ev_text("Let me note that."),
        ev_tool_call(0, "call_1", "write_state", "{\"section\": \"go"),
    ])));
    let (r, err) = ask(&client(&server)).await;
    assert_eq!(err.map(|e| e.kind().as_str()), Some("truncated"));
    assert_eq!(r.text, "Let me note that.");
    assert_eq!(r.tool_calls, [], "a half-built call is never handed on");
}

#[tokio::test]
async fn a_reset_before_any_body_byte_is_network() {
    let server = FakeServer::start();
    server.push(Reply::sse_chunked(Vec::<Vec<u8>>::new()).then_reset());
    let (_, err) = ask(&no_retries(&server)).await;
    assert_eq!(err.map(|e| e.kind().as_str()), Some("network"));
}

#[tokio::test]
async fn a_cut_before_any_delta_is_retried() {
    let server = FakeServer::start();
    server.push(Reply::sse_chunks(vec![sse_frame(vec![ev_role()]), CUT_LINE.into()]));
    server.push(Reply::sse(sse(vec![ev_text("whole"), ev_finish("stop")])));
    let (r, err) = ask(&client(&server)).await;
    assert_eq!(err, None);
    assert_eq!(r.text, "whole");
    assert_eq!(server.requests().len(), 2);
}
