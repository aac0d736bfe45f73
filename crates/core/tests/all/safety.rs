//! The wellbeing safety layer in the chat turn (issue #11): a risky message in any category,
//! Chinese or English, brings a `safety_notice` with the resources of the person's locale, the
//! supportive section in the system prompt the model receives, and the message's safety mark;
//! an acute message pauses a running dankoe protocol; safe lookalikes change nothing.

use std::sync::Arc;

use serde_json::json;
use vibe_agent::chat::TurnRequest;
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
            risk.as_str().to_string(),
            category.as_str().to_string(),
            resources.iter().map(|r| r.number.clone()).collect(),
            locale.clone(),
        )),
        _ => None,
    })
}

fn user_mark(h: &Harness, turn: &Turn) -> Option<String> {
    let messages = h.store.messages(&turn.result.conversation_id).unwrap();
    let user = messages.iter().find(|m| m.role == Role::User).unwrap();
    h.store.message_safety(user.id).unwrap().map(|m| m.risk.as_str().to_string())
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

/// Opened again (the app's `get_conversation`), a conversation shows its notice once more:
/// the person's message carries its mark and category, and the contacts of their locale come
/// with it; a conversation without a marked message carries none.
#[tokio::test]
async fn a_conversation_opened_again_brings_back_its_mark_and_the_crisis_contacts() {
    use vibe_wire::command::{GetConversationRequest, MessageRole};
    let (h, _) = harness("en-US");
    let turn = h.turn(say("I want to kill myself")).await;
    let (risk, category, _, _) = notice(&turn).unwrap();
    let detail = h
        .app
        .get_conversation(&GetConversationRequest { id: turn.result.conversation_id.clone() })
        .unwrap();
    let marks: Vec<_> = detail
        .messages
        .iter()
        .map(|m| (m.role, m.safety.map(|s| (s.risk.as_str(), s.category.map(|c| c.as_str())))))
        .collect();
    assert_eq!(
        marks,
        vec![
            (MessageRole::User, Some((risk.as_str(), Some(category.as_str())))),
            (MessageRole::Assistant, None)
        ]
    );
    let contacts = detail.crisis_resources.expect("the contacts come with a marked message");
    assert_eq!(contacts.locale, "en-US");
    assert!(contacts.resources.iter().any(|r| r.number == "988"), "{contacts:?}");

    let calm = h.turn(say("kill the process")).await;
    let detail = h
        .app
        .get_conversation(&GetConversationRequest { id: calm.result.conversation_id })
        .unwrap();
    assert!(detail.messages.iter().all(|m| m.safety.is_none()));
    assert_eq!(detail.crisis_resources, None);
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

/// A harness whose model answers the safety check with `check` (one scripted response, YAML)
/// and then the coach's call.
fn checked(check: &str) -> (Harness, Arc<Recording>) {
    let script = format!(
        "mode: ordered\nresponses:\n  - {check}\n  - text: \"我在这里陪着你。\"\n    usage: {{prompt_tokens: 20, completion_tokens: 5, total_tokens: 25}}\n"
    );
    let model = Arc::new(Recording::new(ScriptedModel::from_yaml(&script, "test script").unwrap()));
    let h = Harness::new(model.clone(), Options::default());
    h.store.set_path(LOCAL_USER, "preferences.language", json!("zh-CN")).unwrap();
    (h, model)
}

fn safety_check(turn: &Turn) -> (Option<String>, Option<String>, Option<String>) {
    turn.events
        .iter()
        .find_map(|e| match &e.event {
            Event::SafetyCheck { risk, rule, fallback_reason, .. } => {
                Some((risk.map(|r| r.as_str().to_string()), rule.clone(), fallback_reason.clone()))
            }
            _ => None,
        })
        .unwrap_or_else(|| panic!("no safety_check: {:?}", turn.types()))
}

fn run_total(turn: &Turn) -> u64 {
    turn.events
        .iter()
        .find_map(|e| match &e.event {
            Event::RunFinished { usage, .. } => Some(usage.total_tokens),
            _ => None,
        })
        .unwrap()
}

const CHECK_USAGE: &str = "usage: {prompt_tokens: 7, completion_tokens: 3, total_tokens: 10}";

#[tokio::test]
async fn an_unsure_message_the_model_calls_acute_gets_the_notice() {
    // Negated by the rules ("不会"), so unsure: the model is asked before the coach.
    let (h, model) = checked(&format!(
        "text: '{{\"risk\": \"acute\", \"category\": \"suicide\"}}'\n    {CHECK_USAGE}"
    ));
    let turn = h.turn(say("我不会自杀的，只是最近总在想以后的事")).await;
    let types = turn.types();
    let check_at = types.iter().position(|t| t == "safety_check").unwrap();
    let notice_at = types.iter().position(|t| t == "safety_notice").unwrap();
    let request_at = types.iter().position(|t| t == "model_request").unwrap();
    assert!(check_at < notice_at && notice_at < request_at, "{types:?}");
    assert_eq!(safety_check(&turn), (Some("acute".into()), Some("model".into()), None));
    let (risk, category, _, _) = notice(&turn).unwrap();
    assert_eq!((risk.as_str(), category.as_str()), ("acute", "suicide"));
    assert_eq!(user_mark(&h, &turn).as_deref(), Some("acute"), "kept out of memory");
    let systems = model.systems.lock().unwrap();
    assert_eq!(systems.len(), 2, "one check call, then the coach's");
    assert!(systems[0].contains("You rate one chat message"), "{}", systems[0]);
    assert!(systems[1].contains("## 安全优先（本轮）"));
    assert_eq!(run_total(&turn), 35, "the check's tokens count in the run");
    assert_eq!(turn.reply(), "我在这里陪着你。");
}

#[tokio::test]
async fn an_unsure_message_the_model_calls_none_gets_no_notice() {
    let (h, model) =
        checked(&format!("text: '{{\"risk\": \"none\", \"category\": null}}'\n    {CHECK_USAGE}"));
    let turn = h.turn(say("我不会自杀的，放心")).await;
    assert_eq!(safety_check(&turn), (None, Some("zh.suicide.want_die".into()), None));
    assert!(notice(&turn).is_none(), "{:?}", turn.types());
    assert_eq!(user_mark(&h, &turn), None);
    let systems = model.systems.lock().unwrap();
    assert_eq!(systems.len(), 2);
    assert!(!systems[1].contains("安全优先"));
    assert_eq!(run_total(&turn), 35);
}

/// A clinician telling a shift is a deferring context (docs/safety.md): the rules leave the hit
/// to the model check instead of dropping it, so a nurse's own emergency still gets the notice
/// when the model calls it acute — and a shift told without one gets none when it says none.
#[tokio::test]
async fn a_clinicians_own_emergency_is_left_to_the_model_check_not_dropped() {
    let (h, _) = checked(&format!(
        "text: '{{\"risk\": \"acute\", \"category\": \"medical\"}}'\n    {CHECK_USAGE}"
    ));
    let turn = h.turn(say("我是护士，今天下班路上我自己突然胸口剧痛，喘不过气")).await;
    assert_eq!(safety_check(&turn), (Some("acute".into()), Some("model".into()), None));
    let (risk, category, _, _) = notice(&turn).unwrap();
    assert_eq!((risk.as_str(), category.as_str()), ("acute", "medical"));

    let (h, _) =
        checked(&format!("text: '{{\"risk\": \"none\", \"category\": null}}'\n    {CHECK_USAGE}"));
    let turn = h
        .turn(say("我是120调度员。今天接电话：胸痛、摔倒，还有一个在高速上要生的孕妇，母女平安。"))
        .await;
    assert_eq!(safety_check(&turn), (None, Some("zh.medical.emergency".into()), None));
    assert!(notice(&turn).is_none(), "{:?}", turn.types());

    // Deferring never clears a risk by itself: when the check cannot answer, the notice shows
    // as if no context had deferred the hit.
    let (h, _) = checked("error: {kind: server, message: boom}");
    let turn = h.turn(say("我是护士，今天下班路上我自己突然胸口剧痛，喘不过气")).await;
    let (risk, rule, fallback) = safety_check(&turn);
    assert_eq!((risk.as_deref(), rule.as_deref()), (Some("acute"), Some("zh.medical.emergency")));
    assert!(fallback.is_some());
    let (risk, category, _, _) = notice(&turn).unwrap();
    assert_eq!((risk.as_str(), category.as_str()), ("acute", "medical"));
}

/// A message no rule matches but the learned detector reads as suicide (docs/safety.md, "The
/// learned detector"): the model check is asked before the coach, and only its answer makes a
/// notice — acute: the notice, the mark; none: nothing; a failed call: nothing either.
#[tokio::test]
async fn what_no_rule_matches_the_learned_detector_asks_the_model_about() {
    const MESSAGE: &str = "好想从这个世界上彻底消失";
    let (h, model) = checked(&format!(
        "text: '{{\"risk\": \"acute\", \"category\": \"suicide\"}}'\n    {CHECK_USAGE}"
    ));
    let turn = h.turn(say(MESSAGE)).await;
    assert_eq!(safety_check(&turn), (Some("acute".into()), Some("model".into()), None));
    let (risk, category, _, _) = notice(&turn).unwrap();
    assert_eq!((risk.as_str(), category.as_str()), ("acute", "suicide"));
    assert_eq!(user_mark(&h, &turn).as_deref(), Some("acute"), "kept out of memory");
    assert_eq!(model.systems.lock().unwrap().len(), 2, "one check call, then the coach's");

    let (h, model) =
        checked(&format!("text: '{{\"risk\": \"none\", \"category\": null}}'\n    {CHECK_USAGE}"));
    let turn = h.turn(say(MESSAGE)).await;
    assert_eq!(safety_check(&turn), (None, Some("learned:suicide".into()), None));
    assert!(notice(&turn).is_none(), "{:?}", turn.types());
    assert_eq!(user_mark(&h, &turn), None);
    assert_eq!(model.systems.lock().unwrap().len(), 2);

    // The detector's question never stands by itself: no answer, no notice.
    let (h, _) = checked("error: {kind: server, message: boom}");
    let turn = h.turn(say(MESSAGE)).await;
    let (risk, rule, fallback) = safety_check(&turn);
    assert_eq!((risk, rule.as_deref()), (None, Some("learned:suicide")));
    assert!(fallback.is_some());
    assert!(notice(&turn).is_none(), "{:?}", turn.types());
    assert_eq!(turn.reply(), "我在这里陪着你。");
}

#[tokio::test]
async fn a_failed_model_check_keeps_the_rules_verdict_and_says_so() {
    // Vague despair: the rules say concern but are unsure; the check call fails.
    let (h, _) = checked("error: {kind: server, message: boom}");
    let turn = h.turn(say("我真的撑不住了")).await;
    let (risk, rule, fallback) = safety_check(&turn);
    assert_eq!((risk.as_deref(), rule.as_deref()), (Some("concern"), Some("zh.suicide.unsure")));
    assert!(fallback.as_deref().is_some_and(|f| f.contains("failed")), "{fallback:?}");
    let (risk, category, _, _) = notice(&turn).unwrap();
    assert_eq!((risk.as_str(), category.as_str()), ("concern", "suicide"));
    assert_eq!(user_mark(&h, &turn).as_deref(), Some("concern"));
    assert_eq!(turn.reply(), "我在这里陪着你。");
}

#[tokio::test]
async fn a_sure_message_makes_no_check_call() {
    let (h, model) = harness("zh-CN");
    let turn = h.turn(say("今天天气很好")).await;
    assert!(!turn.types().iter().any(|t| t == "safety_check"));
    assert_eq!(model.systems.lock().unwrap().len(), 1);
}

/// A conversation with the lifecoach skill and a running dankoe protocol; returns it and the
/// protocol run id.
async fn with_running_protocol(h: &Harness) -> (String, String) {
    let first = h.turn(TurnRequest { skill: Some("lifecoach".into()), ..say("你好") }).await;
    let conversation = first.result.conversation_id.clone();
    let (run, _) = h
        .service
        .protocols()
        .start(Some("lifecoach"), "dankoe", Some(&conversation), Some("scripted"))
        .unwrap();
    (conversation, run.id)
}

async fn extraction_of(h: &Harness, conversation: &str) -> vibe_agent::memory::Extraction {
    let model = ScriptedModel::from_yaml(
        "mode: matched\nresponses:\n  - text: '{\"items\": []}'\n",
        "extraction",
    )
    .unwrap();
    vibe_agent::memory::extract_conversation(
        &h.store,
        &model,
        None,
        LOCAL_USER,
        conversation,
        vibe_agent::memory::ExtractOptions::default(),
    )
    .await
    .unwrap()
}

#[tokio::test]
async fn each_category_pauses_a_protocol_and_stays_out_of_memory_and_lookalikes_do_not() {
    let acute = [
        ("我今晚就要从天台跳下去", "suicide"),
        ("I just took 40 tylenol", "suicide"),
        ("我又割腕了，血止不住", "self_harm"),
        ("我要杀了我继父", "harm_others"),
        ("I'm going to stab my roommate", "harm_others"),
        ("我被人强奸了", "abuse"),
        ("He threatened to kill me if I leave", "abuse"),
        ("我爸突然倒在地上，叫他也没反应", "medical"),
        ("My baby isn't breathing", "medical"),
    ];
    for (message, category) in acute {
        let (h, _) = harness("zh-CN");
        let (conversation, run) = with_running_protocol(&h).await;
        let turn = h
            .turn(TurnRequest { conversation_id: Some(conversation.clone()), ..say(message) })
            .await;
        let (risk, got, _, _) = notice(&turn).unwrap_or_else(|| panic!("no notice: {message}"));
        assert_eq!((risk.as_str(), got.as_str()), ("acute", category), "{message}");
        assert!(turn.types().iter().any(|t| t == "protocol_paused"), "{message}");
        let status = h.service.protocols().run(&run).unwrap().status;
        assert_eq!(status, ProtocolStatus::Paused, "{message}");
        let pass = extraction_of(&h, &conversation).await;
        assert_eq!(pass.skipped_risky, 2, "{message}: it and the reply to it are kept out");
    }
    let lookalikes = [
        "商场在搞跳楼价大甩卖",
        "I'm dying to see that movie",
        "我不小心切菜切到手了",
        "这个bug我一定要弄死它",
        "Let's kill some time at the mall",
        "我踢球的时候被对方踢了一脚",
        "My brother beat me at chess again",
        "工作压得我喘不过气来",
        "You gave me a heart attack sneaking up like that",
    ];
    for message in lookalikes {
        let (h, _) = harness("zh-CN");
        let (conversation, run) = with_running_protocol(&h).await;
        let turn = h
            .turn(TurnRequest { conversation_id: Some(conversation.clone()), ..say(message) })
            .await;
        assert!(notice(&turn).is_none(), "{message}: {:?}", turn.types());
        let status = h.service.protocols().run(&run).unwrap().status;
        assert_eq!(status, ProtocolStatus::Active, "{message}");
        let pass = extraction_of(&h, &conversation).await;
        assert_eq!(pass.skipped_risky, 0, "{message}: read like any message");
    }
}
