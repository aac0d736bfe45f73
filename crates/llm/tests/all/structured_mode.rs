//! Structured-action mode end to end: a model without native tools (fake server or
//! scripted model) completes a tool round and a streamed final answer; a malformed object
//! gets exactly one repair retry.

use futures::StreamExt as _;
use serde_json::json;
use vibe_llm::{
    ChatRequest, Delta, LlmSettings, LlmSettingsExt, Message, ToolCall, ToolDef, build_model,
    collect,
};
use vibe_test_support::*;

fn weather_tool() -> ToolDef {
    ToolDef {
        name: "get_weather".into(),
        description: "Current weather for a city".into(),
        parameters: json!({"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}).into(),
    }
}

fn structured(base_url: &str) -> std::sync::Arc<dyn vibe_llm::ChatModel> {
    let settings = LlmSettings::from_section(
        &json!({"base_url": base_url, "model": "tiny", "tool_mode": "structured", "retry_base_ms": 1}),
        "test",
    )
    .unwrap();
    build_model(&settings, None).unwrap().model
}

/// Text split into SSE text chunks of `n` characters.
fn text_stream(text: &str, n: usize) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut events: Vec<_> =
        chars.chunks(n).map(|c| ev_text(&c.iter().collect::<String>())).collect();
    events.push(ev_finish("stop"));
    sse(events)
}

fn first_round() -> ChatRequest {
    let mut r = ChatRequest::new(vec![
        Message::system("You are a coach."),
        Message::user("Weather in Berlin?"),
    ]);
    r.tools.push(weather_tool());
    r
}

#[tokio::test]
async fn a_model_without_tools_completes_a_tool_round_and_streams_the_final_answer() {
    let server = FakeServer::start();
    server.push(Reply::sse(text_stream(
        r#"{"action": {"type": "get_weather", "arguments": {"city": "Berlin"}}}"#,
        7,
    )));
    server.push(Reply::sse(text_stream(
        r#"{"action": {"type": "final_answer", "content": "It is sunny in Berlin today."}}"#,
        6,
    )));
    let model = structured(&server.url());

    let (round1, err) = collect(model.stream(first_round())).await;
    assert_eq!(err, None);
    assert_eq!(
        round1.tool_calls,
        vec![ToolCall {
            id: "call_0".into(),
            name: "get_weather".into(),
            arguments: "{\"city\":\"Berlin\"}".into()
        }]
    );
    assert_eq!(round1.finish_reason.as_deref(), Some("tool_calls"));

    let mut second = first_round();
    second.messages.push(Message::assistant("", round1.tool_calls.clone()));
    second.messages.push(Message::tool("call_0", "sunny, 21°C"));
    let mut stream = model.stream(second);
    let mut texts = Vec::new();
    let mut finish = None;
    while let Some(item) = stream.next().await {
        match item.unwrap() {
            Delta::Text { text } => texts.push(text),
            Delta::Finish { reason } => finish = reason,
            other => panic!("unexpected delta {other:?}"),
        }
    }
    assert!(texts.len() > 2, "the answer should arrive in several deltas, got {texts:?}");
    assert_eq!(texts.concat(), "It is sunny in Berlin today.");
    assert_eq!(finish.as_deref(), Some("stop"));

    let requests = server.requests();
    for r in &requests {
        let body = r.json();
        assert!(body.get("tools").is_none(), "no native tools may be sent");
        assert!(
            body["messages"][0]["content"]
                .as_str()
                .unwrap()
                .contains("- get_weather: Current weather")
        );
    }
    let last = &requests[1].json()["messages"];
    assert_eq!(last[2]["role"], "assistant");
    assert_eq!(last[3]["content"], "Observation from get_weather:\nsunny, 21°C");
}

#[tokio::test]
async fn a_malformed_object_gets_exactly_one_repair_retry() {
    let server = FakeServer::start();
    server.push(Reply::sse(text_stream(
        r#"{"action": {"type": "final_answer", "content": "Hi" "#,
        5,
    )));
    server.push(Reply::sse(text_stream(
        r#"{"action": {"type": "final_answer", "content": "Hello!"}}"#,
        5,
    )));
    let model = structured(&server.url());
    let mut stream = model.stream(first_round());
    let mut restarts = 0;
    let mut acc = vibe_llm::Accumulator::default();
    while let Some(item) = stream.next().await {
        let d = item.unwrap();
        restarts += usize::from(matches!(d, Delta::Restart { .. }));
        acc.push(&d);
    }
    assert_eq!(restarts, 1);
    assert_eq!(acc.response().text, "Hello!");
    let requests = server.requests();
    assert_eq!(requests.len(), 2);
    let repair = &requests[1].json()["messages"];
    let n = repair.as_array().unwrap().len();
    assert_eq!(repair[n - 2]["content"], r#"{"action": {"type": "final_answer", "content": "Hi" "#);
    let said = repair[n - 1]["content"].as_str().unwrap();
    assert!(said.contains("could not be used: the JSON object is incomplete"), "{said}");
}

#[tokio::test]
async fn a_second_malformed_object_becomes_an_unusable_reply_call_not_an_error() {
    let server = FakeServer::start();
    server.push(Reply::sse(text_stream("I think it is sunny.", 4)));
    server.push(Reply::sse(text_stream(r#"{"action": {"type": "teleport"}}"#, 4)));
    let model = structured(&server.url());
    let (response, err) = collect(model.stream(first_round())).await;
    assert_eq!(err, None);
    assert_eq!(server.requests().len(), 2, "exactly one repair retry");
    let [call] = &response.tool_calls[..] else { panic!("{response:?}") };
    assert_eq!(call.name, vibe_llm::UNUSABLE_REPLY);
    let args: serde_json::Value = serde_json::from_str(&call.arguments).unwrap();
    assert!(args["message"].as_str().unwrap().contains("neither a tool"), "{args}");
    assert_eq!(args["reply"], r#"{"action": {"type": "teleport"}}"#);

    // In the next request the model sees what it sent and what was wrong.
    server.push(Reply::sse(text_stream(
        r#"{"action": {"type": "final_answer", "content": "ok"}}"#,
        8,
    )));
    let mut next = first_round();
    next.messages.push(Message::assistant("", response.tool_calls.clone()));
    next.messages
        .push(Message::tool(&call.id, r#"{"status":"error","message":"teleport is not a tool"}"#));
    let (_, err) = collect(model.stream(next)).await;
    assert_eq!(err, None);
    let sent = &server.requests()[2].json()["messages"];
    assert_eq!(sent[2]["content"], r#"{"action": {"type": "teleport"}}"#);
    assert!(
        sent[3]["content"].as_str().unwrap().starts_with("Your previous reply could not be used")
    );
}

#[tokio::test]
async fn the_scripted_model_drives_structured_mode_too() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("script.yaml");
    std::fs::write(
        &path,
        "chunk_chars: 4\nresponses:\n  - text: '{\"action\": {\"type\": \"get_weather\", \"arguments\": {\"city\": \"Oslo\"}}}'\n  - text: '{\"action\": {\"type\": \"final_answer\", \"content\": \"Snow in Oslo.\"}}'\n",
    )
    .unwrap();
    let model = structured(&format!("scripted:{}", path.display()));
    let (r1, _) = collect(model.stream(first_round())).await;
    assert_eq!(r1.tool_calls[0].arguments, "{\"city\":\"Oslo\"}");
    let mut second = first_round();
    second.messages.push(Message::assistant("", r1.tool_calls.clone()));
    second.messages.push(Message::tool(&r1.tool_calls[0].id, "snow"));
    let (r2, err) = collect(model.stream(second)).await;
    assert_eq!(err, None);
    assert_eq!(r2.text, "Snow in Oslo.");
}

#[tokio::test]
async fn local_servers_get_the_action_schema_as_response_format_generic_endpoints_do_not() {
    for (preset, sent) in
        [("llamacpp", true), ("lmstudio", true), ("ollama", true), ("custom", false)]
    {
        let server = FakeServer::start();
        server.push(Reply::sse(text_stream(
            r#"{"action": {"type": "get_weather", "arguments": {"city": "Oslo"}}}"#,
            9,
        )));
        let settings = LlmSettings::from_section(
            &json!({"preset": preset, "base_url": server.url(), "model": "tiny",
                    "tool_mode": "structured", "retry_base_ms": 1}),
            "test",
        )
        .unwrap();
        let model = build_model(&settings, None).unwrap().model;
        let (response, err) = collect(model.stream(first_round())).await;
        assert_eq!(err, None, "{preset}");
        assert_eq!(response.tool_calls[0].name, "get_weather", "{preset}");
        let body = server.requests()[0].json();
        assert!(body.get("tools").is_none(), "{preset}: structured mode sends no native tools");
        let format = &body["response_format"];
        if !sent {
            assert!(body.get("response_format").is_none(), "{preset}: {format}");
            continue;
        }
        assert_eq!(format["type"], "json_schema", "{preset}");
        assert_eq!(format["json_schema"]["name"], "action", "{preset}");
        let branches = &format["json_schema"]["schema"]["properties"]["action"]["anyOf"];
        assert_eq!(branches[0]["properties"]["type"]["const"], "get_weather", "{preset}");
        assert_eq!(branches[0]["properties"]["arguments"], *weather_tool().parameters, "{preset}");
        assert_eq!(branches[1]["properties"]["type"]["const"], "final_answer", "{preset}");
    }
}
