//! Provider behaviour reproduced on the wire: Ollama's parallel calls sharing index 0,
//! Moonshot/Kimi usage inside the choice and `functions.<name>:<n>` ids, llama.cpp's `error:`
//! SSE field at HTTP 200, and answers that start inside `<think>` (only `</think>` sent).

use futures::StreamExt as _;
use serde_json::json;
use vibe_llm::{ChatModel as _, ChatRequest, Delta, Message, TokenUsage, ToolCall, collect};
use vibe_test_support::*;

use crate::support::*;

#[tokio::test]
async fn ollama_parallel_calls_at_index_0_stay_separate_calls() {
    let server = FakeServer::start();
    server.push(Reply::sse(sse(vec![
        ev_role(),
        ev_tool_calls_at_index_0(&[
            ("call_w", "write_state", "{\"section\":\"goals\"}"),
            ("call_r", "read_state", "{}"),
        ]),
        // A third call, its arguments split across chunks, still at index 0.
        ev_tool_call(0, "call_a", "append_to_list", "{\"list\":"),
        ev_tool_args(0, "\"wins\"}"),
        ev_finish("tool_calls"),
    ])));
    let (r, err) = ask(&client(&server)).await;
    assert_eq!(err, None);
    let call = |id: &str, name: &str, arguments: &str| ToolCall {
        id: id.into(),
        name: name.into(),
        arguments: arguments.into(),
    };
    assert_eq!(
        r.tool_calls,
        [
            call("call_w", "write_state", "{\"section\":\"goals\"}"),
            call("call_r", "read_state", "{}"),
            call("call_a", "append_to_list", "{\"list\":\"wins\"}"),
        ]
    );
}

#[tokio::test]
async fn kimi_usage_inside_the_choice_and_its_tool_ids_round_trip() {
    let server = FakeServer::start();
    server.push(Reply::sse(sse(vec![
        ev_tool_call(0, "functions.write_state:0", "write_state", "{\"section\":\"goals\"}"),
        ev_finish_usage_in_choice("tool_calls", 812, 17),
    ])));
    server.push(Reply::sse(sse(vec![
        ev_text("记下了。"),
        ev_finish_usage_in_choice("stop", 840, 4),
    ])));
    let client = client(&server);
    let (first, err) = ask(&client).await;
    assert_eq!(err, None);
    assert_eq!(
        first.usage,
        Some(TokenUsage { prompt_tokens: 812, completion_tokens: 17, total_tokens: 829 })
    );
    let call = first.tool_calls[0].clone();
    assert_eq!(call.id, "functions.write_state:0");
    let mut messages = hello().messages;
    messages.push(Message::assistant("", vec![call]));
    messages.push(Message::tool("functions.write_state:0", "{\"ok\":true}"));
    let (second, err) = collect(client.stream(ChatRequest::new(messages))).await;
    assert_eq!(err, None);
    assert_eq!(second.usage.map(|u| u.total_tokens), Some(844));
    let body = server.requests()[1].json();
    assert_eq!(body["messages"][2]["tool_calls"][0]["id"], "functions.write_state:0");
    assert_eq!(body["messages"][3]["tool_call_id"], "functions.write_state:0");
    server.requests()[1].assert_tool_pairs();
}

#[tokio::test]
async fn llama_cpp_error_field_at_http_200_is_an_error_with_its_message() {
    let server = FakeServer::start();
    let error =
        json!({"code": 500, "message": "slot 0 crashed while decoding", "type": "server_error"});
    let body = format!("{}{}data: [DONE]\n\n", sse_frame(vec![ev_role()]), sse_error_field(&error));
    for _ in 0..3 {
        server.push(Reply::sse(body.clone()));
    }
    let (r, err) = ask(&client(&server)).await;
    let err = err.unwrap();
    assert_eq!(err.kind().as_str(), "server");
    assert!(err.to_string().contains("slot 0 crashed while decoding"), "{err}");
    assert_eq!(r.text, "");
    assert_eq!(server.requests().len(), 3, "a server error before any delta is retried");
}

#[tokio::test]
async fn llama_cpp_context_overflow_in_the_error_field_is_not_retried() {
    let server = FakeServer::start();
    let error = json!({"code": 400, "message": "the request exceeds the available context size, try increasing it", "type": "invalid_request_error"});
    server.push(Reply::sse(format!("{}data: [DONE]\n\n", sse_error_field(&error))));
    let (_, err) = ask(&client(&server)).await;
    let err = err.unwrap();
    assert_eq!(err.kind().as_str(), "bad_request");
    assert!(err.to_string().contains("exceeds the available context size"), "{err}");
    assert!(err.to_string().contains("mid-stream (code 400)"), "{err}");
    assert_eq!(server.requests().len(), 1);
}

#[tokio::test]
async fn an_answer_opened_inside_think_is_split_and_the_tag_never_shows() {
    let server = FakeServer::start();
    server.push(Reply::sse(sse(vec![
        ev_text("用户想要"),
        ev_text("一个计划。</thi"),
        ev_text("nk>\n\n先从目标"),
        ev_text("开始。"),
        ev_finish("stop"),
    ])));
    let mut stream = client(&server).stream(hello());
    let mut deltas = Vec::new();
    while let Some(item) = stream.next().await {
        deltas.push(item.unwrap());
    }
    assert!(!format!("{deltas:?}").contains("think>"), "{deltas:?}");
    let mut acc = vibe_llm::Accumulator::default();
    for d in &deltas {
        acc.push(d);
    }
    let r = acc.into_response();
    assert_eq!(r.reasoning.as_deref(), Some("用户想要一个计划。"));
    assert_eq!(r.text, "先从目标开始。");
    assert!(deltas.iter().any(|d| matches!(d, Delta::Restart { .. })));
}
