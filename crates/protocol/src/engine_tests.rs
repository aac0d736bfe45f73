//! The engine's commands over the built-in dankoe and weekly_review protocols, on an
//! in-memory store with a fixed clock.

use std::sync::{Arc, Mutex};

use chrono::{DateTime, Duration, FixedOffset, TimeZone, Utc};
use serde_json::{Value, json};
use vibe_skills::{Registry, RegistryConfig};
use vibe_store::{ProtocolStatus, Store};

use super::*;
use crate::{Clock, TurnPlan};

pub(crate) struct Fx {
    pub engine: ProtocolEngine,
    pub store: Arc<Store>,
    pub now: Arc<Mutex<DateTime<Utc>>>,
    /// A stored conversation the runs belong to.
    pub c: String,
}

impl Fx {
    pub fn new() -> Self {
        let store = Arc::new(Store::open_in_memory().unwrap());
        let skills = Arc::new(Registry::open(RegistryConfig {
            builtin: vibe_skills::builtin_dir(),
            ..RegistryConfig::default()
        }));
        let now = Arc::new(Mutex::new(Utc.with_ymd_and_hms(2026, 1, 20, 9, 0, 0).unwrap()));
        let at = now.clone();
        let clock: Clock = Arc::new(move || *at.lock().unwrap());
        let engine = ProtocolEngine::new(store.clone(), skills)
            .with_clock(clock)
            .with_offset(FixedOffset::east_opt(0).unwrap());
        let c = store.create_conversation("local", Some("t")).unwrap().id;
        Fx { engine, store, now, c }
    }

    pub fn wait(&self, minutes: i64) {
        *self.now.lock().unwrap() += Duration::minutes(minutes);
    }

    pub fn state(&self) -> Value {
        self.store.read_state("local", "lifecoach", None).unwrap().data
    }
}

pub(crate) use vibe_test_support::dankoe_step;

#[test]
fn a_whole_run_reports_progress_and_writes_the_completion_mapping() {
    let fx = Fx::new();
    let (run, events) = fx.engine.start(None, "dankoe", None, Some("m")).unwrap();
    assert_eq!(run.total_steps, 6);
    assert!(
        matches!(&events[0], vibe_wire::Event::ProtocolProgress { step: 1, progress, .. } if *progress == 0.0)
    );
    // Every step named ahead, in Chinese and, for an English UI, in English.
    let vibe_wire::Event::ProtocolProgress { step_names, step_names_en, .. } = &events[0] else {
        panic!()
    };
    assert_eq!((step_names[0].as_str(), step_names[5].as_str()), ("觉察痛点", "游戏计划"));
    assert_eq!(step_names_en.len(), 6);
    assert_eq!(
        (step_names_en[0].as_str(), step_names_en[5].as_str()),
        ("Name the pain", "Game plan")
    );
    for n in 1..=5 {
        match fx.engine.advance("lifecoach", &dankoe_step(n), Some("ok")).unwrap() {
            Advance::Advanced { run, events } => {
                assert_eq!(run.step as usize, n + 1);
                let vibe_wire::Event::ProtocolProgress { step, progress, .. } = &events[0] else {
                    panic!()
                };
                assert_eq!((*step as usize, *progress), (n + 1, n as f64 / 6.0));
            }
            other => panic!("{other:?}"),
        }
    }
    let Advance::Completed { run, events, written } =
        fx.engine.advance("lifecoach", &dankoe_step(6), None).unwrap()
    else {
        panic!()
    };
    assert_eq!(run.status, ProtocolStatus::Completed);
    assert!(matches!(events[1], vibe_wire::Event::ProtocolCompleted { .. }));
    assert!(written.contains(&"north_star.vision".to_string()), "{written:?}");
    let state = fx.state();
    assert_eq!(state["north_star"]["vision"], "自由地创作");
    assert_eq!(state["north_star"]["anti_vision"], "麻木地过一生");
    assert_eq!(state["goals"]["year"], "出版一本书");
    assert_eq!(state["current"]["daily_levers"], json!(["写 500 字"]));
    assert_eq!(state["protocol"]["completed"], json!(true));
    assert_eq!(state["protocol"]["data"]["step_6"]["one_year_goal"], "出版一本书");
}

#[test]
fn a_missing_field_is_named_and_the_step_does_not_advance() {
    let fx = Fx::new();
    fx.engine.start(None, "dankoe", None, None).unwrap();
    let mut data = dankoe_step(1);
    data.as_object_mut().unwrap().remove("revealed_wants");
    let Advance::Rejected { step, problems } = fx.engine.advance("lifecoach", &data, None).unwrap()
    else {
        panic!()
    };
    assert_eq!(step, 1);
    assert!(problems[0].contains("`revealed_wants`"), "{problems:?}");
    assert_eq!(fx.engine.active("lifecoach").unwrap().step, 1);
    assert!(fx.state()["protocol"]["data"].get("step_1").is_none(), "nothing saved");
}

#[test]
fn starting_a_second_protocol_pauses_the_first_until_it_is_resumed() {
    let fx = Fx::new();
    let (dankoe, _) = fx.engine.start(None, "dankoe", None, None).unwrap();
    fx.engine.advance("lifecoach", &dankoe_step(1), None).unwrap();
    let (_, events) = fx.engine.start(None, "weekly_review", None, None).unwrap();
    assert!(matches!(&events[0], vibe_wire::Event::ProtocolPaused { step: 2, .. }), "{events:?}");
    assert_eq!(fx.state()["protocol"]["id"], "weekly_review");
    let (run, events) = fx.engine.resume(&dankoe.id).unwrap();
    assert_eq!((run.step, run.status), (2, ProtocolStatus::Active));
    assert!(matches!(&events[0], vibe_wire::Event::ProtocolPaused { .. }));
    assert_eq!(fx.state()["protocol"]["id"], "dankoe");
}

#[test]
fn cancelling_keeps_the_data() {
    let fx = Fx::new();
    fx.engine.start(None, "dankoe", None, None).unwrap();
    fx.engine.advance("lifecoach", &dankoe_step(1), None).unwrap();
    let (run, events) = fx.engine.cancel(Some("lifecoach"), None, Some("今天没空")).unwrap();
    assert_eq!(run.status, ProtocolStatus::Cancelled);
    assert_eq!(run.data["step_1"]["revealed_wants"], "安全感");
    assert!(
        matches!(&events[0], vibe_wire::Event::ProtocolCancelled { reason: Some(r), .. } if r == "今天没空")
    );
    let err = fx.engine.advance("lifecoach", &dankoe_step(2), None).unwrap_err();
    assert_eq!(err.kind(), vibe_wire::ErrorKind::NotFound);
}

#[test]
fn unknown_protocols_are_refused_naming_the_id_and_no_cli_command() {
    let fx = Fx::new();
    let err = fx.engine.start(None, "nope", None, None).unwrap_err();
    assert!(err.to_string().contains("`nope`"), "{err}");
    assert!(!err.to_string().contains("vibe "), "{err}");
}

#[test]
fn the_idle_timeout_asks_first_and_a_short_gap_resumes_silently() {
    let fx = Fx::new();
    fx.engine.start(Some("lifecoach"), "dankoe", Some(fx.c.as_str()), None).unwrap();
    let plan: TurnPlan = fx.engine.before_turn(Some("lifecoach"), &fx.c, "我在", "m").unwrap();
    let prompt = plan.prompt.unwrap();
    assert!(prompt.contains("第 1/6 步「觉察痛点」"), "{prompt}");
    assert!(prompt.contains("继续当前步骤"), "{prompt}");
    fx.wait(120);
    let plan = fx.engine.before_turn(Some("lifecoach"), &fx.c, "我回来了", "m").unwrap();
    let prompt = plan.prompt.unwrap();
    assert!(
        prompt.contains("离开了约 2 小时")
            && prompt.contains("继续当前这一步，还是把这一步从头再来"),
        "{prompt}"
    );
    assert_eq!(plan.events.len(), 1, "progress shown again on return");
    fx.wait(3);
    let prompt =
        fx.engine.before_turn(Some("lifecoach"), &fx.c, "继续", "m").unwrap().prompt.unwrap();
    assert!(!prompt.contains("离开了"), "{prompt}");
    assert_eq!(fx.engine.active("lifecoach").unwrap().model.as_deref(), Some("m"));
}

#[test]
fn reminders_of_the_current_step_fall_due_and_answers_are_saved_into_its_data() {
    let fx = Fx::new();
    fx.engine.start(None, "dankoe", Some(fx.c.as_str()), None).unwrap();
    for n in 1..=3 {
        fx.engine.advance("lifecoach", &dankoe_step(n), None).unwrap();
    }
    let all = fx.engine.reminders().unwrap();
    let times: Vec<&str> = all.iter().map(|r| r.at.as_str()).collect();
    assert_eq!(times, ["11:00", "13:30", "15:15", "17:00", "19:30", "21:00"]);
    assert!(fx.engine.due_reminders().unwrap().is_empty(), "09:00: nothing due");
    fx.wait(4 * 60 + 40); // 13:40
    let due: Vec<String> = fx.engine.due_reminders().unwrap().into_iter().map(|r| r.at).collect();
    assert_eq!(due, ["11:00", "13:30"]);
    let plan = fx.engine.before_turn(Some("lifecoach"), &fx.c, "我在逃避写作", "m").unwrap();
    assert!(plan.prompt.unwrap().contains("13:30 的提醒问题"));
    let run = fx.engine.active("lifecoach").unwrap();
    assert_eq!(run.data["step_4"]["_reminders"]["13:30"]["answer"], "我在逃避写作");
    let err = fx.engine.answer_reminder(&run.id, "12:00", "x").unwrap_err();
    assert!(err.to_string().contains("11:00, 13:30"), "{err}");
    // The answers stay with the step when it is saved.
    fx.engine.advance("lifecoach", &dankoe_step(4), None).unwrap();
    let run = fx.engine.active("lifecoach").unwrap();
    assert_eq!(run.data["step_4"]["_reminders"]["13:30"]["answer"], "我在逃避写作");
}

#[test]
fn a_typed_yes_starts_the_pending_invitation_and_later_closes_it() {
    let fx = Fx::new();
    let inv = crate::Invitation {
        skill: Some("lifecoach"),
        protocol_id: "dankoe",
        title: None,
        description: None,
        estimated_time: None,
        actions: vec![],
        conversation_id: Some(&fx.c),
    };
    let event = fx.engine.invite(&inv).unwrap();
    assert!(
        matches!(&event, vibe_wire::Event::ProtocolInvitation { actions, .. } if actions.len() == 2)
    );
    // The file's English words ride along for an English UI.
    let vibe_wire::Event::ProtocolInvitation {
        title_en, description_en, estimated_time_en, ..
    } = &event
    else {
        panic!()
    };
    assert_eq!(title_en.as_deref(), Some("One-Day Life Reset"));
    assert!(description_en.as_deref().is_some_and(|d| d.contains("Dan Koe")));
    assert!(estimated_time_en.as_deref().is_some_and(|t| t.contains("60–90 minutes")));
    // What the coach worded itself has no English twin from the file.
    let worded = crate::Invitation { title: Some("重置一天"), ..inv.clone() };
    let vibe_wire::Event::ProtocolInvitation { title, title_en, description_en, .. } =
        fx.engine.invite(&worded).unwrap()
    else {
        panic!()
    };
    assert_eq!((title.as_str(), title_en), ("重置一天", None));
    assert!(description_en.is_some(), "the file's description is still the one shown");
    let plan = fx.engine.before_turn(Some("lifecoach"), &fx.c, "今天天气不错", "m").unwrap();
    assert!(plan.prompt.is_none(), "not an acceptance");
    assert_eq!(fx.state()["protocol_invitation"]["status"], "lapsed");
    fx.engine.invite(&inv).unwrap();
    let plan = fx.engine.before_turn(Some("lifecoach"), &fx.c, "好，开始吧", "m").unwrap();
    assert!(plan.prompt.unwrap().contains("协议刚刚开始"));
    assert_eq!(fx.state()["protocol_invitation"]["status"], "started");
    fx.engine.cancel(Some("lifecoach"), None, None).unwrap();
    fx.engine.invite(&inv).unwrap();
    fx.engine.later(None, "dankoe").unwrap();
    let plan = fx.engine.before_turn(Some("lifecoach"), &fx.c, "好的", "m").unwrap();
    assert!(plan.prompt.is_none(), "the invitation was declined");
}

#[test]
fn pause_keeps_the_step_until_resume_and_is_a_no_op_without_an_active_run() {
    let fx = Fx::new();
    assert!(fx.engine.pause("lifecoach").unwrap().is_none());
    let (dankoe, _) = fx.engine.start(None, "dankoe", None, None).unwrap();
    fx.engine.advance("lifecoach", &dankoe_step(1), None).unwrap();
    let (run, events) = fx.engine.pause("lifecoach").unwrap().unwrap();
    assert_eq!(
        (run.id.as_str(), run.step, run.status),
        (dankoe.id.as_str(), 2, ProtocolStatus::Paused)
    );
    assert!(matches!(&events[0], vibe_wire::Event::ProtocolPaused { step: 2, .. }), "{events:?}");
    assert!(fx.engine.active("lifecoach").is_err());
    assert!(fx.engine.pause("lifecoach").unwrap().is_none());
    let (run, _) = fx.engine.resume(&dankoe.id).unwrap();
    assert_eq!((run.step, run.status), (2, ProtocolStatus::Active));
}
