//! The embedded model's warm-up through the app (docs/local-model.md#warm-up; tiny fixture
//! model, `local-llm` feature): opening a conversation warms it up in the background and its
//! first turn's first request reuses it (the engine's counters per request, as `vibe bench
//! local`); a turn during a warm-up is answered; a newer conversation drops the older one's;
//! `llm.local.warm_up` off warms nothing. (Remote presets: `warm_up.rs`.)

use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::json;
use vibe_core::app::{App, AppPaths, EphemeralKeys, Injections, LocalWrap, Overrides};
use vibe_llm::measure::{Counts, Log, Recorded, Recorder, RequestFigures};
use vibe_llm::{ChatModel, Message};
use vibe_store::LOCAL_USER;
use vibe_wire::StopReason;
use vibe_wire::command::{ExportAllRequest, GetConversationRequest, SendMessageRequest};

use crate::app::{set, sink};
use crate::local_model::{ENGINE, fixture, local};

fn counts() -> Option<Counts> {
    vibe_local_llm::shared_model_stats().map(|s| Counts {
        evaluated: s.prompt_tokens_evaluated,
        reused: s.prompt_tokens_reused,
        states_loaded: s.states_loaded,
    })
}

/// An app on the tiny model whose requests are recorded with the engine's figures.
fn recorded(dir: &Path) -> (Arc<App>, Log) {
    let log: Log = Arc::new(Mutex::new(Vec::new()));
    let wrap: LocalWrap = {
        let log = log.clone();
        Arc::new(move |inner| {
            Arc::new(Recorder::new(inner, log.clone(), Arc::new(counts))) as Arc<dyn ChatModel>
        })
    };
    let injections = Injections { local_wrap: Some(wrap), ..Injections::default() };
    let app = App::open_injected(
        AppPaths::new(dir),
        // The desktop app's kind of host: conversations opened are warmed up.
        Overrides { long_lived: true, ..Overrides::default() },
        Arc::new(EphemeralKeys::default()),
        injections,
    )
    .unwrap();
    local(&app, fixture().to_str().unwrap());
    (Arc::new(app), log)
}

fn conversation(app: &App) -> String {
    app.store().create_conversation(LOCAL_USER, Some("warm")).unwrap().id
}

fn open_conversation(app: &App, id: &str) {
    app.get_conversation(&GetConversationRequest { id: id.to_string() }).unwrap();
}

/// Wait for the background warm-up to end.
async fn settled(app: &App) {
    let started = Instant::now();
    while app.warming_up().is_some() {
        assert!(started.elapsed() < Duration::from_secs(300), "the warm-up never ended");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// The figures of the turn's first agent request (its tools in the system prompt), not a
/// safety check's.
fn first_agent_request(log: &[Recorded]) -> RequestFigures {
    let agent = |r: &&Recorded| matches!(r.request.messages.first(), Some(Message::System { content }) if content.contains("## Tools"));
    log.iter().find(agent).expect("the turn asked the model").figures.clone()
}

fn warm_ups() -> u64 {
    vibe_local_llm::shared_model_stats().map_or(0, |s| s.warm_ups)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn local_model_warm_up_on_opening_a_conversation_lets_its_first_turn_reuse_the_prefix() {
    let _engine = ENGINE.lock().await;
    let dir = tempfile::tempdir().unwrap();
    let (app, log) = recorded(dir.path());
    let id = conversation(&app);
    open_conversation(&app, &id);
    assert_eq!(app.warming_up(), Some(Some(id.clone())), "started in the background");
    settled(&app).await;
    assert_eq!(warm_ups(), 1);
    // Asked again, the prefix is all in the cache: the background warm-up did the work.
    let again = app.warm_up(Some(&id)).await.unwrap().expect("the local preset warms up");
    assert!(again.prefix_tokens > 100, "{again:?}");
    assert_eq!((again.evaluated_tokens, again.reused_tokens), (0, again.prefix_tokens));
    assert!(log.lock().unwrap().is_empty(), "a warm-up is no request");

    let (sink, _events) = sink();
    app.send_message(SendMessageRequest::say(Some(id), "我最近总熬夜"), sink).await.unwrap();
    let first = first_agent_request(&log.lock().unwrap());
    let reused = first.reused_tokens.unwrap();
    // Everything of the prefix (the last token or so may be split differently when the
    // person's words follow it).
    assert!(reused + 2 >= again.prefix_tokens && reused < first.prompt_tokens, "{first:?}");
    assert_eq!(first.evaluated_tokens.unwrap() + reused, first.prompt_tokens, "{first:?}");

    // An export reads every conversation without opening one: it warms nothing up (it would
    // evict the open conversation's prefix for the last one exported).
    settled(&app).await;
    let out = dir.path().join("export");
    let request = ExportAllRequest { out: out.display().to_string() };
    let exported = app.export_all(&request).unwrap();
    assert!(exported.files.iter().any(|f| f.starts_with("conversations/")), "{exported:?}");
    assert_eq!(app.warming_up(), None, "the export started no warm-up");

    // The setting off: nothing is warmed up.
    let before = warm_ups();
    set(&app, &[("llm.local.warm_up", json!(false))]);
    open_conversation(&app, &conversation(&app));
    assert_eq!(app.warming_up(), None);
    assert_eq!(app.warm_up(None).await.unwrap(), None);
    app.warm_up_at_start(None);
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(warm_ups(), before, "no warm-up reached the engine");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn local_model_turn_during_a_warm_up_is_answered_and_a_newer_conversation_drops_it() {
    let _engine = ENGINE.lock().await;
    let dir = tempfile::tempdir().unwrap();
    let (app, log) = recorded(dir.path());
    let (a, b) = (conversation(&app), conversation(&app));
    open_conversation(&app, &a);
    open_conversation(&app, &b);
    assert_eq!(app.warming_up(), Some(Some(b.clone())), "A's warm-up dropped for B's");
    // B's turn at once: it waits for B's warm-up (the same prefix) and is answered as always.
    let (sink, _events) = sink();
    let done =
        app.send_message(SendMessageRequest::say(Some(b.clone()), "我最近总熬夜"), sink).await;
    let done = done.unwrap();
    assert_eq!(done.stop_reason, StopReason::RepeatedToolFailure, "as without a warm-up");
    assert!(!done.text.is_empty());
    settled(&app).await;
    let first = first_agent_request(&log.lock().unwrap());
    // (Its engine figures may include the warm-up's, which ran while it waited.)
    assert!(first.error.is_none() && first.generated_tokens > 0, "{first:?}");
}
