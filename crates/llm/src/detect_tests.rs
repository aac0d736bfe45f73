use std::time::Duration;

use vibe_test_support::{FakeServer, Reply};

use super::*;

const T: Duration = Duration::from_secs(5);

#[tokio::test]
async fn a_server_listing_models_is_found_with_its_models() {
    let server = FakeServer::start();
    server.push(Reply::models(&["qwen3:8b", "llama3.2"]));
    let found = probe("ollama", "Ollama", &server.url(), T).await;
    let found = found.unwrap_or_else(|| panic!("the fake server was not detected"));
    assert_eq!(found.preset, "ollama");
    assert_eq!(found.base_url, server.url());
    assert_eq!(found.models, ["qwen3:8b", "llama3.2"]);
    assert_eq!(server.requests()[0].path, "/v1/models");
}

#[tokio::test]
async fn nothing_listening_is_not_found() {
    // Bind then drop: the port is free and refuses connections.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .unwrap_or_else(|e| panic!("bind: {e}"));
    assert_eq!(
        probe("lmstudio", "LM Studio", &format!("http://127.0.0.1:{port}/v1"), T).await,
        None
    );
}

#[tokio::test]
async fn a_server_that_is_not_openai_compatible_is_not_found() {
    let server = FakeServer::start();
    server.push(Reply::status(404));
    assert_eq!(probe("ollama", "Ollama", &server.url(), T).await, None);
    let server = FakeServer::start();
    server.push(Reply::status(200).body("<html>hello</html>"));
    assert_eq!(probe("ollama", "Ollama", &server.url(), T).await, None);
}

#[test]
fn only_the_local_presets_are_probed_and_they_are_loopback() {
    for id in LOCAL_PRESETS {
        let preset = PRESETS.iter().find(|p| p.id == *id);
        let preset = preset.unwrap_or_else(|| panic!("no preset {id}"));
        assert!(preset.base_url.starts_with("http://127.0.0.1:"), "{}", preset.base_url);
    }
}
