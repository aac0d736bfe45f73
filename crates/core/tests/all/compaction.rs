//! Compaction inside a run: the `compacted` event says who wrote the summary, why the digest
//! stood in, and what the summarising call cost; that cost is part of the run's usage.

use vibe_store::{LOCAL_USER, NewMessage, Role};
use vibe_wire::{Event, SummaryBy, TokenUsage};

use crate::harness::{Harness, Options, Turn, say_in};

/// A conversation of 30 earlier messages (more than the phase-1 window of 5).
fn long_conversation(h: &Harness) -> String {
    let conv = h.store.create_conversation(LOCAL_USER, None).unwrap();
    for i in 0..30 {
        let (role, text) = if i % 2 == 0 {
            (Role::User, format!("第 {i} 条：我叫林晓，最近工作上的事情很多。"))
        } else {
            (Role::Assistant, format!("第 {i} 条回复：听起来你很辛苦，我们慢慢来。"))
        };
        h.store
            .append_message(
                &conv.id,
                NewMessage { token_count: 20, ..NewMessage::text(role, text) },
            )
            .unwrap();
    }
    conv.id
}

fn compacted(turn: &Turn) -> (Option<SummaryBy>, Option<String>, Option<TokenUsage>) {
    let found: Vec<_> = turn
        .events
        .iter()
        .filter_map(|e| match &e.event {
            Event::Compacted { summary_by, fallback_reason, usage, .. } => {
                Some((*summary_by, fallback_reason.clone(), *usage))
            }
            _ => None,
        })
        .collect();
    assert_eq!(found.len(), 1, "{:?}", turn.types());
    found.into_iter().next().unwrap()
}

fn run_usage(turn: &Turn) -> TokenUsage {
    match &turn.events.last().unwrap().event {
        Event::RunFinished { usage, .. } => *usage,
        other => panic!("last event {other:?}"),
    }
}

const SUMMARY_THEN_ANSWER: &str = r#"
responses:
  - text: "- 用户叫林晓，最近工作很忙。"
    usage: {prompt_tokens: 900, completion_tokens: 30, total_tokens: 930}
  - text: "我们接着聊。"
    usage: {prompt_tokens: 500, completion_tokens: 20, total_tokens: 520}
"#;

#[tokio::test]
async fn a_model_summary_says_so_and_its_tokens_count_in_the_run() {
    let h = Harness::scripted_with(
        SUMMARY_THEN_ANSWER,
        Options { summarize_with_model: true, ..Options::default() },
    );
    let conv = long_conversation(&h);
    let turn = h.turn(say_in(&conv, "继续")).await;
    let (by, reason, usage) = compacted(&turn);
    assert_eq!(by, Some(SummaryBy::Model));
    assert_eq!(reason, None);
    let cost = TokenUsage { prompt_tokens: 900, completion_tokens: 30, total_tokens: 930 };
    assert_eq!(usage, Some(cost));
    assert_eq!(turn.reply(), "我们接着聊。");
    assert_eq!(run_usage(&turn).total_tokens, 930 + 520, "the summary's tokens are the run's too");
    assert_eq!(turn.result.usage.total_tokens, 930 + 520);
    let stored = h.store.conversation(&conv).unwrap().summary.unwrap();
    assert_eq!(stored, "- 用户叫林晓，最近工作很忙。");
}

#[tokio::test]
async fn a_failed_summary_call_says_why_the_digest_stands_and_what_it_cost() {
    let script = r#"
responses:
  - error: {kind: server, message: overloaded}
  - text: "我们接着聊。"
    usage: {prompt_tokens: 500, completion_tokens: 20, total_tokens: 520}
"#;
    let h = Harness::scripted_with(
        script,
        Options { summarize_with_model: true, ..Options::default() },
    );
    let conv = long_conversation(&h);
    let turn = h.turn(say_in(&conv, "继续")).await;
    let (by, reason, usage) = compacted(&turn);
    assert_eq!(by, Some(SummaryBy::Digest));
    let reason = reason.unwrap();
    assert!(
        reason.contains("the summarising model call failed") && reason.contains("overloaded"),
        "{reason}"
    );
    let usage = usage.expect("the failed call was counted");
    assert!(usage.prompt_tokens > 100, "{usage:?}");
    assert_eq!(run_usage(&turn).total_tokens, usage.total_tokens + 520);
    let stored = h.store.conversation(&conv).unwrap().summary.unwrap();
    assert!(stored.contains("我叫林晓"), "the digest keeps the facts: {stored}");
}

#[tokio::test]
async fn without_model_summaries_the_digest_is_named_and_costs_nothing() {
    let script = "responses:\n  - text: \"我们接着聊。\"\n";
    let h = Harness::scripted(script);
    let conv = long_conversation(&h);
    let turn = h.turn(say_in(&conv, "继续")).await;
    let (by, reason, usage) = compacted(&turn);
    assert_eq!(by, Some(SummaryBy::Digest));
    assert_eq!(reason.as_deref(), Some(vibe_context::SUMMARIES_OFF));
    assert_eq!(usage, None);
}

/// A conversation whose last reply alone is larger than the context window (a model that
/// wrote a whole book in one answer).
fn conversation_with_a_huge_reply(h: &Harness) -> String {
    let conv = h.store.create_conversation(LOCAL_USER, None).unwrap();
    let huge = format!("这是一本书的开头。{}", "很长很长的内容，".repeat(12_000));
    for (role, text, tokens) in
        [(Role::User, "帮我写一本书".to_string(), 10), (Role::Assistant, huge, 40_000)]
    {
        h.store
            .append_message(
                &conv.id,
                NewMessage { token_count: tokens, ..NewMessage::text(role, text) },
            )
            .unwrap();
    }
    conv.id
}

#[tokio::test]
async fn a_reply_larger_than_the_context_window_is_folded_so_continue_works() {
    let script = "responses:\n  - text: \"好的，我们接着写。\"\n  - text: \"第二章开始了。\"\n";
    let h = Harness::scripted(script);
    let conv = conversation_with_a_huge_reply(&h);
    let turn = h.turn(say_in(&conv, "继续")).await;
    assert_eq!(turn.result.stop_reason, vibe_wire::StopReason::Completed, "{:?}", turn.types());
    assert_eq!(turn.reply(), "好的，我们接着写。");
    compacted(&turn);
    let summary = h.store.conversation(&conv).unwrap().summary.unwrap();
    assert!(summary.contains("这是一本书的开头"), "the huge reply is in the summary: {summary}");
    // And the next "continue" too: the huge reply stays folded.
    let again = h.turn(say_in(&conv, "继续")).await;
    assert_eq!(again.result.stop_reason, vibe_wire::StopReason::Completed, "{:?}", again.types());
    assert_eq!(again.reply(), "第二章开始了。");
}
