//! The typed error set, retries (only before the first delta, Retry-After honoured),
//! timeouts, and the key never showing up in an error.

use std::time::Duration;

use serde_json::json;
use vibe_llm::{ChatModel as _, LlmSettings, LlmSettingsExt};
use vibe_test_support::*;

use crate::support::*;

fn tuned(server: &FakeServer, extra: serde_json::Value) -> vibe_llm::OpenAiClient {
    let mut section = json!({"base_url": server.url(), "model": "m", "retry_base_ms": 1});
    for (k, v) in extra.as_object().unwrap() {
        section[k] = v.clone();
    }
    client_with(LlmSettings::from_section(&section, "test").unwrap())
}

#[tokio::test]
async fn unauthorized_is_auth_not_retried_and_the_echoed_key_is_redacted() {
    let server = FakeServer::start();
    server.push(Reply::json(
        401,
        &json!({"error": {"message": format!("Incorrect API key provided: {KEY}")}}),
    ));
    let (r, err) = ask(&client(&server)).await;
    let err = err.unwrap();
    assert_eq!(err.kind().as_str(), "auth");
    assert!(err.to_string().contains("[redacted]"));
    assert_no_key(&err);
    assert_eq!(r.text, "");
    assert_eq!(server.requests().len(), 1);
}

#[tokio::test]
async fn forbidden_is_auth_too() {
    let server = FakeServer::start();
    server.push(Reply::json(403, &json!({"error": "forbidden"})));
    let (_, err) = ask(&client(&server)).await;
    assert_eq!(err.map(|e| e.kind().as_str()), Some("auth"));
}

#[tokio::test]
async fn bad_request_carries_the_server_message_and_is_not_retried() {
    let server = FakeServer::start();
    server.push(Reply::json(
        404,
        &json!({"error": {"message": "model \"nope\" not found, try pulling it first"}}),
    ));
    let (_, err) = ask(&client(&server)).await;
    let err = err.unwrap();
    assert_eq!(err.kind().as_str(), "bad_request");
    assert!(err.to_string().contains("model \"nope\" not found"));
    assert_eq!(server.requests().len(), 1);
}

#[tokio::test]
async fn rate_limited_waits_for_retry_after_then_succeeds() {
    let server = FakeServer::start();
    server.push(
        Reply::json(429, &json!({"error": {"message": "slow down"}})).header("Retry-After", "1"),
    );
    server.push(Reply::sse(sse(vec![ev_text("after wait"), ev_finish("stop")])));
    let clock = RecordingClock::new();
    let (r, err) = ask(&client(&server).with_clock(clock.clone())).await;
    assert_eq!(err, None);
    assert_eq!(r.text, "after wait");
    assert_eq!(clock.waits(), [Duration::from_secs(1)], "the wait is the server's Retry-After");
    assert_eq!(server.requests().len(), 2);
}

#[tokio::test]
async fn rate_limited_without_retries_reports_retry_after_at_once() {
    let server = FakeServer::start();
    server.push(
        Reply::json(429, &json!({"error": {"message": "slow down"}})).header("Retry-After", "7"),
    );
    let (_, err) = ask(&tuned(&server, json!({"retries": 0}))).await;
    let err = err.unwrap();
    assert_eq!(err.kind().as_str(), "rate_limited");
    assert_eq!(err.retry_after_s(), Some(7));
    assert_eq!(server.requests().len(), 1);
}

#[tokio::test]
async fn a_retry_after_beyond_the_cap_is_reported_instead_of_waited_for() {
    let server = FakeServer::start();
    server.push(Reply::json(429, &json!({})).header("Retry-After", "3600"));
    let (_, err) = ask(&tuned(&server, json!({"max_retry_wait_s": 5}))).await;
    assert_eq!(err.and_then(|e| e.retry_after_s()), Some(3600));
    assert_eq!(server.requests().len(), 1);
}

#[tokio::test]
async fn server_errors_are_retried_with_backoff_until_attempts_run_out() {
    let server = FakeServer::start();
    for _ in 0..3 {
        server.push(Reply::json(503, &json!({"error": {"message": "overloaded"}})));
    }
    let (_, err) = ask(&client(&server)).await;
    let err = err.unwrap();
    assert_eq!(err.kind().as_str(), "server");
    assert!(err.to_string().contains("overloaded"));
    assert_eq!(server.requests().len(), 3, "default: 2 retries = 3 attempts");
}

#[tokio::test]
async fn a_server_error_then_success_recovers() {
    let server = FakeServer::start();
    server.push(Reply::status(500));
    server.push(Reply::sse(sse(vec![ev_text("fine"), ev_finish("stop")])));
    let (r, err) = ask(&client(&server)).await;
    assert_eq!(err, None);
    assert_eq!(r.text, "fine");
}

#[tokio::test]
async fn an_error_event_before_any_delta_is_retried() {
    let server = FakeServer::start();
    server.push(Reply::sse(sse_frame(vec![ev_role(), ev_error("warming up")])));
    server.push(Reply::sse(sse(vec![ev_text("ready"), ev_finish("stop")])));
    let (r, err) = ask(&client(&server)).await;
    assert_eq!(err, None);
    assert_eq!(r.text, "ready");
}

#[tokio::test]
async fn an_error_event_after_text_keeps_the_text_and_is_not_retried() {
    let server = FakeServer::start();
    server.push(Reply::sse(sse(vec![ev_text("partial "), ev_error("model crashed")])));
    let (r, err) = ask(&client(&server)).await;
    let err = err.unwrap();
    assert_eq!(err.kind().as_str(), "server");
    assert!(err.to_string().contains("model crashed"));
    assert_eq!(r.text, "partial ");
    assert_eq!(server.requests().len(), 1);
}

#[tokio::test]
async fn a_stream_cut_without_done_is_truncated_with_partial_text_kept() {
    let server = FakeServer::start();
    server.push(Reply::sse(sse_frame(vec![ev_role(), ev_text("half an ans")])));
    let (r, err) = ask(&client(&server)).await;
    assert_eq!(err.map(|e| e.kind().as_str()), Some("truncated"));
    assert_eq!(r.text, "half an ans");
    assert_eq!(server.requests().len(), 1);
}

#[tokio::test]
async fn garbage_from_a_wrong_endpoint_is_a_protocol_error() {
    let server = FakeServer::start();
    server.push(Reply::sse("data: <!doctype html>\n\n"));
    let (_, err) = ask(&client(&server)).await;
    assert_eq!(err.map(|e| e.kind().as_str()), Some("protocol"));
    assert_eq!(server.requests().len(), 1);
}

#[tokio::test]
async fn nobody_listening_is_a_network_error() {
    let port = {
        let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        l.local_addr().unwrap().port()
    };
    let settings = LlmSettings::from_section(
        &json!({"base_url": format!("http://127.0.0.1:{port}/v1"), "model": "m", "retries": 0}),
        "test",
    )
    .unwrap();
    let (_, err) = ask(&client_with(settings)).await;
    let err = err.unwrap();
    assert_eq!(err.kind().as_str(), "network");
    assert!(err.to_string().contains(&format!("127.0.0.1:{port}")));
    assert_no_key(&err);
}

#[tokio::test]
async fn first_byte_timeout() {
    let server = FakeServer::start();
    // Silent from the start: no headers, no bytes.
    server.push(Reply::status(200).delay(Duration::from_secs(30)).body("x"));
    let (_, err) = ask(&tuned(&server, json!({"first_byte_timeout_s": 0.3, "retries": 0}))).await;
    let err = err.unwrap();
    assert_eq!(err.kind().as_str(), "timeout");
    assert!(err.to_string().contains("first_byte_timeout_s"));
}

#[tokio::test]
async fn first_byte_timeout_also_covers_headers_followed_by_silence() {
    let server = FakeServer::start();
    // Headers at once, then no body byte for a long time.
    server.push(Reply::sse("").delay(Duration::from_secs(30)).body(sse(vec![ev_text("late")])));
    let (r, err) = ask(&tuned(
        &server,
        json!({"first_byte_timeout_s": 0.3, "idle_timeout_s": 60, "retries": 0}),
    ))
    .await;
    let err = err.unwrap();
    assert_eq!(err.kind().as_str(), "timeout");
    assert!(err.to_string().contains("first_byte_timeout_s"), "{err}");
    assert_eq!(r.text, "");
}

#[tokio::test]
async fn idle_timeout_between_chunks_keeps_what_arrived() {
    let server = FakeServer::start();
    server.push(Reply::sse(sse_frame(vec![ev_text("so far")])).then_hang());
    let (r, err) = ask(&tuned(&server, json!({"idle_timeout_s": 0.3}))).await;
    let err = err.unwrap();
    assert_eq!(err.kind().as_str(), "timeout");
    assert!(err.to_string().contains("idle_timeout_s"));
    assert_eq!(r.text, "so far");
    assert_eq!(server.requests().len(), 1, "no retry after the first delta");
}

#[tokio::test]
async fn timeouts_before_the_first_delta_are_retried() {
    let server = FakeServer::start();
    server.push(Reply::status(200).delay(Duration::from_secs(30)).body("x"));
    server.push(Reply::sse(sse(vec![ev_text("second try"), ev_finish("stop")])));
    let (r, err) = ask(&tuned(&server, json!({"first_byte_timeout_s": 0.3}))).await;
    assert_eq!(err, None);
    assert_eq!(r.text, "second try");
}

#[tokio::test]
async fn the_key_never_appears_in_any_error_kind() {
    let server = FakeServer::start();
    let echo = format!("you sent {KEY}");
    for status in [400, 401, 429, 500] {
        server.push(Reply::json(status, &json!({"error": {"message": echo}})));
    }
    server.push(Reply::sse(sse(vec![ev_text("x"), ev_error(&echo)])));
    let client = tuned(&server, json!({"retries": 0}));
    for _ in 0..5 {
        let (_, err) = ask(&client).await;
        assert_no_key(&err.unwrap());
    }
    assert!(!format!("{:?}", client.endpoint()).contains(KEY));
    let models = client.list_models().await;
    assert!(models.is_err());
}
