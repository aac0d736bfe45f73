//! Memory the person owns (issue #11), end to end over a real data dir: extraction after a
//! conversation fills memory with provenance and its own audited run; a second conversation
//! merges instead of duplicating and a contradiction keeps history; an edit sticks; forget is
//! permanent even when the same messages are read again; memory off is respected; a risky
//! message never reaches the extraction call while a safe lookalike does; bad output changes
//! nothing; the turn trigger runs a pass from the chat service; only declared fields reach a
//! skill's prompt.

use std::sync::{Arc, Mutex};

use futures::future::BoxFuture;
use vibe_agent::memory::{
    self, ExtractOptions, Extraction, ExtractionStatus, MemorySettings, extract_conversation,
};
use vibe_context::PromptRequest;
use vibe_llm::{ChatModel, ChatRequest, DeltaStream, LlmError, Message, ScriptedModel};
use vibe_store::{LOCAL_USER as U, Role};
use vibe_wire::Event;
use vibe_wire::command::MemoryKind;

use crate::harness::{Harness, Options, say, say_in};

const CHAT: &str = "mode: matched\nresponses:\n  - text: \"好的，我记下了。\"\n";

/// A scripted model that keeps the last user text of every request (what extraction read).
struct Reads {
    inner: ScriptedModel,
    seen: Mutex<Vec<String>>,
}

impl ChatModel for Reads {
    fn stream(&self, request: ChatRequest) -> DeltaStream {
        let last = request.messages.iter().rev().find_map(|m| match m {
            Message::User { content } => Some(content.clone()),
            _ => None,
        });
        self.seen.lock().unwrap().push(last.unwrap_or_default());
        self.inner.stream(request)
    }
    fn list_models(&self) -> BoxFuture<'_, Result<Vec<vibe_llm::ModelInfo>, LlmError>> {
        self.inner.list_models()
    }
    fn model_name(&self) -> &str {
        self.inner.model_name()
    }
}

/// A model answering every request with `answer` (JSON text).
fn answering(answer: &str) -> Reads {
    let yaml = format!(
        "mode: matched\nresponses:\n  - text: {}\n",
        serde_json::to_string(answer).unwrap()
    );
    Reads {
        inner: ScriptedModel::from_yaml(&yaml, "extraction script").unwrap(),
        seen: Mutex::new(Vec::new()),
    }
}

fn chat_harness(options: Options) -> Harness {
    Harness::new(Arc::new(ScriptedModel::from_yaml(CHAT, "chat").unwrap()), options)
}

fn user_ids(h: &Harness, conversation: &str) -> Vec<i64> {
    h.store
        .messages(conversation)
        .unwrap()
        .iter()
        .filter(|m| m.role == Role::User)
        .map(|m| m.id)
        .collect()
}

async fn extract(h: &Harness, model: &Reads, conversation: &str, again: bool) -> Extraction {
    extract_conversation(
        &h.store,
        model,
        Some(h.app.run_folders()),
        U,
        conversation,
        ExtractOptions { from_start: again, ..ExtractOptions::default() },
    )
    .await
    .unwrap()
}

fn applied(pass: &Extraction) -> &vibe_store::Applied {
    match &pass.status {
        ExtractionStatus::Applied(a) => a,
        other => panic!("expected an applied pass, got {other:?}"),
    }
}

fn phase2_prompt(h: &Harness, skill: &str) -> String {
    let request = PromptRequest {
        user: U,
        active_skill: Some(skill),
        user_message: "你好",
        ..PromptRequest::default()
    };
    h.service.context().system_prompt(&request).unwrap().text()
}

#[tokio::test]
async fn memory_fills_merges_keeps_edits_and_forgets_for_good() {
    let h = chat_harness(Options::default());
    let a = h.turn(say("我在杭州做设计师，最近想每天早起写作")).await.result.conversation_id;
    let m1 = user_ids(&h, &a)[0];

    // 1. Extraction after the conversation: items with provenance, in a run of its own.
    let first = answering(&format!(
        r#"{{"items": [{{"kind": "facts", "text": "在杭州做设计师", "confidence": 0.9, "sources": [{m1}]}},
                       {{"kind": "goals", "text": "每天早起写作", "confidence": 0.8, "sources": [{m1}]}}]}}"#
    ));
    let pass = extract(&h, &first, &a, false).await;
    assert_eq!(applied(&pass).added.len(), 2);
    assert!(first.seen.lock().unwrap()[0].contains(&format!("[#{m1} 用户] 我在杭州做设计师")));
    let items = h.store.memory_items(U, None).unwrap();
    assert_eq!(items.len(), 2);
    for item in &items {
        assert_eq!(item.sources.len(), 1);
        assert_eq!(
            (item.sources[0].conversation_id.as_str(), item.sources[0].message_id),
            (a.as_str(), m1)
        );
        assert!(!item.first_seen.is_empty() && item.first_seen == item.last_seen);
    }
    let run_id = pass.run_id.clone().unwrap();
    let run = h.store.run(&run_id).unwrap().unwrap();
    assert_eq!(
        (run.status.as_str(), run.conversation_id.as_deref()),
        ("completed", Some(a.as_str()))
    );
    assert!(run.usage.is_some(), "counted like any run");
    let log = h.app.run_folders().read_events(&run_id).unwrap();
    let types: Vec<String> = log
        .events
        .iter()
        .map(|e| serde_json::to_value(&e.event).unwrap()["type"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(
        types,
        ["run_started", "round_started", "model_request", "usage", "display", "run_finished"]
    );
    // Nothing is read twice: no new message, no model call.
    assert_eq!(extract(&h, &first, &a, false).await.status, ExtractionStatus::NothingNew);
    assert_eq!(first.seen.lock().unwrap().len(), 1);

    let fact = items.iter().find(|i| i.kind == MemoryKind::Facts).unwrap().id.clone();
    let goal = items.iter().find(|i| i.kind == MemoryKind::Goals).unwrap().id.clone();

    // 2. A second conversation merges the goal and replaces the contradicted fact.
    let b = h.turn(say("我还是想早起写作，不过我现在搬到上海了")).await.result.conversation_id;
    let m2 = user_ids(&h, &b)[0];
    let second = answering(&format!(
        r#"{{"items": [{{"kind": "goals", "text": "早起写作", "confidence": 0.9, "sources": [{m2}], "same_as": "{goal}"}},
                       {{"kind": "facts", "text": "在上海做设计师", "confidence": 0.9, "sources": [{m2}], "replaces": "{fact}"}}]}}"#
    ));
    let pass = extract(&h, &second, &b, false).await;
    assert_eq!((applied(&pass).merged.len(), applied(&pass).replaced.len()), (1, 1));
    assert!(
        second.seen.lock().unwrap()[0].contains(&format!("id={goal} [goals] 每天早起写作")),
        "existing items are offered for merging"
    );
    assert_eq!(h.store.memory_items(U, None).unwrap().len(), 2, "merged, not duplicated");
    let g = h.store.memory_item(U, &goal).unwrap();
    assert_eq!(g.text, "每天早起写作");
    assert_eq!(g.sources.iter().map(|s| s.message_id).collect::<Vec<_>>(), vec![m1, m2]);
    let f = h.store.memory_item(U, &fact).unwrap();
    assert_eq!(f.text, "在上海做设计师");
    assert_eq!(f.history[0].text, "在杭州做设计师");

    // 3. An edit sticks through a later merge.
    h.store.edit_memory_item(U, &goal, "每天早上六点写作 30 分钟").unwrap();
    h.turn(say_in(&b, "这周写作坚持了三天")).await;
    let m3 = *user_ids(&h, &b).last().unwrap();
    let third = answering(&format!(
        r#"{{"items": [{{"kind": "goals", "text": "坚持早起写作", "confidence": 0.95, "sources": [{m3}], "same_as": "{goal}"}}]}}"#
    ));
    extract(&h, &third, &b, false).await;
    assert_eq!(h.store.memory_item(U, &goal).unwrap().text, "每天早上六点写作 30 分钟");

    // The lifecoach skill declares `extracted`: what is remembered reaches its prompt.
    let prompt = phase2_prompt(&h, "lifecoach");
    assert!(
        prompt.contains("每天早上六点写作 30 分钟") && prompt.contains("在上海做设计师"),
        "{prompt}"
    );

    // 4. Forget is permanent: reading conversation B again does not bring the fact back.
    h.store.forget_memory_item(U, &fact).unwrap();
    let again = answering(&format!(
        r#"{{"items": [{{"kind": "facts", "text": "在上海做设计师", "confidence": 0.9, "sources": [{m2}]}},
                       {{"kind": "goals", "text": "每天早起写作", "confidence": 0.8, "sources": [{m2}], "same_as": "{goal}"}}]}}"#
    ));
    let pass = extract(&h, &again, &b, true).await;
    assert_eq!(applied(&pass).merged, vec![goal.clone()]);
    assert_eq!(applied(&pass).dropped_forgotten, 1);
    let items = h.store.memory_items(U, None).unwrap();
    assert_eq!(
        items.iter().map(|i| i.id.as_str()).collect::<Vec<_>>(),
        vec![goal.as_str()],
        "{items:?}"
    );
    assert!(
        !phase2_prompt(&h, "lifecoach").contains("在上海做设计师"),
        "forgotten is gone from prompts"
    );
}

#[tokio::test]
async fn memory_off_means_no_extraction_and_nothing_in_prompts() {
    let h = chat_harness(Options::default());
    let a = h.turn(say("我是一名护士，在夜班工作")).await.result.conversation_id;
    let m1 = user_ids(&h, &a)[0];
    let model = answering(&format!(
        r#"{{"items": [{{"kind": "facts", "text": "护士，上夜班", "sources": [{m1}]}}]}}"#
    ));
    extract(&h, &model, &a, false).await;
    assert!(phase2_prompt(&h, "lifecoach").contains("护士，上夜班"));

    memory::set_memory_enabled(&h.store, U, false).unwrap();
    assert!(
        !phase2_prompt(&h, "lifecoach").contains("护士"),
        "nothing remembered reaches a prompt"
    );
    h.turn(say_in(&a, "我下个月要考研")).await;
    let pass = extract(&h, &model, &a, false).await;
    assert_eq!(pass.status, ExtractionStatus::Off);
    assert_eq!(model.seen.lock().unwrap().len(), 1, "no model call while memory is off");
    memory::set_memory_enabled(&h.store, U, true).unwrap();
    assert!(phase2_prompt(&h, "lifecoach").contains("护士，上夜班"));
}

#[tokio::test]
async fn a_risky_message_stays_out_of_memory_and_a_safe_lookalike_is_read() {
    let h = chat_harness(Options::default());
    let a = h.turn(say("我想自杀")).await.result.conversation_id;
    h.turn(say_in(&a, "笑死我了，我的猫叫豆豆")).await;
    let ids = user_ids(&h, &a);
    assert_eq!(
        h.store.message_safety(ids[0]).unwrap().map(|m| m.risk),
        Some(vibe_wire::SafetyRisk::Acute)
    );
    assert_eq!(h.store.message_safety(ids[1]).unwrap(), None, "a lookalike is not marked");

    // An answer citing the risky message is refused: it was never shown.
    let bad = answering(&format!(
        r#"{{"items": [{{"kind": "concerns", "text": "有自杀念头", "sources": [{}]}}]}}"#,
        ids[0]
    ));
    let pass = extract(&h, &bad, &a, false).await;
    let seen = bad.seen.lock().unwrap()[0].clone();
    assert!(!seen.contains("自杀") && seen.contains("豆豆"), "{seen}");
    assert!(
        !seen.contains(&format!("[#{} ", ids[0] + 1)),
        "the coach's reply to the risky message is left out too: {seen}"
    );
    assert_eq!(pass.skipped_risky, 2);
    assert!(
        matches!(&pass.status, ExtractionStatus::Rejected { reason } if reason.contains(&format!("cites message {}", ids[0])))
    );
    assert!(h.store.memory_items(U, None).unwrap().is_empty());

    let good = answering(&format!(
        r#"{{"items": [{{"kind": "facts", "text": "有一只叫豆豆的猫", "sources": [{}]}}]}}"#,
        ids[1]
    ));
    let pass = extract(&h, &good, &a, false).await;
    assert_eq!(applied(&pass).added.len(), 1);
    assert_eq!(h.store.memory_items(U, None).unwrap()[0].text, "有一只叫豆豆的猫");
}

#[tokio::test]
async fn bad_output_changes_nothing_and_is_reported_in_the_run_events() {
    let h = chat_harness(Options::default());
    let a = h.turn(say("我喜欢跑步")).await.result.conversation_id;
    let m1 = user_ids(&h, &a)[0];
    let answers = [
        "这不是 JSON".to_string(),
        format!(
            r#"{{"items": [{{"kind": "facts", "text": "喜欢跑步", "sources": [{m1}], "mood": "happy"}}]}}"#
        ),
        r#"{"items": [{"kind": "facts", "text": "喜欢跑步"}]}"#.to_string(),
    ];
    for answer in answers {
        let model = answering(&answer);
        let pass = extract(&h, &model, &a, false).await;
        let ExtractionStatus::Rejected { reason } = &pass.status else { panic!("{pass:?}") };
        let run_id = pass.run_id.unwrap();
        assert_eq!(h.store.run(&run_id).unwrap().unwrap().status.as_str(), "failed");
        let log = h.app.run_folders().read_events(&run_id).unwrap();
        let error = log.events.iter().find_map(|e| match &e.event {
            Event::Error { error } => Some(error.clone()),
            _ => None,
        });
        let error = error.expect("an error event");
        assert_eq!(error.kind.as_str(), "memory_output");
        assert_eq!(&error.message, reason);
        assert!(h.store.memory_items(U, None).unwrap().is_empty());
        assert_eq!(
            h.store.memory_pending(&a, false).unwrap().watermark,
            0,
            "the messages stay unread"
        );
    }
}

#[tokio::test]
async fn the_chat_service_extracts_after_every_n_turns() {
    // Fresh database: the person's messages are 1 and 3 (the coach's 2 and 4).
    let script = r#"mode: matched
responses:
  - when: {user: "新消息"}
    text: "{\"items\": [{\"kind\": \"goals\", \"text\": \"学会游泳\", \"confidence\": 0.8, \"sources\": [3]}]}"
  - text: "好的"
"#;
    let options = Options {
        memory: MemorySettings { quiet_minutes: 10, every_turns: 2 },
        ..Options::default()
    };
    let h = Harness::new(Arc::new(ScriptedModel::from_yaml(script, "chat").unwrap()), options);
    let a = h.turn(say("今天好累")).await.result.conversation_id;
    assert!(h.store.memory_items(U, None).unwrap().is_empty(), "one turn is not enough");
    h.turn(say_in(&a, "我今年想学会游泳")).await;
    assert_eq!(user_ids(&h, &a), vec![1, 3]);
    let items = h.store.memory_items(U, None).unwrap();
    assert_eq!(items.len(), 1);
    assert_eq!(items[0].text, "学会游泳");
    let runs = h.store.list_runs(Some(&a), 10).unwrap();
    assert_eq!(runs.len(), 3, "two turns and one extraction run");
}

#[tokio::test]
async fn a_failed_pass_waits_doubling_before_the_next_try_and_success_resets_it() {
    use chrono::{Duration, Utc};
    let settings = MemorySettings { quiet_minutes: 10, every_turns: 0 };
    let h = chat_harness(Options { memory: settings, ..Options::default() });
    let a = h.turn(say("我今年想学会游泳")).await.result.conversation_id;
    let broken = answering("this is not JSON");
    let start = Utc::now() + Duration::minutes(11);

    let passes =
        memory::extract_due(&h.store, &broken, None, U, &settings, start, 2).await.unwrap();
    assert_eq!(passes.len(), 1, "quiet for 11 minutes: due");
    let wait = passes[0].backoff.clone().expect("a failed pass records a wait");
    assert_eq!(wait.failures, 1);
    let next = chrono::DateTime::parse_from_rfc3339(&wait.next_try_at).unwrap();
    assert_eq!(next.signed_duration_since(start).num_minutes(), 10, "first wait: the quiet time");
    assert_eq!(h.store.memory_backoff(&a).unwrap(), Some(wait.clone()), "stored for later runs");

    // The next turns do not try again while the wait holds: no call reaches the model.
    for minutes in [1, 5, 9] {
        let now = start + Duration::minutes(minutes);
        let passes = memory::extract_due(&h.store, &broken, None, U, &settings, now, 2).await;
        assert!(passes.unwrap().is_empty(), "{minutes} min after the failure");
    }
    assert_eq!(broken.seen.lock().unwrap().len(), 1);

    // After the wait it is tried again; a second failure doubles the wait.
    let later = start + Duration::minutes(11);
    let passes =
        memory::extract_due(&h.store, &broken, None, U, &settings, later, 2).await.unwrap();
    let wait = passes[0].backoff.clone().unwrap();
    assert_eq!(wait.failures, 2);
    let next = chrono::DateTime::parse_from_rfc3339(&wait.next_try_at).unwrap();
    assert_eq!(next.signed_duration_since(later).num_minutes(), 20);
    assert_eq!(broken.seen.lock().unwrap().len(), 2);

    // A pass that goes through ends the wait.
    let good = answering(
        r#"{"items": [{"kind": "goals", "text": "学会游泳", "confidence": 0.8, "sources": [1]}]}"#,
    );
    let after = later + Duration::minutes(21);
    let passes = memory::extract_due(&h.store, &good, None, U, &settings, after, 2).await.unwrap();
    assert_eq!(applied(&passes[0]).added.len(), 1);
    assert_eq!(passes[0].backoff, None);
    assert_eq!(h.store.memory_backoff(&a).unwrap(), None, "success resets the wait");
}

/// Every message of `conversation` dated `minutes` ago, as if the person had walked away then.
fn age_messages(h: &Harness, conversation: &str, minutes: i64) {
    let at = (chrono::Utc::now() - chrono::Duration::minutes(minutes)).to_rfc3339();
    let conn = crate::harness::raw_connection(h.dir.path());
    conn.execute(
        "UPDATE messages SET created_at = ?1 WHERE conversation_id = ?2",
        [&at, conversation],
    )
    .unwrap();
}

/// A harness reading a conversation once it is quiet for 10 minutes (no turn trigger), whose
/// model answers the extraction request with one goal from message 1 and a turn with "好的".
fn quiet_harness() -> Harness {
    let script = r#"mode: matched
responses:
  - when: {user: "新消息"}
    text: "{\"items\": [{\"kind\": \"goals\", \"text\": \"学会游泳\", \"confidence\": 0.8, \"sources\": [1]}]}"
  - text: "好的"
"#;
    let options = Options {
        memory: MemorySettings { quiet_minutes: 10, every_turns: 0 },
        ..Options::default()
    };
    Harness::new(Arc::new(ScriptedModel::from_yaml(script, "chat").unwrap()), options)
}

#[tokio::test]
async fn a_conversation_left_quiet_is_read_by_the_idle_check_without_a_next_turn() {
    let h = quiet_harness();
    let a = h.turn(say("我今年想学会游泳")).await.result.conversation_id;

    // Just spoken: not quiet yet, so the idle check reads nothing.
    let early = h.app.extract_memory_due().await.unwrap();
    assert!(early.passes.is_empty(), "{early:?}");
    assert!(h.store.memory_items(U, None).unwrap().is_empty());

    // Eleven minutes later, with no turn since, the idle check reads it.
    age_messages(&h, &a, 11);
    let due = h.app.extract_memory_due().await.unwrap();
    assert_eq!(due.passes.len(), 1, "{due:?}");
    assert_eq!(due.passes[0].conversation_id, a);
    assert_eq!(due.passes[0].trigger, Some(vibe_wire::command::MemoryTrigger::Quiet));
    let items = h.store.memory_items(U, None).unwrap();
    assert_eq!(items.len(), 1);
    assert_eq!(items[0].text, "学会游泳");

    // Read once: the next check finds nothing new.
    assert!(h.app.extract_memory_due().await.unwrap().passes.is_empty());
}

#[tokio::test]
async fn two_idle_checks_at_once_read_the_messages_once() {
    let h = quiet_harness();
    let a = h.turn(say("我今年想学会游泳")).await.result.conversation_id;
    age_messages(&h, &a, 11);
    let (first, second) = tokio::join!(h.app.extract_memory_due(), h.app.extract_memory_due());
    let passes = first.unwrap().passes.len() + second.unwrap().passes.len();
    assert_eq!(passes, 1, "one of the two found the passes under way and left them");
    assert_eq!(h.store.memory_items(U, None).unwrap().len(), 1);
}

#[tokio::test]
async fn only_declared_fields_reach_a_prompt_newest_and_surest_first_within_the_budget() {
    let h = chat_harness(Options::default());
    let a =
        h.turn(say("我在杭州做设计师，想每天早起写作，也想学会游泳")).await.result.conversation_id;
    let m1 = user_ids(&h, &a)[0];
    let model = answering(&format!(
        r#"{{"items": [{{"kind": "facts", "text": "在杭州做设计师", "confidence": 0.9, "sources": [{m1}]}},
                       {{"kind": "goals", "text": "每天早起写作", "confidence": 0.6, "sources": [{m1}]}},
                       {{"kind": "goals", "text": "学会游泳", "confidence": 0.95, "sources": [{m1}]}}]}}"#
    ));
    assert_eq!(applied(&extract(&h, &model, &a, false).await).added.len(), 3);

    // lifecoach declares `extracted`: every item, by kind, the surest first among items of a
    // kind seen together.
    let coach = phase2_prompt(&h, "lifecoach");
    let at = |text: &str| coach.find(text).unwrap_or_else(|| panic!("{text} missing:\n{coach}"));
    assert!(at("在杭州做设计师") > 0);
    assert!(at("学会游泳") < at("每天早起写作"), "{coach}");
    // tarot and bazi declare no memory field: nothing remembered reaches them.
    for skill in ["tarot", "bazi"] {
        let prompt = phase2_prompt(&h, skill);
        for text in ["学会游泳", "在杭州做设计师", "每天早起写作"] {
            assert!(!prompt.contains(text), "{skill} was given {text}:\n{prompt}");
        }
    }

    // A budget that holds one item keeps the first in that order and leaves the rest out.
    let one = h.service.context().tokenizer().count("学会游泳") + 2;
    let change = vibe_wire::command::SettingChange {
        key: "chat.context.memory_tokens".into(),
        value: one.into(),
    };
    h.app
        .update_settings(vibe_wire::command::UpdateSettingsRequest { changes: vec![change] })
        .unwrap();
    let request = PromptRequest {
        user: U,
        active_skill: Some("lifecoach"),
        user_message: "你好",
        ..PromptRequest::default()
    };
    let tight = h.app.chat().unwrap().context().system_prompt(&request).unwrap().text();
    assert!(tight.contains("学会游泳"), "{tight}");
    assert!(!tight.contains("在杭州做设计师") && !tight.contains("每天早起写作"), "{tight}");
}
