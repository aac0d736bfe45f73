//! The embedded model's warm-up through the app (docs/local-model.md#warm-up), with the tiny
//! fixture model (only with the `local-llm` feature; scripts/test.sh runs these in release):
//! opening a conversation warms its prefix up in the background and its first turn's first
//! request reuses it (the engine's counters, per request, as `vibe bench local` reads them);
//! a turn sent while a warm-up runs is answered; a newer conversation's warm-up drops the
//! older one; with `llm.local.warm_up` off nothing is warmed up. (A remote preset:
//! `warm_up.rs`; the engine's side, saved states included: crates/local-llm's tests.)

use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::json;
use vibe_core::app::{App, AppPaths, EphemeralKeys, Injections, LocalWrap, Overrides};
use vibe_llm::measure::{Counts, Log, Recorded, Recorder};
use vibe_llm::{ChatModel, Message};
use vibe_store::LOCAL_USER;
use vibe_wire::StopReason;
use vibe_wire::command::{GetConversationRequest, SendMessageRequest};

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

/// The agent's requests (its tools in the system prompt), not a safety check's.
fn agent_requests(log: &[Recorded]) -> Vec<&Recorded> {
    let agent = |r: &&Recorded| match r.request.messages.first() {
        Some(Message::System { content }) => content.contains("## Tools"),
        _ => false,
    };
    let found: Vec<&Recorded> = log.iter().filter(agent).collect();
    assert!(!found.is_empty(), "the turn asked the model");
    found
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
    let log = log.lock().unwrap();
    let first = &agent_requests(&log)[0].figures;
    let reused = first.reused_tokens.unwrap();
    // Everything of the prefix (the last token or so may be split differently when the
    // person's words follow it).
    assert!(reused + 2 >= again.prefix_tokens && reused < first.prompt_tokens, "{first:?}");
    assert_eq!(first.evaluated_tokens.unwrap() + reused, first.prompt_tokens, "{first:?}");
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
    let log = log.lock().unwrap();
    let first = &agent_requests(&log)[0].figures;
    assert!(first.error.is_none() && first.generated_tokens > 0, "{first:?}");
    assert_eq!(first.evaluated_tokens.unwrap() + first.reused_tokens.unwrap(), first.prompt_tokens);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn local_model_warm_up_setting_off_warms_nothing() {
    let _engine = ENGINE.lock().await;
    let dir = tempfile::tempdir().unwrap();
    let (app, _log) = recorded(dir.path());
    set(&app, &[("llm.local.warm_up", json!(false))]);
    let before = warm_ups();
    let id = conversation(&app);
    open_conversation(&app, &id);
    assert_eq!(app.warming_up(), None);
    assert_eq!(app.warm_up(Some(&id)).await.unwrap(), None);
    app.warm_up_at_start(None);
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(warm_ups(), before, "no warm-up reached the engine");
}
