//! The wellbeing safety layer in the chat turn (issue #11): a risky message in any category,
//! Chinese or English, brings a `safety_notice` with the resources of the person's locale, the
//! supportive section in the system prompt the model receives, and the message's safety mark;
//! an acute message pauses a running dankoe protocol; safe lookalikes change nothing.

use std::sync::Arc;

use serde_json::json;
use vibe_core::chat::TurnRequest;
use vibe_llm::ScriptedModel;
use vibe_store::{LOCAL_USER, ProtocolStatus, Role};
use vibe_wire::Event;

use crate::harness::{Harness, Options, Turn, say};

use crate::recording::Recording;

const ANSWER: &str = "mode: matched\nresponses:\n  - text: \"我在这里陪着你。\"\n";

fn harness(language: &str) -> (Harness, Arc<Recording>) {
    let model = Arc::new(Recording::new(ScriptedModel::from_yaml(ANSWER, "test script").unwrap()));
    let h = Harness::new(model.clone(), Options::default());
    h.store.set_path(LOCAL_USER, "preferences.language", json!(language)).unwrap();
    (h, model)
}

fn notice(turn: &Turn) -> Option<(String, String, Vec<String>, String)> {
    turn.events.iter().find_map(|e| match &e.event {
        Event::SafetyNotice { risk, category, resources, locale } => Some((
            risk.clone(),
            category.clone(),
            resources.iter().map(|r| r.number.clone()).collect(),
            locale.clone(),
        )),
        _ => None,
    })
}

fn user_mark(h: &Harness, turn: &Turn) -> Option<String> {
    let messages = h.store.messages(&turn.result.conversation_id).unwrap();
    let user = messages.iter().find(|m| m.role == Role::User).unwrap();
    h.store.message_safety(user.id).unwrap()
}

#[tokio::test]
async fn every_category_in_chinese_and_english_brings_the_notice_and_the_supportive_section() {
    let cases = [
        ("zh-CN", "我想自杀", "suicide", "12356"),
        ("en-US", "I want to kill myself", "suicide", "988"),
        ("zh-CN", "我最近经常自残", "self_harm", "12356"),
        ("en-US", "I cut myself again", "self_harm", "988"),
        ("zh-CN", "我要杀了他", "harm_others", "110"),
        ("en-US", "I'm going to stab him", "harm_others", "911"),
        ("zh-CN", "我被性侵了", "abuse", "110"),
        ("en-US", "He threatened to kill me", "abuse", "911"),
        ("zh-CN", "我胸口剧痛", "medical", "120"),
        ("en-US", "I can't breathe", "medical", "911"),
    ];
    for (locale, message, category, number) in cases {
        let (h, model) = harness(locale);
        let turn = h.turn(say(message)).await;
        let (risk, got_category, numbers, got_locale) = notice(&turn)
            .unwrap_or_else(|| panic!("no notice for {message:?}: {:?}", turn.types()));
        assert_eq!((got_category.as_str(), got_locale.as_str()), (category, locale), "{message}");
        assert!(numbers.iter().any(|n| n == number), "{message}: {numbers:?} lacks {number}");
        assert_eq!(user_mark(&h, &turn).as_deref(), Some(risk.as_str()), "{message}");
        let systems = model.systems.lock().unwrap();
        let first = systems.first().unwrap();
        assert!(first.contains("## 安全优先（本轮）"), "{message}: {first}");
        assert!(first.contains(number), "{message}: the section names the resources");
        assert_eq!(turn.reply(), "我在这里陪着你。");
    }
}

#[tokio::test]
async fn an_acute_message_pauses_a_running_dankoe_protocol() {
    let (h, model) = harness("zh-CN");
    let first = h.turn(TurnRequest { skill: Some("lifecoach".into()), ..say("你好") }).await;
    let conversation = first.result.conversation_id.clone();
    let engine = h.service.protocols();
    let (run, _) =
        engine.start(Some("lifecoach"), "dankoe", Some(&conversation), Some("scripted")).unwrap();
    h.turn(TurnRequest { conversation_id: Some(conversation.clone()), ..say("好的") }).await;
    let before = model.systems.lock().unwrap().last().cloned().unwrap();
    assert!(before.contains("## 进行中的协议"), "the protocol runs: {before}");
    let turn = h
        .turn(TurnRequest {
            conversation_id: Some(conversation), ..say("我不想活了，我想自杀")
        })
        .await;
    let types = turn.types();
    let notice_at = types.iter().position(|t| t == "safety_notice").unwrap();
    let paused_at = types.iter().position(|t| t == "protocol_paused").unwrap();
    let first_request = types.iter().position(|t| t == "model_request").unwrap();
    assert!(notice_at < first_request && paused_at < first_request, "{types:?}");
    let after = engine.run(&run.id).unwrap();
    assert_eq!((after.status, after.step), (ProtocolStatus::Paused, run.step));
    let last = model.systems.lock().unwrap().last().cloned().unwrap();
    assert!(last.contains("## 安全优先（本轮）"));
    assert!(!last.contains("进行中的协议"), "the protocol section is left out: {last}");
}

#[tokio::test]
async fn safe_lookalikes_bring_nothing() {
    for message in ["累死了", "kill the process", "今天笑死我了"] {
        let (h, model) = harness("zh-CN");
        let turn = h.turn(say(message)).await;
        assert!(notice(&turn).is_none(), "{message}: {:?}", turn.types());
        assert_eq!(user_mark(&h, &turn), None, "{message}");
        let systems = model.systems.lock().unwrap();
        assert!(!systems[0].contains("安全优先"), "{message}");
    }
}

#[tokio::test]
async fn without_a_language_preference_the_system_locale_or_generic_is_used() {
    let model = Arc::new(Recording::new(ScriptedModel::from_yaml(ANSWER, "test script").unwrap()));
    let h = Harness::new(model, Options::default());
    let turn = h.turn(say("I want to kill myself")).await;
    let (_, _, numbers, locale) = notice(&turn).unwrap();
    assert!(!locale.is_empty());
    assert!(!numbers.is_empty(), "{locale}: some resources are always shown");
}
