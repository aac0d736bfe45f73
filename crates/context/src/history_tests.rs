//! Tests of the history window and compaction against a real (in-memory) store.

use serde_json::json;
use vibe_llm::Message;
use vibe_skills::HistoryLimits;
use vibe_store::{Conversation, LOCAL_USER, NewMessage, Role, Store};
use vibe_wire::Phase;

use super::fixtures::{builder_with, builtin};
use super::{ContextLimits, HistoryMode};

/// `n` alternating user / assistant text messages; the user ones say `u<i>`.
pub(crate) fn chat(store: &Store, conv: &str, n: usize) {
    for i in 0..n {
        let (role, text) = if i % 2 == 0 {
            (Role::User, format!("u{i}"))
        } else {
            (Role::Assistant, format!("a{i}"))
        };
        store
            .append_message(conv, NewMessage { token_count: 10, ..NewMessage::text(role, text) })
            .unwrap();
    }
}

fn texts(messages: &[Message]) -> Vec<String> {
    messages
        .iter()
        .map(|m| match m {
            Message::System { content }
            | Message::User { content }
            | Message::Tool { content, .. } => content.clone(),
            Message::Assistant { content, tool_calls } if content.is_empty() => {
                format!("calls:{}", tool_calls.len())
            }
            Message::Assistant { content, .. } => content.clone(),
        })
        .collect()
}

fn conversation(store: &Store) -> Conversation {
    store.create_conversation(LOCAL_USER, None).unwrap()
}

#[test]
fn fixed_counts_per_phase_and_per_skill() {
    let (b, store) = builtin();
    let conv = conversation(&store);
    chat(&store, &conv.id, 30);
    let h1 = b.history(&conv, Phase::Phase1, None).unwrap();
    assert_eq!(h1.messages.len(), 5);
    assert_eq!(texts(&h1.messages).last().unwrap(), "a29");
    assert!(h1.more_before);
    let h2 = b.history(&conv, Phase::Phase2, None).unwrap();
    assert_eq!(h2.messages.len(), 10);
    assert_eq!(h2.tokens, 100);
    let skill = HistoryLimits { max_messages: Some(16), max_tokens: None };
    assert_eq!(b.history(&conv, Phase::Phase2, Some(&skill)).unwrap().messages.len(), 16);
    // The skill's setting is for phase 2 only.
    assert_eq!(b.history(&conv, Phase::Phase1, Some(&skill)).unwrap().messages.len(), 5);
    let ids = store.messages(&conv.id).unwrap();
    assert_eq!(h2.message_ids, ids[20..].iter().map(|m| m.id).collect::<Vec<_>>());
}

#[test]
fn a_short_conversation_is_whole_and_not_flagged() {
    let (b, store) = builtin();
    let conv = conversation(&store);
    chat(&store, &conv.id, 3);
    let h = b.history(&conv, Phase::Phase2, None).unwrap();
    assert_eq!(texts(&h.messages), ["u0", "a1", "u2"]);
    assert!(!h.more_before);
}

#[test]
fn token_budget_mode_fits_the_budget_and_keeps_the_latest_user_message() {
    let limits = ContextLimits {
        history_mode: HistoryMode::TokenBudget,
        phase2_history_tokens: 100,
        ..ContextLimits::default()
    };
    let (b, store) = builder_with(None, true, limits);
    let conv = conversation(&store);
    chat(&store, &conv.id, 40);
    let h = b.history(&conv, Phase::Phase2, None).unwrap();
    assert_eq!(h.messages.len(), 10);
    assert_eq!(h.tokens, 100);
    // A huge latest message is still sent.
    let big = NewMessage { token_count: 5000, ..NewMessage::text(Role::User, "很长的消息") };
    store.append_message(&conv.id, big).unwrap();
    let h = b.history(&conv, Phase::Phase2, None).unwrap();
    assert_eq!(texts(&h.messages), ["很长的消息"]);
}

#[test]
fn token_budget_counts_messages_stored_without_a_count() {
    let limits = ContextLimits {
        history_mode: HistoryMode::TokenBudget,
        phase2_history_tokens: 120,
        ..ContextLimits::default()
    };
    let (b, store) = builder_with(None, true, limits);
    let conv = conversation(&store);
    for i in 0..6 {
        let text = format!("第 {i} 条：{}", "很长的一段话，".repeat(20));
        store.append_message(&conv.id, NewMessage::text(Role::User, text)).unwrap();
    }
    let h = b.history(&conv, Phase::Phase2, None).unwrap();
    assert!(h.tokens <= 120 || h.messages.len() == 1, "{}", h.tokens);
    assert!(h.notices.iter().any(|n| n.contains("left out to fit 120 tokens")), "{:?}", h.notices);
    assert!(texts(&h.messages).last().unwrap().starts_with("第 5 条"));
}

#[test]
fn tool_exchanges_stay_whole_and_convert() {
    let (b, store) = builtin();
    let conv = conversation(&store);
    chat(&store, &conv.id, 11);
    let calls = json!([{"id": "c1", "name": "read_state", "arguments": "{}"}, {"id": "c2", "name": "show_chart", "arguments": "{}"}]);
    let call = NewMessage { tool_calls: Some(calls), ..NewMessage::text(Role::Assistant, "") };
    store.append_message(&conv.id, call).unwrap();
    for id in ["c1", "c2"] {
        let result = NewMessage {
            tool_call_id: Some(id.into()),
            ..NewMessage::text(Role::Tool, "{\"status\":\"success\"}")
        };
        store.append_message(&conv.id, result).unwrap();
    }
    store.append_message(&conv.id, NewMessage::text(Role::Assistant, "done")).unwrap();
    // Window of 5: u10, the exchange (3 messages, never split) and the answer.
    let h = b.history(&conv, Phase::Phase1, None).unwrap();
    let shown = texts(&h.messages);
    assert_eq!(shown[..2], ["u10".to_string(), "calls:2".to_string()]);
    assert_eq!(shown.last().unwrap(), "done");
    let Message::Assistant { tool_calls, .. } = &h.messages[1] else { panic!("{:?}", h.messages) };
    assert_eq!(tool_calls.iter().map(|c| c.id.as_str()).collect::<Vec<_>>(), ["c1", "c2"]);
    assert!(matches!(&h.messages[2], Message::Tool { tool_call_id, .. } if tool_call_id == "c1"));
    assert!(matches!(&h.messages[3], Message::Tool { tool_call_id, .. } if tool_call_id == "c2"));
}

#[test]
fn interrupted_replies_are_passed_with_a_notice() {
    let (b, store) = builtin();
    let conv = conversation(&store);
    chat(&store, &conv.id, 1);
    let partial =
        NewMessage { interrupted: true, ..NewMessage::text(Role::Assistant, "我们先看看") };
    store.append_message(&conv.id, partial).unwrap();
    store.append_message(&conv.id, NewMessage::text(Role::User, "继续")).unwrap();
    let h = b.history(&conv, Phase::Phase2, None).unwrap();
    assert!(texts(&h.messages)[1].starts_with("我们先看看\n\n[此回复在生成中被中断]"));
    assert_eq!(h.notices.len(), 1);
}

#[test]
fn summarised_messages_leave_the_window() {
    let (b, store) = builtin();
    let conv = conversation(&store);
    chat(&store, &conv.id, 12);
    let ids: Vec<i64> = store.messages(&conv.id).unwrap().iter().map(|m| m.id).collect();
    store.set_conversation_summary(&conv.id, "- 用户：u0", ids[7]).unwrap();
    let conv = store.conversation(&conv.id).unwrap();
    let h = b.history(&conv, Phase::Phase2, None).unwrap();
    assert_eq!(texts(&h.messages), ["u8", "a9", "u10", "a11"]);
    assert!(!h.more_before);
}

/// A compaction after a history read folds from the window that read returned; when the
/// summary moved meanwhile (another process compacted), it reads the window again instead of
/// folding messages the summary already holds.
#[tokio::test]
async fn compaction_reuses_the_window_just_read_unless_the_summary_moved() {
    let (b, store) = builtin();
    let conv = conversation(&store);
    chat(&store, &conv.id, 30);
    let (history, window) = b.history_and_window(&conv, Phase::Phase1, None).unwrap();
    assert!(history.more_before);
    let same = b.compact_window(&conv, Phase::Phase1, Some(window), None).await.unwrap();
    let reread = {
        let fresh = conversation(&store);
        chat(&store, &fresh.id, 30);
        b.compact(&fresh, Phase::Phase1, None).await.unwrap()
    };
    let (same, reread) = (same.expect("folded"), reread.expect("folded"));
    assert_eq!(same.folded_messages, reread.folded_messages, "as if the window were read again");

    // Another process folds everything before the window meanwhile: nothing is left to fold,
    // and the messages the window still shows stay out of the summary.
    let conv = conversation(&store);
    chat(&store, &conv.id, 30);
    let (_, stale) = b.history_and_window(&conv, Phase::Phase1, None).unwrap();
    let ids: Vec<i64> = store.messages(&conv.id).unwrap().iter().map(|m| m.id).collect();
    store.set_conversation_summary(&conv.id, "- 用户：早先的事", ids[24]).unwrap();
    assert_eq!(b.compact_window(&conv, Phase::Phase1, Some(stale), None).await.unwrap(), None);
}
