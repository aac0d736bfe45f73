//! The `local` preset end to end (only with the `local-llm` feature; scripts/test.sh runs
//! these in release): settings name the tiny fixture model of crates/local-llm by its
//! absolute path or as an installed model id, and a turn runs through the agent with it in
//! structured-action mode. The model's weights are random, so the tests check the mechanics
//! (the model was asked, its unusable replies became error observations, the run ended
//! within its budgets), not words.

use std::path::PathBuf;
use std::sync::Arc;

use serde_json::{Value, json};
use tokio::sync::mpsc;
use vibe_core::app::{App, MODELS_DIR, Overrides};
use vibe_runlog::emit::ChannelSink;
use vibe_wire::command::{SendMessageRequest, SettingChange, UpdateSettingsRequest};
use vibe_wire::{Event, StopReason};

use crate::app::open;

/// The engine keeps the last model loaded once per process (`vibe_local_llm::shared_model`), and
/// tests read its counters: tests that run it take this lock.
pub(crate) static ENGINE: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

pub(crate) fn fixture() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../local-llm/tests/fixtures/tiny-q8_0.gguf")
}

fn set(app: &App, changes: &[(&str, Value)]) {
    let changes =
        changes.iter().map(|(k, v)| SettingChange { key: (*k).into(), value: v.clone() }).collect();
    app.update_settings(UpdateSettingsRequest { changes }).unwrap();
}

pub(crate) fn local(app: &App, model: &str) {
    set(
        app,
        &[
            ("llm.preset", json!("local")),
            ("llm.model", json!(model)),
            ("llm.temperature", json!(0.0)),
            ("llm.max_tokens", json!(40)),
            ("llm.local.threads", json!(1)),
        ],
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn local_model_by_path_runs_an_agent_turn_in_structured_mode() {
    let _engine = ENGINE.lock().await;
    let dir = tempfile::tempdir().unwrap();
    let app = open(dir.path(), Overrides::default());
    local(&app, fixture().to_str().unwrap());

    let (tx, mut rx) = mpsc::unbounded_channel();
    let sink = Arc::new(ChannelSink(tx));
    let done = app.send_message(SendMessageRequest::say(None, "我最近总熬夜"), sink).await.unwrap();
    let mut events = Vec::new();
    while let Ok(envelope) = rx.try_recv() {
        events.push(envelope.event);
    }
    let requests = events.iter().filter(|e| matches!(e, Event::ModelRequest { .. })).count();
    let unusable: Vec<bool> = events
        .iter()
        .filter_map(|e| match e {
            Event::ToolResult { name, is_error, .. } if name == vibe_llm::UNUSABLE_REPLY => {
                Some(*is_error)
            }
            _ => None,
        })
        .collect();
    // Offered only `use_skill` (free text), greedy decoding answers: constrained decoding makes
    // each reply the start of a JSON action, but random weights never close its string, so
    // `max_tokens` cuts it. Each reply, after its repair retry, came back to the agent as an
    // error observation, and the run stopped at its guard with a closing answer. (A real tool
    // call with this model: crates/cli/tests/all/local_model.rs.)
    assert!(requests >= 2, "{requests} model requests");
    assert!(!unusable.is_empty() && unusable.iter().all(|e| *e), "{unusable:?}");
    assert_eq!(done.stop_reason, StopReason::RepeatedToolFailure);
    assert!(!done.text.is_empty(), "the person still hears something");
    // No usage to assert here: the structured adapter drops each gibberish answer as soon as
    // it cannot be JSON, before the engine's closing usage delta (the engine's own tests check
    // its token counts).
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn local_model_by_installed_id_is_found_in_the_models_folder_and_a_missing_one_says_how_to_install_it()
 {
    let _engine = ENGINE.lock().await;
    let dir = tempfile::tempdir().unwrap();
    let app = open(dir.path(), Overrides::default());
    local(&app, "tiny-test");
    let err = app.model().err().unwrap();
    assert_eq!(err.kind(), vibe_wire::ErrorKind::NotFound);
    assert!(err.to_string().contains("no installed model \"tiny-test\""), "{err}");
    assert_eq!(
        err.to_command_error().hint,
        Some(vibe_wire::command::Hint::LocalModel { id: "tiny-test".into() })
    );

    std::fs::create_dir_all(dir.path().join(MODELS_DIR)).unwrap();
    std::fs::copy(fixture(), dir.path().join(MODELS_DIR).join("tiny-test.gguf")).unwrap();
    let (model, _) = app.model().unwrap();
    assert_eq!(model.model_name(), "tiny-test");
    assert_eq!(model.list_models().await.unwrap()[0].id, "tiny-test");
}
