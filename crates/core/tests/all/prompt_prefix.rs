//! The prompt's beginning does not move between turns (issue 32, docs/local-model.md, "Prompt
//! order"): two consecutive turns of a conversation, sent through the chat service to a
//! recording scripted model, are rendered as one text each (the system prompt, the tool
//! definitions after it as the structured-action adapter puts them, then the messages), and
//! the text they share from the start must cover everything before the first section that
//! changes per turn. Checked for a plain turn in each phase, a protocol step advancing and a
//! memory item added between the turns. A failure names the section the prefix broke in.

use std::sync::Arc;

use serde_json::{Value, json};
use tokio_util::sync::CancellationToken;
use vibe_agent::agent::ApprovalPolicy;
use vibe_agent::chat::{ChatService, TurnRequest};
use vibe_context::Tokenizer;
use vibe_core::app::{App, AppPaths, Injections, Overrides};
use vibe_llm::{ChatRequest, Message, ScriptedModel};
use vibe_runlog::emit::{CollectSink, EventSink};
use vibe_store::{LOCAL_USER, MemoryChange, Role, Store};

use crate::recording::Recording;

/// Headings of the sections that may change from one turn to the next. Everything else in
/// the system prompt (persona, rules, scenario, ethics, boundaries, wellbeing, language) and
/// the tool definitions are static; earlier messages are history, which only grows.
const DYNAMIC_HEADINGS: [&str; 7] = [
    "## 参考案例",
    "## 用户资料",
    "## 技能记录",
    "## 进行中的协议",
    "## 进行中的引导流程",
    "## 早先对话摘要",
    "## 安全优先",
];

/// A named stretch of a rendered request, from `start` to the next region's start.
#[derive(Debug, Clone)]
struct Region {
    start: usize,
    name: String,
    dynamic: bool,
}

/// Regions of `text` (added at `offset`) by its `#` / `##` headings; the text before the
/// first heading is named `first`.
fn headed(regions: &mut Vec<Region>, text: &str, offset: usize, first: &str, dynamic: bool) {
    regions.push(Region { start: offset, name: first.to_string(), dynamic });
    let mut at = 0;
    for line in text.split_inclusive('\n') {
        if line.starts_with("# ") || line.starts_with("## ") {
            let name = line.trim_end().chars().take(24).collect::<String>();
            let dynamic = dynamic || DYNAMIC_HEADINGS.iter().any(|h| line.starts_with(h));
            regions.push(Region { start: offset + at, name, dynamic });
        }
        at += line.len();
    }
}

/// The request as one text (roughly what a chat template makes of it) and its regions.
fn render(request: &ChatRequest) -> (String, Vec<Region>) {
    let mut out = String::new();
    let mut regions = Vec::new();
    let last_user = request.messages.iter().rposition(|m| matches!(m, Message::User { .. }));
    let tools = |out: &mut String, regions: &mut Vec<Region>| {
        for tool in &request.tools {
            regions.push(Region {
                start: out.len(),
                name: format!("tool `{}`", tool.name),
                dynamic: false,
            });
            out.push_str("\n<tool>\n");
            out.push_str(&serde_json::to_string(tool).unwrap());
        }
    };
    let mut tools_done = false;
    for (i, message) in request.messages.iter().enumerate() {
        if !tools_done && !matches!(message, Message::System { .. }) {
            tools(&mut out, &mut regions);
            tools_done = true;
        }
        let (role, content) = match message {
            Message::System { content } => ("system", content.clone()),
            Message::User { content } => ("user", content.clone()),
            Message::Assistant { content, tool_calls } => {
                ("assistant", format!("{content}{}", serde_json::to_string(tool_calls).unwrap()))
            }
            Message::Tool { content, .. } => ("tool", content.clone()),
        };
        out.push_str(&format!("\n<{role}>\n"));
        let start = out.len();
        match (role, last_user) {
            ("system", _) => headed(&mut regions, &content, start, "system prompt", false),
            (_, Some(last)) if i == last => {
                headed(&mut regions, &content, start, "the latest user message", true);
            }
            (_, Some(last)) if i > last => regions.push(Region {
                start,
                name: format!("this run's message {i} ({role})"),
                dynamic: true,
            }),
            _ => regions.push(Region {
                start,
                name: format!("history message {i} ({role})"),
                dynamic: false,
            }),
        }
        out.push_str(&content);
    }
    if !tools_done {
        tools(&mut out, &mut regions);
    }
    (out, regions)
}

/// Characters two texts share from the start, in bytes (on a character boundary).
fn shared_prefix(a: &str, b: &str) -> usize {
    a.char_indices()
        .zip(b.chars())
        .find(|((_, x), y)| x != y)
        .map_or(a.len().min(b.len()), |((i, _), _)| i)
}

fn region_at(regions: &[Region], at: usize) -> &Region {
    regions.iter().rev().find(|r| r.start <= at).unwrap_or(&regions[0])
}

/// What is wrong with `after` following `before` (the previous turn's last request): a static
/// section after a dynamic one in `before`, or a shared prefix that ends before the first
/// dynamic section. `None` when the prefix holds.
fn check(label: &str, before: &ChatRequest, after: &ChatRequest) -> Option<String> {
    let tk = Tokenizer::shared().unwrap();
    let (r1, regions) = render(before);
    let (r2, _) = render(after);
    let first_dynamic = regions.iter().find(|r| r.dynamic).expect("the latest message");
    let mut problems = Vec::new();
    for late in regions.iter().filter(|r| !r.dynamic && r.start > first_dynamic.start) {
        problems.push(format!(
            "static section `{}` comes after the dynamic section `{}`",
            late.name, first_dynamic.name
        ));
    }
    let shared = shared_prefix(&r1, &r2);
    if shared < first_dynamic.start {
        problems.push(format!(
            "the shared prefix ends at char {shared} (~{} tokens) inside `{}`, before the first dynamic section `{}` at char {} (~{} tokens)",
            tk.count(&r1[..shared]),
            region_at(&regions, shared).name,
            first_dynamic.name,
            first_dynamic.start,
            tk.count(&r1[..first_dynamic.start]),
        ));
    }
    (!problems.is_empty()).then(|| format!("{label}:\n  - {}", problems.join("\n  - ")))
}

struct Fx {
    _dir: tempfile::TempDir,
    store: Arc<Store>,
    service: Arc<ChatService>,
    model: Arc<Recording>,
    conversation: Option<String>,
}

impl Fx {
    fn new(responses: Vec<Value>) -> Self {
        let dir = tempfile::tempdir().unwrap();
        let script = json!({"model": "scripted-coach", "responses": responses}).to_string();
        let model =
            Arc::new(Recording::new(ScriptedModel::from_yaml(&script, "prefix scenario").unwrap()));
        let injections = Injections {
            model: Some(model.clone() as Arc<dyn vibe_llm::ChatModel>),
            ..Injections::default()
        };
        let keys = Arc::new(vibe_core::app::EphemeralKeys::default());
        let app =
            App::open_injected(AppPaths::new(dir.path()), Overrides::default(), keys, injections)
                .unwrap();
        let (store, service) = (app.store().clone(), app.chat().unwrap());
        Fx { _dir: dir, store, service, model, conversation: None }
    }

    /// One turn in the conversation (the first opens it, with `skill` active if given).
    async fn say(&mut self, skill: Option<&str>, message: &str) {
        let request = TurnRequest {
            skill: self.conversation.is_none().then(|| skill.map(str::to_string)).flatten(),
            conversation_id: self.conversation.clone(),
            message: message.into(),
            ..TurnRequest::default()
        };
        let sink = Arc::new(CollectSink::default());
        let sinks: Vec<Arc<dyn EventSink>> = vec![sink];
        let result = self
            .service
            .run_turn(request, sinks, Arc::new(ApprovalPolicy::DenyAll), CancellationToken::new())
            .await
            .unwrap();
        self.conversation = Some(result.conversation_id);
    }

    fn requests(&self) -> usize {
        self.model.requests.lock().unwrap().len()
    }

    /// The last request before `index` and the request at `index`.
    fn pair(&self, index: usize) -> (ChatRequest, ChatRequest) {
        let requests = self.model.requests.lock().unwrap();
        (requests[index - 1].clone(), requests[index].clone())
    }

    /// A remembered fact from the conversation's last message of the person.
    fn remember(&self, text: &str) {
        let conversation = self.conversation.clone().unwrap();
        let messages = self.store.messages(&conversation).unwrap();
        let source = messages.iter().rev().find(|m| m.role == Role::User).unwrap().id;
        let change = MemoryChange::Add {
            kind: vibe_wire::command::MemoryKind::Facts,
            text: text.into(),
            confidence: 0.9,
            sources: vec![source],
        };
        self.store.apply_memory(LOCAL_USER, &conversation, source, &[change]).unwrap();
    }
}

fn text(t: &str) -> Value {
    json!({"text": t})
}

fn call(name: &str, arguments: Value) -> Value {
    json!({"tool_calls": [{"name": name, "arguments": arguments}]})
}

/// Two turns in phase 1 whose messages name different skills.
async fn plain_phase1() -> Option<String> {
    let mut fx = Fx::new(vec![text("嗯，我在听。"), text("好的，说说看。")]);
    fx.say(None, "最近总是拖延，想改变一下习惯").await;
    let second = fx.requests();
    fx.say(None, "另外我也想看看我的星座运势").await;
    let (before, after) = fx.pair(second);
    check("(a) plain, phase 1", &before, &after)
}

/// Two turns in phase 2 (lifecoach) with different messages (different matched cases).
async fn plain_phase2() -> Option<String> {
    let mut fx = Fx::new(vec![text("我们先看看现在。"), text("这个目标很好。")]);
    fx.say(Some("lifecoach"), "我每天都很累，总是拖延").await;
    let second = fx.requests();
    fx.say(None, "我想定一个每天早起写作的目标").await;
    let (before, after) = fx.pair(second);
    check("(a) plain, phase 2", &before, &after)
}

/// A protocol step advances between the two turns.
async fn protocol_step() -> Option<String> {
    let advance = call(
        "advance_protocol_step",
        json!({"step_data": vibe_test_support::dankoe_step(1), "step_summary": "用户说清楚了"}),
    );
    let mut fx = Fx::new(vec![
        call("show_protocol_invitation", json!({"protocol_id": "dankoe"})),
        text("要不要试试一日人生重置？"),
        text("我们从一个诚实的问题开始。"),
        advance,
        text("好，下一步。"),
        text("说说你想要的生活。"),
    ]);
    fx.say(Some("lifecoach"), "我想彻底改变现在的生活").await;
    fx.say(None, "好，开始吧").await;
    fx.say(None, "我每天都很累，总抱怨加班、没时间运动、刷手机").await;
    let second = fx.requests();
    fx.say(None, "我想要更多属于自己的时间").await;
    let (before, after) = fx.pair(second);
    check("(b) a protocol step advancing", &before, &after)
}

/// A memory item is added between the two turns.
async fn memory_added() -> Option<String> {
    let mut fx = Fx::new(vec![text("听起来很辛苦。"), text("我记住了。")]);
    fx.say(Some("lifecoach"), "我在上海做设计师，最近很忙").await;
    fx.remember("在上海做设计师");
    let second = fx.requests();
    fx.say(None, "今天又加班到很晚").await;
    let (before, after) = fx.pair(second);
    check("(c) a memory item added", &before, &after)
}

#[tokio::test]
async fn the_prompt_prefix_holds_across_turns_up_to_the_first_dynamic_section() {
    let problems: Vec<String> =
        [plain_phase1().await, plain_phase2().await, protocol_step().await, memory_added().await]
            .into_iter()
            .flatten()
            .collect();
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
