//! The app's local model commands over a real data dir and the file server on 127.0.0.1:
//! a pull streams `model_download_*` events to its sink and ends verified and in place; a
//! cancel from another task stops it (the partial file stays) and the next pull resumes; a
//! failed pull says why in its last event; `use_model` selects the `local` preset; a
//! catalogue setting is overridden by the environment's.

use std::sync::Arc;
use std::time::Duration;

use serde_json::json;
use vibe_core::app::{App, Overrides};
use vibe_runlog::emit::ChannelSink;
use vibe_test_support::FileServer;
use vibe_wire::command::{Hint, LocalModelRequest, SettingChange, UpdateSettingsRequest};
use vibe_wire::{Envelope, ErrorKind, Event};

use crate::app::open;

const ID: &str = "tiny-q8_0";

fn model_bytes(len: usize) -> Vec<u8> {
    let mut bytes = b"GGUF".to_vec();
    bytes.extend((0..len - 4).map(|i| (i * 131 % 253) as u8));
    bytes
}

fn sha256(bytes: &[u8]) -> String {
    use sha2::Digest as _;
    hex::encode(sha2::Sha256::digest(bytes))
}

/// A catalogue file with one entry served by `server` (its checksum `sha`).
fn catalog(dir: &std::path::Path, server: &FileServer, bytes: &[u8], sha: &str) -> String {
    let entry = json!({
        "id": ID, "name": "Tiny", "parameters": "100K", "quantization": "Q8_0",
        "url": server.url("/tiny.gguf"), "size_bytes": bytes.len(), "sha256": sha,
        "license": "MIT", "context_length": 256, "ram_bytes": 1_000_000
    });
    let path = dir.join("catalog.json");
    std::fs::write(&path, json!({ "models": [entry] }).to_string()).unwrap();
    path.display().to_string()
}

fn app_with_catalog(dir: &std::path::Path, location: String) -> Arc<App> {
    open(&dir.join("data"), Overrides { models_catalog: Some(location), ..Overrides::default() })
}

fn sink() -> (Arc<ChannelSink>, tokio::sync::mpsc::UnboundedReceiver<Envelope>) {
    let (tx, rx) = tokio::sync::mpsc::unbounded_channel();
    (Arc::new(ChannelSink(tx)), rx)
}

fn drain(rx: &mut tokio::sync::mpsc::UnboundedReceiver<Envelope>) -> Vec<Event> {
    let mut events = Vec::new();
    while let Ok(env) = rx.try_recv() {
        assert_eq!(env.run_id, "", "downloads are outside any run");
        events.push(env.event);
    }
    events
}

#[tokio::test]
async fn a_pull_streams_progress_then_the_model_is_listed_and_used() {
    let dir = tempfile::tempdir().unwrap();
    let server = FileServer::start();
    let bytes = model_bytes(400_000);
    server.serve("/tiny.gguf", bytes.clone());
    let app = app_with_catalog(dir.path(), catalog(dir.path(), &server, &bytes, &sha256(&bytes)));

    let (sink, mut rx) = sink();
    let pulled = app.pull_model(&LocalModelRequest { id: ID.into() }, sink).await.unwrap();
    assert_eq!(pulled.model.sha256.as_deref(), Some(sha256(&bytes).as_str()));
    let events = drain(&mut rx);
    let received: Vec<u64> = events
        .iter()
        .filter_map(|e| match e {
            Event::ModelDownloadProgress { received, total, .. } => {
                assert_eq!(*total, bytes.len() as u64);
                Some(*received)
            }
            _ => None,
        })
        .collect();
    assert!(received.len() >= 3 && received.windows(2).all(|w| w[0] <= w[1]), "{received:?}");
    assert_eq!(received.last(), Some(&(bytes.len() as u64)));
    assert!(matches!(events.last(), Some(Event::ModelDownloadFinished { id, .. }) if id == ID));

    let list = app.list_local_models().await.unwrap();
    assert!(list.catalog[0].installed && !list.catalog[0].downloading);
    assert_eq!(list.installed[0].path, app.installed_model_path(ID).unwrap().display().to_string());
    assert_eq!(list.in_use, None);

    let used = app.use_model(&LocalModelRequest { id: ID.into() }).unwrap();
    assert!(used.model.in_use);
    let llm = app.settings().llm;
    assert_eq!((llm.preset.as_deref(), llm.model.as_deref()), (Some("local"), Some(ID)));
    assert_eq!(app.list_local_models().await.unwrap().in_use.as_deref(), Some(ID));
}

#[tokio::test]
async fn a_cancelled_pull_keeps_its_part_and_the_next_one_resumes() {
    let dir = tempfile::tempdir().unwrap();
    let server = FileServer::start();
    let bytes = model_bytes(2_000_000);
    server.serve("/tiny.gguf", bytes.clone()).stall_next_after(100_000);
    let app = app_with_catalog(dir.path(), catalog(dir.path(), &server, &bytes, &sha256(&bytes)));

    // Cancel from another task once the first bytes are in (the server then holds the
    // download in flight, so the cancel always finds it running).
    let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel::<Envelope>();
    let canceller = app.clone();
    let watcher = tokio::spawn(async move {
        let mut seen = Vec::new();
        let mut asked = false;
        while let Some(env) = rx.recv().await {
            let started =
                matches!(env.event, Event::ModelDownloadProgress { received, .. } if received > 0);
            if started && !asked {
                asked = true;
                let answer = canceller.cancel_model_download(&LocalModelRequest { id: ID.into() });
                assert!(answer.cancelled);
            }
            seen.push(env.event);
        }
        seen
    });
    let err = app
        .pull_model(&LocalModelRequest { id: ID.into() }, Arc::new(ChannelSink(tx)))
        .await
        .err()
        .unwrap();
    assert_eq!(err.kind(), ErrorKind::Cancelled);
    let seen = tokio::time::timeout(Duration::from_secs(10), watcher).await.unwrap().unwrap();
    let Some(Event::ModelDownloadFailed { error, .. }) = seen.last() else {
        panic!("no failure event: {seen:?}")
    };
    assert_eq!(error.kind, ErrorKind::Cancelled);
    let list = app.list_local_models().await.unwrap();
    let kept = list.catalog[0].partial_bytes.unwrap();
    assert!(kept > 0 && !list.catalog[0].installed);

    let (sink, _rx) = sink();
    let pulled = app.pull_model(&LocalModelRequest { id: ID.into() }, sink).await.unwrap();
    assert_eq!(pulled.resumed_from, kept);
    assert_eq!(std::fs::read(app.installed_model_path(ID).unwrap()).unwrap(), bytes);
}

#[tokio::test]
async fn a_wrong_checksum_ends_in_a_failure_event_and_nothing_to_use() {
    let dir = tempfile::tempdir().unwrap();
    let server = FileServer::start();
    let bytes = model_bytes(50_000);
    server.serve("/tiny.gguf", bytes.clone());
    let app = app_with_catalog(dir.path(), catalog(dir.path(), &server, &bytes, &sha256(b"other")));
    let (sink, mut rx) = sink();
    let err = app.pull_model(&LocalModelRequest { id: ID.into() }, sink).await.err().unwrap();
    assert_eq!(err.kind(), ErrorKind::ChecksumMismatch);
    let events = drain(&mut rx);
    assert!(
        matches!(events.last(), Some(Event::ModelDownloadFailed { error, .. }) if error.kind == ErrorKind::ChecksumMismatch)
    );
    let err = app.use_model(&LocalModelRequest { id: ID.into() }).err().unwrap();
    assert_eq!(err.kind(), ErrorKind::NotFound);
    assert_eq!(err.to_command_error().hint, Some(Hint::LocalModel { id: ID.into() }));
    assert_eq!(app.settings().llm.preset, None, "a failed use changes no setting");
}

#[tokio::test]
async fn the_catalogue_setting_is_read_and_the_environment_wins() {
    let dir = tempfile::tempdir().unwrap();
    let server = FileServer::start();
    let bytes = model_bytes(10_000);
    let from_settings = catalog(dir.path(), &server, &bytes, &sha256(&bytes));
    let app = open(&dir.path().join("data"), Overrides::default());
    assert_eq!(app.list_local_models().await.unwrap().catalog_source, "shipped");
    let change = SettingChange { key: "models.catalog".into(), value: json!(from_settings) };
    app.update_settings(UpdateSettingsRequest { changes: vec![change] }).unwrap();
    assert_eq!(app.list_local_models().await.unwrap().catalog_source, from_settings);

    let typo = SettingChange { key: "models.catalogue".into(), value: json!("x") };
    let err = app.update_settings(UpdateSettingsRequest { changes: vec![typo] }).err().unwrap();
    assert!(err.to_string().contains("unknown key \"models.catalogue\""), "{err}");

    let env =
        Overrides::from_env_with(|k| (k == "VIBE_MODELS_CATALOG").then(|| "/nowhere.json".into()));
    let app = open(&dir.path().join("data2"), env);
    let list = app.list_local_models().await.unwrap();
    let err = list.catalog_error.unwrap();
    assert!(err.message.contains("/nowhere.json"), "{err:?}");
    assert_eq!(err.kind, ErrorKind::Config);
    assert!(list.catalog.is_empty());
    let err = app.pull_model(&LocalModelRequest { id: ID.into() }, sink().0).await.err().unwrap();
    assert_eq!(err.kind(), ErrorKind::Config, "a pull needs the catalogue: {err}");
}
