//! Secrets never leave through what the client says, and a model request never follows a
//! redirect to another host: real HTTP against the fake server (docs/llm.md "Secrets").

use base64::Engine as _;
use serde_json::json;
use vibe_llm::{ChatModel as _, LlmSettings, LlmSettingsExt};
use vibe_test_support::*;

use crate::support::*;

fn settings_for(base_url: &str) -> LlmSettings {
    LlmSettings::from_section(
        &json!({"base_url": base_url, "model": "m", "retries": 0, "retry_base_ms": 1}),
        "test",
    )
    .unwrap()
}

fn hello_stream() -> Reply {
    Reply::sse(sse(vec![ev_role(), ev_text("hello there"), ev_finish("stop")]))
}

#[tokio::test]
async fn a_server_echoing_the_key_percent_encoded_or_in_base64_gets_it_redacted() {
    let server = FakeServer::start();
    let encoded: String = KEY.bytes().map(|b| format!("%{b:02X}")).collect();
    let b64 = base64::engine::general_purpose::STANDARD.encode(KEY);
    let basic = base64::engine::general_purpose::STANDARD.encode(format!(":{KEY}"));
    let echo =
        format!("key {encoded} / {} / {b64} / Basic {basic} is not valid", encoded.to_lowercase());
    server.push(Reply::json(401, &json!({"error": {"message": echo}})));
    let (_, err) = ask(&client(&server)).await;
    let err = err.unwrap();
    let text = err.to_string();
    for form in [encoded.as_str(), &encoded.to_lowercase(), &b64, &basic, KEY] {
        assert!(!text.contains(form), "{form} leaked in {text}");
    }
    assert_eq!(text.matches("[redacted]").count(), 4, "{text}");
    assert_no_key(&err);
}

#[tokio::test]
async fn url_userinfo_and_query_tokens_never_reach_an_error() {
    let server = FakeServer::start();
    let base =
        format!("http://amy:pw-Hidden-77@{}/v1?api-version=9&key=qtok-Hidden-55", server.addr());
    server.push(Reply::json(
        500,
        &json!({"error": {"message": format!("upstream failed for {base} (pw-Hidden-77, qtok-Hidden-55)")}}),
    ));
    let client = client_with(settings_for(&base));
    let (_, err) = ask(&client).await;
    let text = format!("{} {:?}", err.as_ref().unwrap(), err.as_ref().unwrap());
    assert!(!text.contains("pw-Hidden-77") && !text.contains("qtok-Hidden-55"), "{text}");
    assert!(text.contains("api-version=9"), "the harmless part stays: {text}");
    // The request itself went to the path before the query, with the query kept.
    let sent = server.requests();
    assert_eq!(sent[0].path, "/v1/chat/completions?api-version=9&key=qtok-Hidden-55");
    assert!(sent[0].header("authorization").is_some());

    server.push(Reply::status(404));
    let err = client.list_models().await.unwrap_err();
    let text = format!("{err} {err:?}");
    assert!(!text.contains("pw-Hidden-77") && !text.contains("qtok-Hidden-55"), "{text}");
    assert_eq!(server.requests()[1].path, "/v1/models?api-version=9&key=qtok-Hidden-55");
}

#[tokio::test]
async fn an_unreachable_url_with_userinfo_is_named_without_it() {
    // Bind then drop a listener: the port is (almost surely) closed.
    let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let base = format!("http://amy:pw-Hidden-77@127.0.0.1:{port}/v1?token=qtok-Hidden-55");
    let (_, err) = ask(&client_with(settings_for(&base))).await;
    let err = err.unwrap();
    let text = format!("{err} {err:?}");
    assert_eq!(err.kind().as_str(), "network", "{text}");
    assert!(!text.contains("pw-Hidden-77") && !text.contains("qtok-Hidden-55"), "{text}");
    assert!(text.contains(&format!("127.0.0.1:{port}")), "{text}");
}

#[tokio::test]
async fn a_redirect_to_another_host_is_refused_and_that_host_gets_nothing() {
    let first = FakeServer::start();
    let other = FakeServer::start();
    other.push(hello_stream());
    first.push(Reply::status(307).header("location", &format!("{}/chat/completions", other.url())));
    let (r, err) = ask(&client(&first)).await;
    let err = err.expect("a cross-host redirect is an error");
    let text = err.to_string();
    assert_eq!(err.kind().as_str(), "config", "{text}");
    assert!(text.contains(&format!("http://{}", first.addr())), "names the endpoint: {text}");
    assert!(text.contains(&format!("http://{}", other.addr())), "names the other host: {text}");
    assert_eq!(r.text, "");
    assert!(other.requests().is_empty(), "the other host got {:?}", other.requests());
    assert_no_key(&err);
    assert_eq!(first.requests().len(), 1, "not retried");
}

#[tokio::test]
async fn a_redirect_on_the_same_host_is_followed_with_the_key() {
    let server = FakeServer::start();
    server.push(Reply::status(308).header("location", "/v2/chat/completions"));
    server.push(hello_stream());
    let (r, err) = ask(&client(&server)).await;
    assert!(err.is_none(), "{err:?}");
    assert_eq!(r.text, "hello there");
    let sent = server.requests();
    assert_eq!(sent[1].path, "/v2/chat/completions");
    assert_eq!(sent[1].header("authorization"), Some(format!("Bearer {KEY}").as_str()));
}
