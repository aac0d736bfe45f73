//! Every stream quirk the client must survive, over real HTTP with exact chunk boundaries.

use std::time::Duration;

use futures::StreamExt as _;
use serde_json::json;
use vibe_llm::{
    ChatModel as _, ChatRequest, Delta, Message, TokenUsage, ToolCall, ToolDef, collect,
};
use vibe_test_support::*;

use crate::support::*;

#[tokio::test]
async fn role_only_first_chunk_empty_choices_and_usage() {
    let server = FakeServer::start();
    server.push(Reply::sse(sse(vec![
        ev_role(),
        ev_text("Hel"),
        ev_text("lo"),
        ev_finish("stop"),
        ev_usage(5, 2),
    ])));
    let (r, err) = ask(&client(&server)).await;
    assert_eq!(err, None);
    assert_eq!(r.text, "Hello");
    assert_eq!(r.reasoning, None);
    assert_eq!(r.finish_reason.as_deref(), Some("stop"));
    assert_eq!(
        r.usage,
        Some(TokenUsage { prompt_tokens: 5, completion_tokens: 2, total_tokens: 7 })
    );
}

#[tokio::test]
async fn crlf_no_space_comments_and_utf8_split_across_reads() {
    let server = FakeServer::start();
    let text = ev_text("你好").to_string();
    let event = format!("data:{text}\r\n\r\n");
    let bytes = event.as_bytes();
    let cut = event.find("你").unwrap() + 1; // inside the first character
    server.push(
        Reply::sse_chunks(vec![
            b": OPENROUTER PROCESSING\r\n\r\n".to_vec(),
            bytes[..cut].to_vec(),
            bytes[cut..].to_vec(),
            b"data: [DONE]\r\n\r\n".to_vec(),
        ])
        .delay_each(Duration::from_millis(20)),
    );
    let (r, err) = ask(&client(&server)).await;
    assert_eq!(err, None);
    assert_eq!(r.text, "你好");
}

#[tokio::test]
async fn multi_line_data_fields_are_joined() {
    let server = FakeServer::start();
    let body = "data: {\"choices\":[{\"index\":0,\n\
                data: \"delta\":{\"content\":\"joined\"}}]}\n\n\
                data: [DONE]\n\n";
    server.push(Reply::sse(body));
    let (r, err) = ask(&client(&server)).await;
    assert_eq!(err, None);
    assert_eq!(r.text, "joined");
}

#[tokio::test]
async fn reasoning_is_kept_apart_from_text() {
    let server = FakeServer::start();
    let openrouter_style = chunk(json!({"reasoning": " then answer"}));
    server.push(Reply::sse(sse(vec![
        ev_reasoning("think"),
        openrouter_style,
        ev_text("42"),
        ev_finish("stop"),
    ])));
    let (r, err) = ask(&client(&server)).await;
    assert_eq!(err, None);
    assert_eq!(r.reasoning.as_deref(), Some("think then answer"));
    assert_eq!(r.text, "42");
}

#[tokio::test]
async fn a_leading_think_block_in_content_is_reasoning() {
    let server = FakeServer::start();
    let events = vec![
        ev_text("<thi"),
        ev_text("nk>weigh options</th"),
        ev_text("ink>\n\nDo X."),
        ev_finish("stop"),
    ];
    server.push(Reply::sse(sse(events)));
    let (r, err) = ask(&client(&server)).await;
    assert_eq!(err, None);
    assert_eq!(r.reasoning.as_deref(), Some("weigh options"));
    assert_eq!(r.text, "Do X.");
}

#[tokio::test]
async fn interleaved_fragmented_tool_calls_are_reassembled_by_index() {
    let server = FakeServer::start();
    server.push(Reply::sse_chunks(vec![
        sse_frame(vec![ev_role(), ev_tool_call(0, "call_a", "get_weather", "")]),
        sse_frame(vec![ev_tool_call(1, "call_b", "get_time", "{\"tz\":")]),
        sse_frame(vec![ev_tool_args(0, "{\"city\": \"Ber"), ev_tool_args(1, "\"UTC\"}")]),
        sse_frame(vec![ev_tool_args(0, "lin\"}"), ev_finish("tool_calls")]),
        "data: [DONE]\n\n".to_string(),
    ]));
    let (r, err) = ask(&client(&server)).await;
    assert_eq!(err, None);
    assert_eq!(r.finish_reason.as_deref(), Some("tool_calls"));
    assert_eq!(
        r.tool_calls,
        vec![
            ToolCall {
                id: "call_a".into(),
                name: "get_weather".into(),
                arguments: "{\"city\": \"Berlin\"}".into()
            },
            ToolCall {
                id: "call_b".into(),
                name: "get_time".into(),
                arguments: "{\"tz\":\"UTC\"}".into()
            },
        ]
    );
}

#[tokio::test]
async fn whole_calls_in_one_chunk_with_missing_ids_get_stable_ids() {
    let server = FakeServer::start();
    let no_id = chunk(json!({"tool_calls": [
        {"index": 0, "function": {"name": "a", "arguments": "{}"}},
        {"index": 1, "id": "", "function": {"name": "b", "arguments": "{\"x\":1}"}},
    ]}));
    server.push(Reply::sse(sse(vec![no_id, ev_finish("tool_calls")])));
    // One earlier call in the history: new ids continue after it.
    let request = ChatRequest::new(vec![
        Message::user("go"),
        Message::assistant(
            "",
            vec![ToolCall { id: "call_0".into(), name: "a".into(), arguments: "{}".into() }],
        ),
        Message::tool("call_0", "done"),
    ]);
    let (r, err) = collect(client(&server).stream(request)).await;
    assert_eq!(err, None);
    let ids: Vec<_> = r.tool_calls.iter().map(|c| c.id.as_str()).collect();
    assert_eq!(ids, ["call_1", "call_2"]);
    assert_eq!(r.tool_calls[1].arguments, "{\"x\":1}");
    server.requests()[0].assert_tool_pairs();
}

#[tokio::test]
async fn request_body_and_headers_follow_the_openai_format() {
    let server = FakeServer::start();
    server.push(Reply::sse(sse(vec![ev_text("ok"), ev_finish("stop")])));
    let mut request = hello();
    request.tools.push(ToolDef {
        name: "f".into(),
        description: "does f".into(),
        parameters: json!({"type": "object"}).into(),
    });
    let _ = collect(client(&server).stream(request)).await;
    let req = &server.requests()[0];
    assert_eq!(req.method, "POST");
    assert_eq!(req.path, "/v1/chat/completions");
    assert_eq!(req.header("authorization"), Some(format!("Bearer {KEY}").as_str()));
    let body = req.json();
    assert_eq!(body["model"], "fake-model");
    assert_eq!(body["stream"], true);
    assert_eq!(body["stream_options"]["include_usage"], true);
    assert_eq!(body["messages"][1]["content"], "hello");
    assert_eq!(body["tools"][0]["function"]["name"], "f");
}

#[tokio::test]
async fn a_server_that_ignores_stream_true_still_works() {
    let server = FakeServer::start();
    server.push(Reply::json(200, &json!({
        "choices": [{"index": 0, "message": {"role": "assistant", "content": "whole"}, "finish_reason": "stop"}],
        "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
    })));
    let (r, err) = ask(&client(&server)).await;
    assert_eq!(err, None);
    assert_eq!(r.text, "whole");
    assert_eq!(r.finish_reason.as_deref(), Some("stop"));
}

#[tokio::test]
async fn dropping_the_stream_hangs_up_at_once() {
    let server = FakeServer::start();
    server.push(
        Reply::sse_chunks(vec![
            sse_frame(vec![ev_text("first")]),
            sse_frame(vec![ev_text("never")]),
        ])
        .delay_each(Duration::from_millis(50))
        .delay(Duration::from_secs(30)),
    );
    let client = client(&server);
    let mut stream = client.stream(hello());
    let first = stream.next().await;
    assert_eq!(first, Some(Ok(Delta::Text { text: "first".into() })));
    drop(stream);
    assert!(
        server.wait_for_disconnects_async(1, Duration::from_secs(10)).await,
        "the server never saw the client hang up"
    );
}

#[tokio::test]
async fn models_are_listed() {
    let server = FakeServer::start();
    server.push(Reply::models(&["qwen2.5:7b", "llama3.1:8b"]));
    let models = client(&server).list_models().await.unwrap();
    let ids: Vec<_> = models.iter().map(|m| m.id.as_str()).collect();
    assert_eq!(ids, ["qwen2.5:7b", "llama3.1:8b"]);
    assert_eq!(server.requests()[0].path, "/v1/models");
}

#[tokio::test]
async fn a_server_without_a_model_list_says_so() {
    let server = FakeServer::start();
    server.push(Reply::json(404, &json!({"error": "not found"})));
    let err = client(&server).list_models().await.unwrap_err();
    assert_eq!(err.kind().as_str(), "bad_request");
    assert!(err.to_string().contains("/models is not offered"), "{err}");
}
