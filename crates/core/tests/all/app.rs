//! The app facade end to end: a real data dir, a real SQLite file, the real settings file and
//! the fake OpenAI-compatible server over HTTP. Turns stream to a channel sink; cancels and
//! approvals come from other tasks, as the desktop shell sends them.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use serde_json::{Value, json};
use tokio::sync::mpsc;
use vibe_core::app::{App, AppError, AppPaths, KeyStore, Overrides};
use vibe_llm::ApiKey;
use vibe_runlog::emit::ChannelSink;
use vibe_test_support::{FakeServer, Reply, ev_finish, ev_text, ev_tool_call, sse, sse_frame};
use vibe_wire::command::{
    ApiKeyRequest, CancelRunRequest, DeleteConversationRequest, GetConversationRequest, Hint,
    ListModelsRequest, MessageRole, RenameConversationRequest, ResolveApprovalRequest,
    SearchConversationsRequest, SendMessageRequest, SetApiKeyRequest, SettingChange,
    TestConnectionRequest, UpdateSettingsRequest,
};
use vibe_wire::{Envelope, Event, StopReason};

/// Keys kept in memory instead of the OS keychain (no keychain service on a test machine):
/// API keys, and the database key of each data dir.
#[derive(Default)]
struct MemoryKeys(Mutex<HashMap<String, String>>, vibe_core::app::EphemeralKeys);

impl KeyStore for MemoryKeys {
    fn get(&self, base_url: &str) -> Option<ApiKey> {
        self.0.lock().unwrap().get(base_url).map(|k| ApiKey::new(k.clone()))
    }
    fn set(&self, base_url: &str, key: &ApiKey) -> Result<(), AppError> {
        self.0.lock().unwrap().insert(base_url.into(), key.expose().into());
        Ok(())
    }
    fn clear(&self, base_url: &str) -> Result<(), AppError> {
        self.0.lock().unwrap().remove(base_url);
        Ok(())
    }
    fn get_db_key(&self, account: &str) -> Result<Option<zeroize::Zeroizing<String>>, AppError> {
        self.1.get_db_key(account)
    }
    fn set_db_key(&self, account: &str, hex: &str) -> Result<(), AppError> {
        self.1.set_db_key(account, hex)
    }
}

pub(crate) fn open(dir: &std::path::Path, overrides: Overrides) -> Arc<App> {
    Arc::new(
        App::open_with_keys(AppPaths::new(dir), overrides, Arc::new(MemoryKeys::default()))
            .unwrap(),
    )
}

pub(crate) fn set(app: &App, changes: &[(&str, Value)]) {
    let changes =
        changes.iter().map(|(k, v)| SettingChange { key: (*k).into(), value: v.clone() }).collect();
    app.update_settings(UpdateSettingsRequest { changes }).unwrap();
}

pub(crate) fn endpoint(app: &App, url: &str) {
    set(app, &[("llm.base_url", json!(url)), ("llm.model", json!("test-model"))]);
}

pub(crate) fn sink() -> (Arc<ChannelSink>, mpsc::UnboundedReceiver<Envelope>) {
    let (tx, rx) = mpsc::unbounded_channel();
    (Arc::new(ChannelSink(tx)), rx)
}

#[tokio::test]
async fn a_turn_streams_through_the_app_and_its_conversation_is_managed_by_commands() {
    let server = FakeServer::start();
    server.push(Reply::sse(sse(vec![ev_text("你好，"), ev_text("我在。"), ev_finish("stop")])));
    let dir = tempfile::tempdir().unwrap();
    let app = open(dir.path(), Overrides::default());
    endpoint(&app, &server.url());

    let (sink, mut events) = sink();
    let done = app.send_message(SendMessageRequest::say(None, "今天好累"), sink).await.unwrap();
    assert_eq!(done.stop_reason, StopReason::Completed);
    assert_eq!(done.text, "你好，我在。");
    let mut types = Vec::new();
    while let Ok(e) = events.try_recv() {
        assert_eq!(e.run_id, done.run_id);
        types.push(serde_json::to_value(&e.event).unwrap()["type"].as_str().unwrap().to_string());
    }
    assert_eq!(types.first().map(String::as_str), Some("run_started"));
    assert_eq!(types.last().map(String::as_str), Some("run_finished"));
    assert!(types.iter().any(|t| t == "assistant_delta"));
    assert!(app.running().is_empty(), "a finished run is no longer cancellable");

    let list = app.list_conversations().unwrap().conversations;
    assert_eq!(list.len(), 1);
    assert_eq!(list[0].id, done.conversation_id);
    let id = done.conversation_id.clone();
    let detail = app.get_conversation(&GetConversationRequest { id: id.clone() }).unwrap();
    let said: Vec<_> = detail.messages.iter().map(|m| (m.role, m.content.as_str())).collect();
    assert_eq!(said, [(MessageRole::User, "今天好累"), (MessageRole::Assistant, "你好，我在。")]);

    let renamed = app
        .rename_conversation(&RenameConversationRequest {
            id: id.clone(), title: " 周一 ".into()
        })
        .unwrap();
    assert_eq!(renamed.title.as_deref(), Some("周一"));
    let found = |q: &str| {
        app.search_conversations(&SearchConversationsRequest { query: q.into() })
            .unwrap()
            .conversations
            .len()
    };
    assert_eq!((found("我在"), found("周一"), found("没有这句")), (1, 1, 0));

    app.delete_conversation(&DeleteConversationRequest { id: id.clone() }).unwrap();
    assert!(app.list_conversations().unwrap().conversations.is_empty());
    let err = app.get_conversation(&GetConversationRequest { id: id.clone() }).unwrap_err();
    assert_eq!(err.to_command_error().hint, Some(Hint::Conversation { id }));
}

#[tokio::test]
async fn a_run_is_cancelled_by_id_from_another_task() {
    let server = FakeServer::start();
    // Half an answer, then silence: only a cancel ends this turn.
    server.push(Reply::sse_chunks(vec![sse_frame(vec![ev_text("我想想")])]).then_hang());
    let dir = tempfile::tempdir().unwrap();
    let app = open(dir.path(), Overrides::default());
    endpoint(&app, &server.url());

    let (sink, mut events) = sink();
    let turn = {
        let app = app.clone();
        tokio::spawn(async move {
            app.send_message(SendMessageRequest::say(None, "说说看"), sink).await
        })
    };
    let mut run_id = None;
    while let Some(e) = events.recv().await {
        if matches!(e.event, Event::AssistantDelta { .. }) {
            run_id = Some(e.run_id.clone());
            break;
        }
    }
    let run_id = run_id.expect("the answer started");
    assert!(!app.cancel_run(&CancelRunRequest { run_id: "no-such-run".into() }).cancelled);
    assert!(app.cancel_run(&CancelRunRequest { run_id: run_id.clone() }).cancelled);
    let done = turn.await.unwrap().unwrap();
    assert_eq!(done.stop_reason, StopReason::Cancelled);
    assert!(!app.cancel_run(&CancelRunRequest { run_id }).cancelled, "it has ended");
    let detail =
        app.get_conversation(&GetConversationRequest { id: done.conversation_id }).unwrap();
    let last = detail.messages.last().unwrap();
    assert_eq!(
        (last.role, last.content.as_str(), last.interrupted),
        (MessageRole::Assistant, "我想想", true)
    );
}

#[tokio::test]
async fn an_approval_is_resolved_by_command_from_another_task() {
    let skills = tempfile::tempdir().unwrap();
    let skill = skills.path().join("helper");
    std::fs::create_dir_all(skill.join("scripts")).unwrap();
    std::fs::write(
        skill.join("SKILL.md"),
        "---\nname: helper\ndescription: A test skill with a script.\n---\nUse the script.\n",
    )
    .unwrap();
    std::fs::write(skill.join("tools.yaml"), "tools:\n  - run_script\n").unwrap();
    std::fs::write(skill.join("scripts/hello.sh"), "echo hello from script\n").unwrap();

    for approved in [true, false] {
        let server = FakeServer::start();
        server.push(Reply::sse(sse(vec![
            ev_tool_call(0, "call_1", "run_script", r#"{"script":"hello.sh"}"#),
            ev_finish("tool_calls"),
        ])));
        server.push(Reply::sse(sse(vec![ev_text("好的。"), ev_finish("stop")])));
        let dir = tempfile::tempdir().unwrap();
        let overrides =
            Overrides { skills_dir: Some(skills.path().to_path_buf()), ..Overrides::default() };
        let app = open(dir.path(), overrides);
        endpoint(&app, &server.url());
        let (sink, mut events) = sink();
        let mut request = SendMessageRequest::say(None, "run it");
        request.skill = Some("helper".into());
        let turn = {
            let app = app.clone();
            tokio::spawn(async move { app.send_message(request, sink).await })
        };
        let mut request_id = None;
        while let Some(e) = events.recv().await {
            if let Event::ApprovalRequired { request_id: id, .. } = e.event {
                request_id = Some(id);
                break;
            }
        }
        let request_id = request_id.expect("approval asked");
        assert_eq!(app.pending_approvals(), std::slice::from_ref(&request_id));
        let answer =
            ResolveApprovalRequest { request_id: request_id.clone(), approved, always: false };
        assert!(app.resolve_approval(&answer).resolved);
        assert!(!app.resolve_approval(&answer).resolved, "answered once");
        let done = turn.await.unwrap().unwrap();
        assert_eq!(done.stop_reason, StopReason::Completed);
        let mut decision = None;
        while let Ok(e) = events.try_recv() {
            if let Event::ApprovalResolved { approved, by, .. } = e.event {
                decision = Some((approved, by));
            }
        }
        assert_eq!(decision, Some((approved, vibe_wire::ApprovalSource::User)));
        let tool_result = &server.requests()[1].json()["messages"];
        let text = tool_result.to_string();
        assert_eq!(text.contains("hello from script"), approved, "{text}");
    }
}

#[tokio::test]
async fn the_api_key_goes_to_the_key_store_is_sent_to_the_endpoint_and_never_comes_back() {
    let server = FakeServer::start();
    server.push(Reply::sse(sse(vec![ev_text("ok"), ev_finish("stop")])));
    let dir = tempfile::tempdir().unwrap();
    let app = open(dir.path(), Overrides::default());
    endpoint(&app, &server.url());
    let status = app.api_key_status(&ApiKeyRequest::default()).unwrap();
    assert!(!status.is_set);
    assert_eq!(status.base_url, server.url().trim_end_matches('/'));
    let err = app.set_api_key(&SetApiKeyRequest { base_url: None, key: "  ".into() }).unwrap_err();
    assert_eq!(err.kind().as_str(), "invalid_input");
    let status =
        app.set_api_key(&SetApiKeyRequest { base_url: None, key: " sk-test-123 ".into() }).unwrap();
    assert!(status.is_set && !status.from_env);
    assert!(!serde_json::to_string(&status).unwrap().contains("sk-test"));

    let (sink, _events) = sink();
    app.send_message(SendMessageRequest::say(None, "hi"), sink).await.unwrap();
    let sent = &server.requests()[0];
    assert_eq!(sent.header("authorization"), Some("Bearer sk-test-123"));
    let on_disk = std::fs::read_to_string(dir.path().join("settings.json")).unwrap();
    assert!(!on_disk.contains("sk-test"));

    let status = app.clear_api_key(&ApiKeyRequest::default()).unwrap();
    assert!(!status.is_set);
}

#[tokio::test]
async fn connection_tests_and_model_lists_answer_for_the_endpoint_in_the_settings() {
    let server = FakeServer::start();
    server.push(Reply::models(&["qwen3:8b", "llama3"]));
    server.push(Reply::sse(sse(vec![ev_text("ok"), ev_finish("stop")])));
    let dir = tempfile::tempdir().unwrap();
    let app = open(dir.path(), Overrides::default());
    endpoint(&app, &server.url());
    let list = app.list_models(&ListModelsRequest::default()).await.unwrap();
    let ids: Vec<_> = list.models.iter().map(|m| m.id.as_str()).collect();
    assert_eq!(ids, ["qwen3:8b", "llama3"]);
    let test = app.test_connection(&TestConnectionRequest::default()).await;
    assert!(test.ok, "{test:?}");
    assert_eq!(test.reply, "ok");

    // Nothing listens there: an answer with the error, and the hint's data on a command.
    let closed = {
        let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        format!("http://{}/v1", l.local_addr().unwrap())
    };
    set(&app, &[("llm.retries", json!(0))]);
    let test = app
        .test_connection(&TestConnectionRequest { base_url: Some(closed.clone()), model: None })
        .await;
    assert!(!test.ok);
    assert!(test.error.is_some());
    let err =
        app.list_models(&ListModelsRequest { base_url: Some(closed.clone()) }).await.unwrap_err();
    assert_eq!(err.to_command_error().hint, Some(Hint::Endpoint { base_url: closed }));
}

#[tokio::test]
async fn url_secrets_never_come_back_in_answers_errors_or_events() {
    let server = FakeServer::start();
    server.push(Reply::models(&["m1"]));
    server.push(Reply::json(500, &json!({"error": {"message": "bad pw-Hush-41 / tok-Hush-42"}})));
    server.push(Reply::sse(sse(vec![ev_text("ok"), ev_finish("stop")])));
    let dir = tempfile::tempdir().unwrap();
    let app = open(dir.path(), Overrides::default());
    let url = format!("http://ann:pw-Hush-41@{}/v1?api_key=tok-Hush-42", server.addr());
    endpoint(&app, &url);
    set(&app, &[("llm.retries", json!(0))]);
    let leaks = |what: &str, text: String| {
        assert!(!text.contains("pw-Hush-41") && !text.contains("tok-Hush-42"), "{what}: {text}");
    };
    let list = app.list_models(&ListModelsRequest::default()).await.unwrap();
    leaks("model list", serde_json::to_string(&list).unwrap());
    let test = app.test_connection(&TestConnectionRequest::default()).await;
    assert!(!test.ok);
    leaks("failed connection test", serde_json::to_string(&test).unwrap());
    leaks(
        "key status",
        serde_json::to_string(&app.api_key_status(&ApiKeyRequest::default()).unwrap()).unwrap(),
    );
    leaks("overrides", format!("{:?} {:?}", app.overrides(), app.settings()));
    let (sink, mut events) = sink();
    app.send_message(SendMessageRequest::say(None, "hi"), sink).await.unwrap();
    while let Ok(envelope) = events.try_recv() {
        leaks("event", serde_json::to_string(&envelope).unwrap());
    }
    // The secrets were used for the requests themselves.
    let sent = server.requests();
    assert_eq!(sent[0].path, "/v1/models?api_key=tok-Hush-42");
    assert_eq!(sent[2].path, "/v1/chat/completions?api_key=tok-Hush-42");
}

/// What a person sees of a base URL carrying secrets: the host and the harmless query stay
/// (so they can tell which endpoint is meant), userinfo and token values do not — in the
/// debug form logs print, and in a connection test that fails before any request.
#[tokio::test]
async fn a_base_url_with_secrets_is_shown_redacted_but_recognisable() {
    let dir = tempfile::tempdir().unwrap();
    let secret = "ftp://ann:pw-Hush-51@models.example/v1?token=tok-Hush-52&region=eu";
    let shown = "ftp://[redacted]@models.example/v1?token=[redacted]&region=eu";
    let app = open(dir.path(), Overrides { base_url: Some(secret.into()), ..Overrides::default() });
    let logged = format!("{:?}", app.overrides());
    assert!(logged.contains(shown), "{logged}");
    let test = app.test_connection(&TestConnectionRequest::default()).await;
    assert!(!test.ok, "an ftp:// endpoint cannot work");
    assert_eq!(test.base_url, shown);
    let answer = serde_json::to_string(&test).unwrap();
    assert!(!answer.contains("pw-Hush-51") && !answer.contains("tok-Hush-52"), "{answer}");
    assert!(answer.contains("must start with http://"), "the error is still said: {answer}");
}

#[tokio::test]
async fn configuration_errors_carry_the_data_of_their_fix_and_store_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let app = open(dir.path(), Overrides::default());
    let (sink, _events) = sink();
    let err = app.send_message(SendMessageRequest::retry("x"), sink.clone()).await;
    assert!(err.is_err());
    let mut retry = SendMessageRequest::retry("x");
    retry.conversation_id = None;
    let err = app.send_message(retry, sink.clone()).await.unwrap_err();
    assert_eq!(err.hint(), Some(Hint::NeedsConversation));

    set(&app, &[("llm.preset", json!("openai")), ("llm.base_url", json!("http://exa mple/v1"))]);
    let err =
        app.send_message(SendMessageRequest::say(None, "hi"), sink.clone()).await.unwrap_err();
    assert!(matches!(err.hint(), Some(Hint::Endpoint { .. })), "{err}");
    set(&app, &[("llm.preset", json!("openai")), ("llm.base_url", Value::Null)]);
    set(&app, &[("llm.preset", json!("custom")), ("llm.base_url", json!("http://127.0.0.1:9/v1"))]);
    let err = app.send_message(SendMessageRequest::say(None, "hi"), sink).await.unwrap_err();
    assert!(matches!(err.hint(), Some(Hint::ChooseModel { .. })), "{err}");
    let text = err.to_string();
    assert!(!text.contains("--"), "no CLI flag in a core message: {text}");
    assert!(app.list_conversations().unwrap().conversations.is_empty());
}

#[test]
fn the_app_and_its_turn_are_send_and_sync() {
    fn assert_send_sync<T: Send + Sync>() {}
    assert_send_sync::<App>();
    fn assert_send<T: Send>(_: &T) {}
    let dir = tempfile::tempdir().unwrap();
    let app = open(dir.path(), Overrides::default());
    let (sink, _events) = sink();
    let turn = app.send_message(SendMessageRequest::say(None, "hi"), sink);
    assert_send(&turn);
}

#[test]
fn the_profile_is_read_and_set_by_path_and_bad_birth_data_changes_nothing() {
    use vibe_wire::command::{SetProfilePathRequest, SkillStateRequest};
    let dir = tempfile::tempdir().unwrap();
    let app = open(dir.path(), Overrides::default());
    let set = |path: &str, value: Value| {
        app.set_profile_path(&SetProfilePathRequest { path: path.into(), value })
    };
    let view = set("preferences.nickname", json!("小林")).unwrap();
    assert_eq!(view.profile["preferences"]["nickname"], "小林");
    set("preferences.voice_mode", json!("direct")).unwrap();
    set("preferences.reminder_times", json!(["09:30", "12:00"])).unwrap();
    let before = app.get_profile().unwrap();
    assert!(set("birth_info.date", json!("1990-13-45")).is_err());
    let err = set("preferences.voice_mode", json!("shouty")).unwrap_err();
    assert!(err.to_string().contains("warm, direct or playful"), "{err}");
    let err = set("preferences.reminder_times", json!(["12:00", "09:30"])).unwrap_err();
    assert!(err.to_string().contains("must be later than the time before it"), "{err}");
    assert_eq!(app.get_profile().unwrap(), before, "nothing changed");
    assert_eq!(before.profile["preferences"]["voice_mode"], "direct");
    let state =
        app.skill_state(&SkillStateRequest { skill: "lifecoach".into(), section: None }).unwrap();
    assert_eq!(state.skill, "lifecoach");
}

#[test]
fn first_run_lasts_until_a_model_is_chosen_whatever_else_the_settings_hold() {
    let dir = tempfile::tempdir().unwrap();
    let app = open(dir.path(), Overrides::default());
    // Opening recorded the encryption mode: a settings file exists, yet no model was chosen.
    assert!(dir.path().join("settings.json").exists());
    assert!(app.needs_first_run());
    set(&app, &[("llm.base_url", json!("http://127.0.0.1:11434/v1"))]);
    assert!(!app.needs_first_run());

    let other = tempfile::tempdir().unwrap();
    let from_env =
        Overrides { base_url: Some("http://127.0.0.1:1234/v1".into()), ..Overrides::default() };
    assert!(!open(other.path(), from_env).needs_first_run());
}

#[cfg(not(feature = "local-llm"))]
#[tokio::test]
async fn the_local_preset_in_a_build_without_the_engine_says_so_and_how_to_get_one() {
    let dir = tempfile::tempdir().unwrap();
    let app = open(dir.path(), Overrides::default());
    set(&app, &[("llm.preset", json!("local")), ("llm.model", json!("qwen2.5-0.5b-instruct"))]);
    let err = app.model().err().unwrap();
    assert_eq!(err.kind().as_str(), "config");
    let message = err.to_string();
    assert!(message.starts_with("this build has no embedded engine;"), "{message}");
    assert!(message.contains("local-llm") && message.contains("ollama"), "{message}");
    // The settings stay as chosen: nothing was changed by the failed assembly.
    assert_eq!(app.settings().llm.preset.as_deref(), Some("local"));
}
