//! Retry-After on every retryable status, proven with a recording clock: the client waits
//! exactly what the server asked (seconds or an HTTP date), and reports the error instead of
//! waiting beyond `max_retry_wait_s`.

use std::time::Duration;

use serde_json::json;
use vibe_llm::{LlmSettings, LlmSettingsExt};
use vibe_test_support::*;

use crate::support::*;

fn unavailable(retry_after: &str) -> Reply {
    Reply::json(503, &json!({"error": {"message": "loading the model"}}))
        .header("Retry-After", retry_after)
}

#[tokio::test]
async fn a_503_with_retry_after_seconds_waits_that_long_then_retries() {
    let server = FakeServer::start();
    server.push(unavailable("30"));
    server.push(Reply::sse(sse(vec![ev_text("ready"), ev_finish("stop")])));
    let clock = RecordingClock::new();
    let (r, err) = ask(&client(&server).with_clock(clock.clone())).await;
    assert_eq!(err, None);
    assert_eq!(r.text, "ready");
    assert_eq!(clock.waits(), [Duration::from_secs(30)]);
    assert_eq!(server.requests().len(), 2);
}

#[tokio::test]
async fn a_retry_after_http_date_is_counted_from_the_clock() {
    let server = FakeServer::start();
    // The clock stands at 07:28:00 GMT.
    server.push(unavailable("Wed, 21 Oct 2026 07:28:45 GMT"));
    server.push(Reply::sse(sse(vec![ev_text("ready"), ev_finish("stop")])));
    let clock = RecordingClock::new();
    let (_, err) = ask(&client(&server).with_clock(clock.clone())).await;
    assert_eq!(err, None);
    assert_eq!(clock.waits(), [Duration::from_secs(45)]);
}

#[tokio::test]
async fn a_retry_after_beyond_the_cap_on_a_503_is_reported_not_waited_for() {
    let server = FakeServer::start();
    server.push(unavailable("3600"));
    let settings = LlmSettings::from_section(
        &json!({"base_url": server.url(), "model": "m", "max_retry_wait_s": 60}),
        "test",
    )
    .unwrap();
    let clock = RecordingClock::new();
    let (_, err) = ask(&client_with(settings).with_clock(clock.clone())).await;
    let err = err.unwrap();
    assert_eq!(err.kind().as_str(), "server");
    assert_eq!(err.retry_after_s(), Some(3600));
    assert!(err.to_string().contains("retry after 3600 s"), "{err}");
    assert_eq!(clock.waits(), []);
    assert_eq!(server.requests().len(), 1);
}

#[tokio::test]
async fn without_retry_after_the_jittered_backoff_doubles() {
    let server = FakeServer::start();
    server.push(Reply::status(502));
    server.push(Reply::status(503));
    server.push(Reply::sse(sse(vec![ev_text("ok"), ev_finish("stop")])));
    let settings = LlmSettings::from_section(
        &json!({"base_url": server.url(), "model": "m", "retry_base_ms": 1000}),
        "test",
    )
    .unwrap();
    let clock = RecordingClock::new();
    let (_, err) = ask(&client_with(settings).with_clock(clock.clone())).await;
    assert_eq!(err, None);
    let waits = clock.waits();
    assert_eq!(waits.len(), 2);
    let ms: Vec<u128> = waits.iter().map(Duration::as_millis).collect();
    assert!((500..=1000).contains(&ms[0]) && (1000..=2000).contains(&ms[1]), "{ms:?}");
}
