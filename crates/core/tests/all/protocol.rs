//! Protocol scenarios through the chat service with the scripted model and an injected clock:
//! the whole dankoe run (invitation, typed start, a rejected step, completion mapping), an
//! interruption resumed after two hours (the coach asks to continue first), a cancel that
//! keeps the data, a second protocol pausing dankoe, and a user-written protocol.

use std::sync::{Arc, Mutex};

use chrono::{DateTime, Duration, TimeZone, Utc};
use serde_json::{Value, json};
use tokio_util::sync::CancellationToken;
use vibe_agent::agent::ApprovalPolicy;
use vibe_agent::chat::{ChatService, TurnRequest};
use vibe_core::app::{App, AppPaths, Injections, Overrides};
use vibe_llm::ScriptedModel;
use vibe_protocol::{Clock, ReportFormat, render_report};
use vibe_runlog::emit::{CollectSink, EventSink};
use vibe_skills::Registry;
use vibe_store::{LOCAL_USER, ProtocolStatus, Store};
use vibe_wire::{Envelope, Event};

use crate::recording::Recording;

struct Fx {
    _dir: tempfile::TempDir,
    app: App,
    store: Arc<Store>,
    service: Arc<ChatService>,
    model: Arc<Recording>,
    now: Arc<Mutex<DateTime<Utc>>>,
    conversation: Mutex<Option<String>>,
    skills: Arc<Registry>,
}

impl Fx {
    fn new(responses: Vec<Value>) -> Self {
        Self::new_in(tempfile::tempdir().unwrap(), responses)
    }

    /// The app over `dir` (whose `skills/` may hold the person's own skills), opened as every
    /// front end opens it, with the scripted model and an injected protocol clock.
    fn new_in(dir: tempfile::TempDir, responses: Vec<Value>) -> Self {
        let script = json!({"model": "scripted-coach", "responses": responses}).to_string();
        let model = Arc::new(Recording::new(
            ScriptedModel::from_yaml(&script, "protocol scenario").unwrap(),
        ));
        let now = Arc::new(Mutex::new(Utc.with_ymd_and_hms(2026, 1, 20, 8, 0, 0).unwrap()));
        let at = now.clone();
        let clock: Clock = Arc::new(move || *at.lock().unwrap());
        let injections = Injections {
            model: Some(model.clone() as Arc<dyn vibe_llm::ChatModel>),
            protocol_clock: Some(clock),
            ..Injections::default()
        };
        let keys = Arc::new(vibe_core::app::EphemeralKeys::default());
        let paths = AppPaths::new(dir.path());
        let app = App::open_injected(paths, Overrides::default(), keys, injections).unwrap();
        let (store, skills, service) = (app.store().clone(), app.skills(), app.chat().unwrap());
        Fx { _dir: dir, app, store, skills, service, model, now, conversation: Mutex::new(None) }
    }

    async fn say(&self, message: &str) -> Vec<Envelope> {
        let conversation = self.conversation.lock().unwrap().clone();
        let request = TurnRequest {
            skill: conversation.is_none().then(|| "lifecoach".to_string()),
            conversation_id: conversation,
            message: message.into(),
            ..TurnRequest::default()
        };
        let sink = Arc::new(CollectSink::default());
        let sinks: Vec<Arc<dyn EventSink>> = vec![sink.clone()];
        let result = self
            .service
            .run_turn(request, sinks, Arc::new(ApprovalPolicy::DenyAll), CancellationToken::new())
            .await
            .unwrap();
        *self.conversation.lock().unwrap() = Some(result.conversation_id);
        sink.events()
    }

    /// The invitation button `choice` pressed (its words `label`) in the current conversation.
    async fn press(&self, choice: vibe_wire::ProtocolChoice, label: &str) -> Vec<Envelope> {
        use vibe_wire::command::{SendMessageRequest, TurnInput};
        let input = TurnInput::Choose { protocol_id: "dankoe".into(), choice, label: label.into() };
        let request = SendMessageRequest {
            conversation_id: self.conversation.lock().unwrap().clone(),
            input,
            skill: None,
            scenario: None,
            voice_mode: None,
            run_id: None,
        };
        let sink = Arc::new(CollectSink::default());
        self.app.send_message(request, sink.clone()).await.unwrap();
        sink.events()
    }

    fn wait(&self, minutes: i64) {
        *self.now.lock().unwrap() += Duration::minutes(minutes);
    }

    fn last_system(&self) -> String {
        self.model.systems.lock().unwrap().last().cloned().unwrap_or_default()
    }

    fn lifecoach(&self) -> Value {
        self.store.read_state(LOCAL_USER, "lifecoach", None).unwrap().data
    }
}

fn call(name: &str, arguments: Value) -> Value {
    json!({"tool_calls": [{"name": name, "arguments": arguments}]})
}

fn text(t: &str) -> Value {
    json!({"text": t})
}

fn advance(data: Value) -> Value {
    call("advance_protocol_step", json!({"step_data": data, "step_summary": "用户说清楚了"}))
}

use vibe_test_support::dankoe_step as step_data;

fn protocol_events(events: &[Envelope]) -> Vec<&Event> {
    events
        .iter()
        .map(|e| &e.event)
        .filter(|e| {
            matches!(
                e,
                Event::ProtocolInvitation { .. }
                    | Event::ProtocolProgress { .. }
                    | Event::ProtocolCompleted { .. }
                    | Event::ProtocolCancelled { .. }
                    | Event::ProtocolPaused { .. }
            )
        })
        .collect()
}

fn progress_steps(events: &[Envelope]) -> Vec<(u32, u32, f64)> {
    events
        .iter()
        .filter_map(|e| match &e.event {
            Event::ProtocolProgress { step, total_steps, progress, .. } => {
                Some((*step, *total_steps, *progress))
            }
            _ => None,
        })
        .collect()
}

/// Invitation turn, typed start turn: four responses.
fn opening() -> Vec<Value> {
    vec![
        call("show_protocol_invitation", json!({"protocol_id": "dankoe"})),
        text("要不要试试一日人生重置？"),
        text("我们从一个诚实的问题开始。"),
    ]
}

#[tokio::test]
async fn the_whole_dankoe_run_from_invitation_to_completion_mapping() {
    let mut responses = opening();
    let mut missing = step_data(1);
    missing.as_object_mut().unwrap().remove("revealed_wants");
    responses.push(advance(missing));
    for n in 1..=6 {
        responses.push(advance(step_data(n)));
        responses.push(text("好，下一步。"));
    }
    let fx = Fx::new(responses);

    let invited = fx.say("我想彻底改变现在的生活").await;
    let Event::ProtocolInvitation { protocol_id, actions, .. } = protocol_events(&invited)[0]
    else {
        panic!("{invited:?}")
    };
    assert_eq!((protocol_id.as_str(), actions.len()), ("dankoe", 2));

    let started = fx.say("好，开始吧").await;
    assert_eq!(progress_steps(&started), vec![(1, 6, 0.0)]);
    assert!(fx.last_system().contains("第 1/6 步「觉察痛点」"), "{}", fx.last_system());

    let first = fx.say("我每天都很累，总抱怨加班、没时间运动、刷手机").await;
    let results: Vec<(String, Value, bool)> = first
        .iter()
        .filter_map(|e| match &e.event {
            Event::ToolResult { name, result, is_error, .. } => {
                Some((name.clone(), result.clone(), *is_error))
            }
            _ => None,
        })
        .collect();
    assert!(results[0].2, "the first advance is rejected");
    assert_eq!(results[0].1["field"], "revealed_wants", "{:?}", results[0].1);
    assert!(!results[1].2);
    assert_eq!(
        progress_steps(&first),
        vec![(2, 6, 1.0 / 6.0)],
        "one progress, after the accepted call"
    );

    let mut seen = Vec::new();
    for n in 2..=6 {
        let events = fx.say(&format!("第 {n} 步的回答")).await;
        seen.extend(progress_steps(&events));
        if n == 6 {
            let completed: Vec<&Event> = protocol_events(&events)
                .into_iter()
                .filter(|e| matches!(e, Event::ProtocolCompleted { .. }))
                .collect();
            assert_eq!(completed.len(), 1);
        }
    }
    assert_eq!(
        seen,
        vec![
            (3, 6, 2.0 / 6.0),
            (4, 6, 3.0 / 6.0),
            (5, 6, 4.0 / 6.0),
            (6, 6, 5.0 / 6.0),
            (6, 6, 1.0)
        ]
    );
    let state = fx.lifecoach();
    assert_eq!(state["north_star"]["vision"], "自由地创作");
    assert_eq!(state["north_star"]["anti_vision"], "麻木地过一生");
    assert_eq!(state["goals"], json!({"year": "出版一本书", "month": "写完三章"}));
    assert_eq!(state["current"]["constraints"], json!(["睡够 7 小时"]));
    assert_eq!(state["protocol"]["completed"], json!(true));
    let runs = fx.store.protocol_runs(LOCAL_USER, None).unwrap();
    assert_eq!(runs[0].model.as_deref(), Some("scripted-coach"));
    assert_eq!(runs[0].data.as_object().unwrap().len(), 6, "every step's data kept");

    // The finished run's reports, in every format, hold every step's collected data.
    let source = fx.skills.protocol("lifecoach", "dankoe").unwrap();
    for format in ["md", "html", "json", "pdf"] {
        let parsed = ReportFormat::parse(format).unwrap();
        let bytes = render_report(&source.def, &runs[0], "2026-01-21T08:00:00Z", parsed).unwrap();
        let Some(text) = report_text(format, bytes) else { continue };
        for n in 1..=6 {
            for value in leaves(&step_data(n)) {
                let value: String = value.split_whitespace().collect();
                assert!(text.contains(&value), "the {format} report lacks step {n}'s {value:?}");
            }
        }
    }
}

/// A report's text with whitespace removed (PDF lines wrap anywhere); a PDF is read back with
/// poppler's `pdftotext`, and skipped where it is not installed (failing under `CI=true`).
fn report_text(format: &str, bytes: Vec<u8>) -> Option<String> {
    let text = if format == "pdf" {
        assert!(bytes.starts_with(b"%PDF-"), "not a PDF");
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("report.pdf");
        std::fs::write(&file, &bytes).unwrap();
        let out = std::process::Command::new("pdftotext")
            .arg("-enc")
            .arg("UTF-8")
            .arg(&file)
            .arg("-")
            .output();
        let Ok(out) = out else {
            vibe_test_support::skip(
                &format!("vibe-core {}", vibe_test_support::current_test("protocol")),
                "pdftotext (poppler-utils) is not installed; the PDF report's text is not checked",
            );
            return None;
        };
        assert!(out.status.success(), "pdftotext failed: {}", String::from_utf8_lossy(&out.stderr));
        String::from_utf8(out.stdout).unwrap()
    } else {
        String::from_utf8(bytes).unwrap()
    };
    Some(text.split_whitespace().collect())
}

/// Every string leaf of a step's data.
fn leaves(value: &Value) -> Vec<String> {
    match value {
        Value::String(s) => vec![s.clone()],
        Value::Array(items) => items.iter().flat_map(leaves).collect(),
        Value::Object(map) => map.values().flat_map(leaves).collect(),
        _ => Vec::new(),
    }
}

#[tokio::test]
async fn an_interrupted_run_resumes_after_two_hours_by_asking_to_continue_first() {
    let mut responses = opening();
    for n in 1..=2 {
        responses.push(advance(step_data(n)));
        responses.push(text("好。"));
    }
    responses.push(text("欢迎回来！要继续这一步，还是从头再来？"));
    responses.push(text("好，我们继续。"));
    let fx = Fx::new(responses);
    fx.say("我想彻底改变").await;
    fx.say("好，开始吧").await;
    fx.say("回答一").await;
    fx.say("回答二").await;
    assert_eq!(fx.lifecoach()["protocol"]["step"], json!(3));
    fx.wait(120);
    let back = fx.say("我回来了").await;
    let system = fx.last_system();
    assert!(system.contains("离开了约 2 小时"), "{system}");
    assert!(system.contains("继续当前这一步，还是把这一步从头再来"), "{system}");
    assert!(system.contains("第 3/6 步「最小可行愿景」"), "{system}");
    assert_eq!(progress_steps(&back), vec![(3, 6, 2.0 / 6.0)], "progress shown again");
    fx.wait(2);
    fx.say("继续").await;
    let system = fx.last_system();
    assert!(!system.contains("离开了"), "a short gap resumes silently: {system}");
}

#[tokio::test]
async fn cancelling_keeps_the_collected_data() {
    let mut responses = opening();
    responses.push(advance(step_data(1)));
    responses.push(text("好。"));
    responses.push(call("cancel_protocol", json!({"reason": "今天太累"})));
    responses.push(text("没关系，随时可以再来。"));
    let fx = Fx::new(responses);
    fx.say("我想彻底改变").await;
    fx.say("好，开始吧").await;
    fx.say("回答一").await;
    let cancelled = fx.say("我想停下").await;
    assert!(matches!(
        protocol_events(&cancelled)[..],
        [Event::ProtocolCancelled { reason: Some(r), .. }] if r == "今天太累"
    ));
    let run = &fx.store.protocol_runs(LOCAL_USER, None).unwrap()[0];
    assert_eq!(run.status, ProtocolStatus::Cancelled);
    assert_eq!(run.data["step_1"]["revealed_wants"], "安全感");
    assert_eq!(fx.lifecoach()["protocol"]["status"], "cancelled");
}

#[tokio::test]
async fn a_second_protocol_pauses_dankoe_which_then_resumes_and_completes() {
    let mut responses = opening();
    responses.push(advance(step_data(1)));
    responses.push(text("好。"));
    responses.push(call("show_protocol_invitation", json!({"protocol_id": "weekly_review"})));
    responses.push(text("要先做每周回顾吗？"));
    responses.push(text("好，先回顾这一周。"));
    for n in 2..=6 {
        responses.push(advance(step_data(n)));
        responses.push(text("好。"));
    }
    let fx = Fx::new(responses);
    fx.say("我想彻底改变").await;
    fx.say("好，开始吧").await;
    fx.say("回答一").await;
    fx.say("其实我想先做个周回顾").await;
    let started = fx.say("好，开始").await;
    let kinds: Vec<&Event> = protocol_events(&started);
    assert!(
        matches!(kinds[0], Event::ProtocolPaused { protocol_id, step: 2, .. } if protocol_id == "dankoe"),
        "{kinds:?}"
    );
    assert!(
        matches!(kinds[1], Event::ProtocolProgress { protocol_id, step: 1, total_steps: 4, .. } if protocol_id == "weekly_review")
    );
    let engine = fx.service.protocols();
    let dankoe =
        engine.runs(None).unwrap().into_iter().find(|r| r.protocol_id == "dankoe").unwrap();
    assert_eq!(dankoe.status, ProtocolStatus::Paused);
    let (_, events) = engine.resume(&dankoe.id).unwrap();
    assert!(matches!(events[0], Event::ProtocolPaused { .. }), "weekly_review paused in turn");
    for n in 2..=6 {
        fx.say(&format!("回答 {n}")).await;
    }
    let dankoe = engine.run(&dankoe.id).unwrap();
    assert_eq!(dankoe.status, ProtocolStatus::Completed);
    assert_eq!(fx.lifecoach()["goals"]["year"], "出版一本书");
}

#[tokio::test]
async fn a_user_written_protocol_runs_and_a_broken_one_disables_only_itself() {
    // The person's own skills live in the data dir's `skills/`.
    let data = tempfile::tempdir().unwrap();
    let user = data.path().join("skills");
    let dir = user.join("lifecoach/protocols");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("breath.yaml"),
        "id: breath\nversion: 1\ntitle: 三次呼吸\ndescription: 停下来呼吸。\nsteps:\n  - id: breathe\n    title: 呼吸\n    goal: 平静\n    opening: 深呼吸三次，然后告诉我感觉。\n    fields:\n      - {key: feeling, type: text, description: 呼吸后的感觉}\n    done_when: 说出感觉\ncompletion:\n  progress:\n    last_breath: breathe.feeling\n",
    )
    .unwrap();
    std::fs::write(
        dir.join("broken.yaml"),
        "id: broken\nversion: 0\ntitle: t\ndescription: d\nsteps: []\n",
    )
    .unwrap();
    // The user root overrides lifecoach only when it holds SKILL.md: copy the built-in one.
    let builtin = vibe_skills::builtin_dir().unwrap().join("lifecoach");
    std::fs::copy(builtin.join("SKILL.md"), user.join("lifecoach/SKILL.md")).unwrap();
    std::fs::copy(builtin.join("tools.yaml"), user.join("lifecoach/tools.yaml")).unwrap();
    let responses = vec![
        call("show_protocol_invitation", json!({"protocol_id": "breath"})),
        text("来做三次呼吸？"),
        advance(json!({"feeling": "平静了一些"})),
        text("很好。"),
    ];
    let fx = Fx::new_in(data, responses);
    let ids: Vec<String> = fx.service.protocols().list().into_iter().map(|p| p.id).collect();
    assert_eq!(ids, vec!["breath"], "the broken protocol is disabled, the other listed");
    fx.say("我有点焦虑").await;
    let done = fx.say("好，开始吧").await;
    assert!(
        protocol_events(&done).iter().any(|e| matches!(e, Event::ProtocolCompleted { .. })),
        "{done:?}"
    );
    assert_eq!(fx.lifecoach()["progress"]["last_breath"], "平静了一些");
}

#[tokio::test]
async fn the_start_button_starts_the_protocol_in_its_conversation_and_the_coach_asks_at_once() {
    let fx = Fx::new(opening());
    fx.say("我想彻底改变现在的生活").await;
    let conversation = fx.conversation.lock().unwrap().clone().unwrap();

    // "开始重置" would start it typed too; the button starts it whatever its words.
    let started = fx.press(vibe_wire::ProtocolChoice::Start, "Begin the reset").await;
    assert_eq!(progress_steps(&started), vec![(1, 6, 0.0)]);
    assert!(fx.last_system().contains("第 1/6 步「觉察痛点」"), "{}", fx.last_system());
    let reply: String = started
        .iter()
        .filter_map(|e| match &e.event {
            Event::AssistantDelta { text } => Some(text.as_str()),
            _ => None,
        })
        .collect();
    assert_eq!(reply, "我们从一个诚实的问题开始。", "the coach asks in the same turn");
    let run = fx.store.active_protocol_run(LOCAL_USER, "lifecoach").unwrap().unwrap();
    assert_eq!(run.conversation_id.as_deref(), Some(conversation.as_str()), "linked to its chat");
    let messages = fx.store.messages(&conversation).unwrap();
    let said: Vec<&str> = messages
        .iter()
        .filter(|m| m.role == vibe_store::Role::User)
        .map(|m| m.content.as_str())
        .collect();
    assert_eq!(said, ["我想彻底改变现在的生活", "Begin the reset"], "the button's words");
}

#[tokio::test]
async fn the_later_button_puts_the_protocol_off_and_the_coach_still_answers() {
    let fx = Fx::new(opening());
    fx.say("我想彻底改变现在的生活").await;
    // Words that would start it if typed: the button says later.
    let later = fx.press(vibe_wire::ProtocolChoice::Later, "好，开始吧").await;
    assert!(progress_steps(&later).is_empty(), "{later:?}");
    assert!(fx.store.active_protocol_run(LOCAL_USER, "lifecoach").unwrap().is_none());
    assert_eq!(fx.lifecoach()["protocol_invitation"]["status"], "later");
    assert!(later.iter().any(|e| matches!(e.event, Event::AssistantDelta { .. })));
}
