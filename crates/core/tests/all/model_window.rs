//! Budgets follow the model's context window (issue 32, docs/local-model.md, "Budgets follow
//! the model"): with a 4k-token window (refused by the settings before the budgets were
//! fitted), a ten-turn conversation with long messages never sends a request bigger than the
//! window less the reply reserve, never stops for the context, and every `model_request` names
//! the budget it was fitted to — in phase 1, and in phase 2 through the lifecoach skill and the
//! first steps of its dankoe protocol (the last-resort trims: tools described in a sentence,
//! the persona cut to its opening).

use std::sync::Arc;

use serde_json::{Value, json};
use tokio_util::sync::CancellationToken;
use vibe_agent::agent::ApprovalPolicy;
use vibe_agent::chat::TurnRequest;
use vibe_context::Tokenizer;
use vibe_core::app::{App, AppPaths, Injections, Overrides};
use vibe_llm::ScriptedModel;
use vibe_runlog::emit::{CollectSink, EventSink};
use vibe_wire::command::{SettingChange, UpdateSettingsRequest};
use vibe_wire::{Event, PromptBudget, StopReason};

use crate::recording::Recording;

const WINDOW: u32 = 4096;

fn text(t: &str) -> Value {
    json!({"text": t})
}

/// Ten long answers.
fn script() -> Vec<Value> {
    let long = "我认真想了想，".repeat(30);
    (1..=10).map(|n| text(&format!("第 {n} 次回答：{long}"))).collect()
}

#[tokio::test]
async fn a_4k_context_model_gets_requests_that_fit_over_ten_turns() {
    let dir = tempfile::tempdir().unwrap();
    let script = json!({"model": "scripted-4k", "responses": script()}).to_string();
    let model = Arc::new(Recording::new(ScriptedModel::from_yaml(&script, "4k").unwrap()));
    let injections = Injections {
        model: Some(model.clone() as Arc<dyn vibe_llm::ChatModel>),
        ..Injections::default()
    };
    let keys = Arc::new(vibe_core::app::EphemeralKeys::default());
    let app = App::open_injected(AppPaths::new(dir.path()), Overrides::default(), keys, injections)
        .unwrap();
    let window =
        SettingChange { key: "chat.context.max_context_tokens".into(), value: WINDOW.into() };
    app.update_settings(UpdateSettingsRequest { changes: vec![window] }).unwrap();
    let service = app.chat().unwrap();

    let messages = [
        "我想彻底改变现在的生活",
        "好，开始吧",
        "我每天都很累，总抱怨加班、没时间运动、刷手机",
        "我真正想要的是有更多属于自己的时间，去做喜欢的事",
        "我不想再过那种被消息追着跑、晚上只剩刷手机的日子",
        "一年后我希望每天早上能写作一小时，周末去爬山",
        "我发现自己一直在逃避写作，因为怕写得不好",
        "明天我先早起半小时，写三百字",
        "谢谢，这一轮让我清楚了很多",
        "下周我们再复盘一次吧",
    ];
    let mut conversation = None;
    let mut budgets = Vec::new();
    let tk = Tokenizer::shared().unwrap();
    for (turn, message) in messages.iter().enumerate() {
        let long_message = format!("{message}。{}", "说来话长，".repeat(40));
        let request = TurnRequest {
            conversation_id: conversation.clone(),
            message: long_message,
            ..TurnRequest::default()
        };
        let sink = Arc::new(CollectSink::default());
        let sinks: Vec<Arc<dyn EventSink>> = vec![sink.clone()];
        let result = service
            .run_turn(request, sinks, Arc::new(ApprovalPolicy::DenyAll), CancellationToken::new())
            .await
            .unwrap();
        conversation = Some(result.conversation_id);
        for envelope in sink.events() {
            match envelope.event {
                Event::ModelRequest { prompt_tokens, budget, .. } => {
                    let budget: PromptBudget = budget.expect("the budget is named");
                    assert_eq!(budget.context_window, WINDOW);
                    assert!(
                        prompt_tokens + budget.reply_reserve <= WINDOW,
                        "turn {}: {prompt_tokens} prompt tokens + {} reserved > {WINDOW}",
                        turn + 1,
                        budget.reply_reserve
                    );
                    budgets.push(budget);
                }
                Event::RunFinished { stop_reason, .. } => assert_ne!(
                    stop_reason,
                    StopReason::MaxContextTokens,
                    "turn {}: context exceeded",
                    turn + 1
                ),
                Event::Error { error } => panic!("turn {}: {error:?}", turn + 1),
                _ => {}
            }
        }
    }
    assert!(budgets.len() >= 10, "{} requests", budgets.len());
    let fitted = PromptBudget { context_window: WINDOW, prompt_budget: 1228, reply_reserve: 1024 };
    assert!(budgets.iter().all(|b| *b == fitted), "{budgets:?}");
    // The requests as sent, counted again (messages with their framing, tool definitions).
    for (i, request) in model.requests.lock().unwrap().iter().enumerate() {
        let sent = request.messages.iter().map(|m| tk.count_message(m)).sum::<u32>()
            + request.tools.iter().map(|t| tk.count_tool(t)).sum::<u32>();
        assert!(sent + 1024 <= WINDOW, "request {i}: {sent} tokens + 1024 reserved > {WINDOW}");
    }
}

/// The skill activated at once, then long answers.
fn phase2_script() -> Vec<Value> {
    let call = json!({"tool_calls": [{"name": "use_skill", "arguments": {"skill": "lifecoach"}}]});
    std::iter::once(call).chain(script()).collect()
}

#[tokio::test]
async fn a_4k_context_model_runs_a_skill_and_its_protocol_over_ten_turns() {
    let dir = tempfile::tempdir().unwrap();
    let script = json!({"model": "scripted-4k", "responses": phase2_script()}).to_string();
    let model = Arc::new(Recording::new(ScriptedModel::from_yaml(&script, "4k").unwrap()));
    let injections = Injections {
        model: Some(model.clone() as Arc<dyn vibe_llm::ChatModel>),
        ..Injections::default()
    };
    let keys = Arc::new(vibe_core::app::EphemeralKeys::default());
    let app = App::open_injected(AppPaths::new(dir.path()), Overrides::default(), keys, injections)
        .unwrap();
    let window =
        SettingChange { key: "chat.context.max_context_tokens".into(), value: WINDOW.into() };
    app.update_settings(UpdateSettingsRequest { changes: vec![window] }).unwrap();
    let service = app.chat().unwrap();
    let steps = [
        json!({"dull_dissatisfaction": "每天都很累", "top_complaints": ["加班", "没时间运动", "刷手机"], "revealed_wants": "安全感", "unbearable_truth": "我在逃避"}),
    ];
    let mut conversation: Option<String> = None;
    let mut phase2_budgets = Vec::new();
    for turn in 0..10 {
        if turn == 2 {
            app.protocols()
                .start(Some("lifecoach"), "dankoe", conversation.as_deref(), None)
                .unwrap();
        }
        if turn == 4 {
            let advanced =
                app.protocols().advance("lifecoach", &steps[0], Some("用户回答了这一步")).unwrap();
            assert!(!matches!(advanced, vibe_protocol::Advance::Rejected { .. }), "{advanced:?}");
        }
        let message = format!("第 {} 轮：{}", turn + 1, "我最近一直在想怎么改变生活，".repeat(20));
        let request = TurnRequest {
            conversation_id: conversation.clone(),
            message,
            ..TurnRequest::default()
        };
        let sink = Arc::new(CollectSink::default());
        let sinks: Vec<Arc<dyn EventSink>> = vec![sink.clone()];
        let result = service
            .run_turn(request, sinks, Arc::new(ApprovalPolicy::DenyAll), CancellationToken::new())
            .await
            .unwrap();
        conversation = Some(result.conversation_id);
        for envelope in sink.events() {
            match envelope.event {
                Event::ModelRequest { prompt_tokens, budget, phase, .. } => {
                    let budget: PromptBudget = budget.expect("the budget is named");
                    assert!(
                        prompt_tokens + budget.reply_reserve <= WINDOW,
                        "turn {}: {prompt_tokens} prompt tokens + {} reserved > {WINDOW}",
                        turn + 1,
                        budget.reply_reserve
                    );
                    if phase == vibe_wire::Phase::Phase2 {
                        phase2_budgets.push(budget);
                    }
                }
                Event::RunFinished { stop_reason, .. } => assert_ne!(
                    stop_reason,
                    StopReason::MaxContextTokens,
                    "turn {}: context exceeded",
                    turn + 1
                ),
                Event::Error { error } => panic!("turn {}: {error:?}", turn + 1),
                _ => {}
            }
        }
    }
    assert!(phase2_budgets.len() >= 10, "{} phase-2 requests", phase2_budgets.len());
    let fitted = PromptBudget { context_window: WINDOW, prompt_budget: 1843, reply_reserve: 1024 };
    assert!(phase2_budgets.iter().all(|b| *b == fitted), "{phase2_budgets:?}");
    let tk = Tokenizer::shared().unwrap();
    let requests = model.requests.lock().unwrap();
    for (i, request) in requests.iter().enumerate() {
        let sent = request.messages.iter().map(|m| tk.count_message(m)).sum::<u32>()
            + request.tools.iter().map(|t| tk.count_tool(t)).sum::<u32>();
        assert!(sent + 1024 <= WINDOW, "request {i}: {sent} tokens + 1024 reserved > {WINDOW}");
    }
    // The protocol's step rode with the last turns: the coach still knew where it was.
    let last = requests.last().unwrap();
    let user = last
        .messages
        .iter()
        .rev()
        .find_map(|m| match m {
            vibe_llm::Message::User { content } => Some(content),
            _ => None,
        })
        .unwrap();
    assert!(user.contains("一日人生重置"), "{user}");
}
