//! The two wellbeing layers in the chat turn (issue #28, docs/safety.md): the coach model's own
//! `flag_wellbeing_concern` takes the screen's path (notice with the resources of the person's
//! language, protocol paused, message kept out of memory) for wording no rule catches; a
//! `concern` pauses a protocol like an `acute` does; every prompt of both phases carries the
//! instruction and the tool; the data folder's resources override is used, and a broken one is
//! reported with its path and line while the built-in resources are shown.

use std::sync::Arc;

use serde_json::json;
use vibe_agent::chat::TurnRequest;
use vibe_agent::safety::{self, Risk};
use vibe_llm::ScriptedModel;
use vibe_store::{LOCAL_USER, ProtocolStatus, Role};
use vibe_wire::Event;

use crate::harness::{Harness, Options, Turn, say};
use crate::recording::Recording;

/// Indirect wording the rules do not touch (checked in each test that relies on it).
const INDIRECT: &str = "反正明天的太阳跟我也没关系了";

/// The coach flags [`INDIRECT`] as a concern, then answers; anything else gets a plain answer.
const FLAGGING: &str = r#"mode: matched
responses:
  - when: {tool_result: flagged}
    text: "我在这里陪着你。你现在安全吗？"
  - when: {tool_result: already_shown}
    text: "我在这里陪着你。"
  - when: {user: 明天的太阳}
    tool_calls:
      - name: flag_wellbeing_concern
        arguments: {level: concern, category: suicide, reason: "像是在交代后事"}
  - when: {user: 自杀}
    tool_calls:
      - name: flag_wellbeing_concern
        arguments: {level: acute, category: suicide, reason: "说想自杀"}
  - text: "好的，我们继续。"
"#;

fn harness(script: &str) -> (Harness, Arc<Recording>) {
    let model = Arc::new(Recording::new(ScriptedModel::from_yaml(script, "test script").unwrap()));
    let h = Harness::new(model.clone(), Options::default());
    h.store.set_path(LOCAL_USER, "preferences.language", json!("zh-CN")).unwrap();
    (h, model)
}

fn notices(turn: &Turn) -> Vec<(String, String, Vec<String>)> {
    turn.events
        .iter()
        .filter_map(|e| match &e.event {
            Event::SafetyNotice { risk, category, resources, .. } => Some((
                risk.as_str().to_string(),
                category.as_str().to_string(),
                resources.iter().map(|r| r.number.clone()).collect(),
            )),
            _ => None,
        })
        .collect()
}

fn errors(turn: &Turn) -> Vec<String> {
    turn.events
        .iter()
        .filter_map(|e| match &e.event {
            Event::Error { error } => Some(error.message.clone()),
            _ => None,
        })
        .collect()
}

fn mark_of_last_user(h: &Harness, conversation: &str) -> Option<String> {
    let messages = h.store.messages(conversation).unwrap();
    let user = messages.iter().rev().find(|m| m.role == Role::User).unwrap();
    h.store.message_safety(user.id).unwrap().map(|m| m.risk.as_str().to_string())
}

/// A conversation with the lifecoach skill and a running dankoe protocol.
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

async fn skipped_by_memory(h: &Harness, conversation: &str) -> usize {
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
    .skipped_risky
}

#[tokio::test]
async fn the_coach_flagging_what_the_rules_miss_takes_the_screens_path() {
    let screened = safety::screen(INDIRECT).unwrap();
    assert_eq!((screened.risk, screened.unsure), (Risk::None, false), "the rules miss it");
    let (h, _) = harness(FLAGGING);
    let (conversation, run) = with_running_protocol(&h).await;
    let turn =
        h.turn(TurnRequest { conversation_id: Some(conversation.clone()), ..say(INDIRECT) }).await;
    let shown = notices(&turn);
    assert_eq!(shown.len(), 1, "{:?}", turn.types());
    let (risk, category, numbers) = &shown[0];
    assert_eq!((risk.as_str(), category.as_str()), ("concern", "suicide"));
    assert!(numbers.iter().any(|n| n == "12356"), "zh-CN resources: {numbers:?}");
    assert!(turn.types().iter().any(|t| t == "protocol_paused"), "{:?}", turn.types());
    assert_eq!(h.service.protocols().run(&run).unwrap().status, ProtocolStatus::Paused);
    let results = turn.tool_results();
    let (name, result, is_error) = &results[0];
    assert_eq!((name.as_str(), *is_error), ("flag_wellbeing_concern", false), "{result}");
    assert_eq!(result["status"], "flagged");
    assert!(result["guidance"].as_str().unwrap().contains("12356"), "{result}");
    assert_eq!(turn.reply(), "我在这里陪着你。你现在安全吗？");
    assert_eq!(mark_of_last_user(&h, &conversation).as_deref(), Some("concern"));
    assert!(skipped_by_memory(&h, &conversation).await >= 2, "the message and its run stay out");
}

#[tokio::test]
async fn a_message_the_screen_already_flagged_gets_one_notice_when_the_coach_flags_it_too() {
    let (h, _) = harness(FLAGGING);
    let turn = h.turn(say("我想自杀")).await;
    assert_eq!(notices(&turn).len(), 1, "{:?}", turn.types());
    let results = turn.tool_results();
    assert_eq!(results[0].1["status"], "already_shown", "{:?}", results[0]);
}

#[tokio::test]
async fn a_bad_flag_is_refused_naming_the_argument_and_shows_nothing() {
    let script = r#"mode: matched
responses:
  - when: {tool_result: level}
    text: "好的。"
  - tool_calls:
      - name: flag_wellbeing_concern
        arguments: {level: high, category: suicide, reason: x}
"#;
    let (h, _) = harness(script);
    let turn = h.turn(say("今天有点累")).await;
    assert!(notices(&turn).is_empty());
    let results = turn.tool_results();
    assert!(results[0].2, "an error observation: {:?}", results[0]);
    assert_eq!(results[0].1["field"], "level");
    assert_eq!(mark_of_last_user(&h, &turn.result.conversation_id), None);
}

#[tokio::test]
async fn a_concern_from_the_screen_pauses_a_running_protocol() {
    let message = "我最近一直觉得活着没什么意思";
    let screened = safety::screen(message).unwrap();
    assert_eq!(screened.risk, Risk::Concern, "a concern, not acute: {screened:?}");
    let (h, model) = harness("mode: matched\nresponses:\n  - text: \"我在这里。\"\n");
    let (conversation, run) = with_running_protocol(&h).await;
    let turn =
        h.turn(TurnRequest { conversation_id: Some(conversation.clone()), ..say(message) }).await;
    assert_eq!(notices(&turn)[0].0, "concern");
    assert!(turn.types().iter().any(|t| t == "protocol_paused"), "{:?}", turn.types());
    let after = h.service.protocols().run(&run).unwrap();
    assert_eq!(after.status, ProtocolStatus::Paused);
    let last = model.systems.lock().unwrap().last().cloned().unwrap();
    assert!(last.contains("## 安全优先（本轮）"), "{last}");
    assert!(!last.contains("进行中的协议"), "no next protocol question: {last}");
}

#[tokio::test]
async fn every_prompt_of_both_phases_carries_the_instruction_and_the_tool() {
    let (h, model) = harness("mode: matched\nresponses:\n  - text: \"好的。\"\n");
    let phase1 = h.turn(say("你好")).await;
    let phase2 = h
        .turn(TurnRequest {
            conversation_id: Some(phase1.result.conversation_id.clone()),
            skill: Some("lifecoach".into()),
            ..say("想聊聊工作")
        })
        .await;
    for turn in [&phase1, &phase2] {
        for request in turn.model_requests() {
            let Event::ModelRequest { tools, sections, phase, .. } = request else { continue };
            assert!(tools.iter().any(|t| t == "flag_wellbeing_concern"), "{phase:?}: {tools:?}");
            assert!(sections.iter().any(|s| s.name == "wellbeing"), "{phase:?}: {sections:?}");
        }
    }
    for system in model.systems.lock().unwrap().iter() {
        assert!(system.contains("## 身心安全") && system.contains("flag_wellbeing_concern"));
    }
}

#[tokio::test]
async fn the_data_folders_resources_override_is_shown() {
    let (h, _) = harness("mode: matched\nresponses:\n  - text: \"我在这里。\"\n");
    let dir = h.dir.path().join("safety");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("resources.yaml"),
        "regions:\n  - id: cn\n    name: 我的城市\n    emergency: [{name: 急救, number: \"120\"}]\n    hotlines: [{name: 本地心理热线, number: \"96525\", hours: \"24小时\"}]\n",
    )
    .unwrap();
    let turn = h.turn(say("我想自杀")).await;
    let numbers = &notices(&turn)[0].2;
    assert_eq!(numbers, &["120", "96525"], "the override replaces the built-in region");
    assert!(errors(&turn).is_empty(), "{:?}", errors(&turn));
}

#[tokio::test]
async fn a_broken_override_is_named_with_path_and_line_and_the_built_in_resources_are_shown() {
    let (h, _) = harness("mode: matched\nresponses:\n  - text: \"我在这里。\"\n");
    let dir = h.dir.path().join("safety");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("resources.yaml"),
        "regions:\n  - id: cn\n    name: 我的城市\n    emergency: [{name: 急救, number: \"120\"}]\n    hotlines: []\n",
    )
    .unwrap();
    let turn = h.turn(say("我想自杀")).await;
    let numbers = &notices(&turn)[0].2;
    assert!(numbers.iter().any(|n| n == "12356"), "built-in resources: {numbers:?}");
    let errors = errors(&turn);
    let expected =
        format!("{}:2: region \"cn\" has no hotline", dir.join("resources.yaml").display());
    assert!(errors.iter().any(|e| e.contains(&expected)), "{errors:?}");
}
