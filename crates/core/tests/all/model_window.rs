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
use vibe_wire::{Event, Phase, PromptBudget, StopReason};

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

/// An app in `dir` whose model answers `responses` and whose context window is 4k.
fn app_with_4k_window(dir: &std::path::Path, responses: Vec<Value>) -> (App, Arc<Recording>) {
    let script = json!({"model": "scripted-4k", "responses": responses}).to_string();
    let model = Arc::new(Recording::new(ScriptedModel::from_yaml(&script, "4k").unwrap()));
    let injections = Injections {
        model: Some(model.clone() as Arc<dyn vibe_llm::ChatModel>),
        ..Injections::default()
    };
    let keys = Arc::new(vibe_core::app::EphemeralKeys::default());
    let app =
        App::open_injected(AppPaths::new(dir), Overrides::default(), keys, injections).unwrap();
    let window =
        SettingChange { key: "chat.context.max_context_tokens".into(), value: WINDOW.into() };
    app.update_settings(UpdateSettingsRequest { changes: vec![window] }).unwrap();
    (app, model)
}

/// Run one turn of `conversation` (`None`: a new one); checks every request's event fits the
/// window and the run did not stop for the context. Returns the conversation and the budgets
/// of the turn's requests with their phase.
async fn turn(
    app: &App,
    conversation: Option<String>,
    message: String,
    n: usize,
) -> (String, Vec<(Phase, PromptBudget)>) {
    let request = TurnRequest { conversation_id: conversation, message, ..TurnRequest::default() };
    let sink = Arc::new(CollectSink::default());
    let sinks: Vec<Arc<dyn EventSink>> = vec![sink.clone()];
    let result = app
        .chat()
        .unwrap()
        .run_turn(request, sinks, Arc::new(ApprovalPolicy::DenyAll), CancellationToken::new())
        .await
        .unwrap();
    let mut budgets = Vec::new();
    for envelope in sink.events() {
        match envelope.event {
            Event::ModelRequest { prompt_tokens, budget, phase, .. } => {
                let budget: PromptBudget = budget.expect("the budget is named");
                assert_eq!(budget.context_window, WINDOW);
                assert!(
                    prompt_tokens + budget.reply_reserve <= WINDOW,
                    "turn {n}: {prompt_tokens} prompt tokens + {} reserved > {WINDOW}",
                    budget.reply_reserve
                );
                budgets.push((phase, budget));
            }
            Event::RunFinished { stop_reason, .. } => {
                assert_ne!(stop_reason, StopReason::MaxContextTokens, "turn {n}: context exceeded")
            }
            Event::Error { error } => panic!("turn {n}: {error:?}"),
            _ => {}
        }
    }
    (result.conversation_id, budgets)
}

/// The requests as sent, counted again (messages with their framing, tool definitions): each
/// fits the window less the reply reserve.
fn assert_requests_fit(model: &Recording) {
    let tk = Tokenizer::shared().unwrap();
    for (i, request) in model.requests.lock().unwrap().iter().enumerate() {
        let sent = request.messages.iter().map(|m| tk.count_message(m)).sum::<u32>()
            + request.tools.iter().map(|t| tk.count_tool(t)).sum::<u32>();
        assert!(sent + 1024 <= WINDOW, "request {i}: {sent} tokens + 1024 reserved > {WINDOW}");
    }
}

#[tokio::test]
async fn a_4k_context_model_gets_requests_that_fit_over_ten_turns() {
    let dir = tempfile::tempdir().unwrap();
    let (app, model) = app_with_4k_window(dir.path(), script());
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
    for (n, message) in messages.iter().enumerate() {
        let long_message = format!("{message}。{}", "说来话长，".repeat(40));
        let (id, turn_budgets) = turn(&app, conversation, long_message, n + 1).await;
        conversation = Some(id);
        budgets.extend(turn_budgets.into_iter().map(|(_, b)| b));
    }
    assert!(budgets.len() >= 10, "{} requests", budgets.len());
    let fitted = PromptBudget { context_window: WINDOW, prompt_budget: 1228, reply_reserve: 1024 };
    assert!(budgets.iter().all(|b| *b == fitted), "{budgets:?}");
    assert_requests_fit(&model);
}

/// The skill activated at once, then long answers.
fn phase2_script() -> Vec<Value> {
    let call = json!({"tool_calls": [{"name": "use_skill", "arguments": {"skill": "lifecoach"}}]});
    std::iter::once(call).chain(script()).collect()
}

#[tokio::test]
async fn a_4k_context_model_runs_a_skill_and_its_protocol_over_ten_turns() {
    let dir = tempfile::tempdir().unwrap();
    let (app, model) = app_with_4k_window(dir.path(), phase2_script());
    let step1 = json!({"dull_dissatisfaction": "每天都很累", "top_complaints": ["加班", "没时间运动", "刷手机"],
        "revealed_wants": "安全感", "unbearable_truth": "我在逃避"});
    let mut conversation: Option<String> = None;
    let mut phase2_budgets = Vec::new();
    for n in 1..=10 {
        if n == 3 {
            let id = conversation.as_deref();
            app.protocols().start(Some("lifecoach"), "dankoe", id, None).unwrap();
        }
        if n == 5 {
            let advanced =
                app.protocols().advance("lifecoach", &step1, Some("用户回答了这一步")).unwrap();
            assert!(!matches!(advanced, vibe_protocol::Advance::Rejected { .. }), "{advanced:?}");
        }
        // Words the safety screen asks nothing about: this test counts the coach's requests (an
        // opener such as "我最近一直在想…" would add the model check's, docs/safety.md).
        let message = format!("第 {n} 轮：{}", "我最近在琢磨怎么把日子过得更充实，".repeat(20));
        let (id, budgets) = turn(&app, conversation, message, n).await;
        conversation = Some(id);
        phase2_budgets.extend(budgets.into_iter().filter(|(p, _)| *p == Phase::Phase2));
    }
    assert!(phase2_budgets.len() >= 10, "{} phase-2 requests", phase2_budgets.len());
    let fitted = PromptBudget { context_window: WINDOW, prompt_budget: 1843, reply_reserve: 1024 };
    assert!(phase2_budgets.iter().all(|(_, b)| *b == fitted), "{phase2_budgets:?}");
    assert_requests_fit(&model);
    // The protocol's step rode with the last turns: the coach still knew where it was.
    let requests = model.requests.lock().unwrap();
    let user = requests
        .last()
        .unwrap()
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
