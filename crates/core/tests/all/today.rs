//! Today, Insights and conversation starters through the app (issue 31), on a fixed clock:
//! what a person sees on the Today screen as they check in, write and run a protocol; the
//! Insights series over their journal, a completed protocol and the coach's goals; the
//! starters and the day's prompt in both languages; a protocol run's answers.

use std::sync::Arc;

use chrono::{Local, TimeZone, Utc};
use serde_json::json;
use vibe_core::app::{App, AppPaths, Injections, Overrides};
use vibe_protocol::Clock;
use vibe_store::{LOCAL_USER, ProtocolStatus};
use vibe_wire::command::{
    CheckinRequest, InsightsRange, InsightsRequest, JournalAddRequest, ProtocolRequest,
    ProtocolRunRequest, StartersRequest, StreakView, TodayRequest,
};

/// The app over a fresh data folder, its clock stopped at 2026-03-14 12:00 local time.
fn open() -> (tempfile::TempDir, App) {
    let dir = tempfile::tempdir().unwrap();
    let now = Local.with_ymd_and_hms(2026, 3, 14, 12, 0, 0).unwrap().with_timezone(&Utc);
    let clock: Clock = Arc::new(move || now);
    let injections = Injections { protocol_clock: Some(clock), ..Injections::default() };
    let keys = Arc::new(vibe_core::app::EphemeralKeys::default());
    let app = App::open_injected(AppPaths::new(dir.path()), Overrides::default(), keys, injections)
        .unwrap();
    (dir, app)
}

fn checkin(app: &App, mood: u8, feelings: &[&str], date: Option<&str>) {
    let feelings = feelings.iter().map(|f| f.to_string()).collect();
    let request = CheckinRequest { mood, feelings, note: None, date: date.map(Into::into) };
    app.checkin(&request).unwrap();
}

fn today(app: &App, lang: &str) -> vibe_wire::command::TodayView {
    app.today(&TodayRequest { lang: Some(lang.into()), date: None }).unwrap()
}

#[test]
fn a_first_day_invites_and_the_screen_fills_as_the_person_checks_in_and_writes() {
    let (_dir, app) = open();
    let first = today(&app, "zh-CN");
    assert_eq!(first.date, "2026-03-14");
    assert!(first.checkins.is_empty() && first.journal.is_empty());
    assert_eq!(first.streak, StreakView::default());
    assert!(first.protocol.is_none() && first.reminders.is_empty());
    assert!(first.last_conversation.is_none());
    let prompt = first.prompt.expect("lifecoach declares daily prompts");
    assert_eq!(prompt.skill, "lifecoach");

    checkin(&app, 3, &[], Some("2026-03-12"));
    checkin(&app, 4, &[], Some("2026-03-13"));
    app.journal_add(&JournalAddRequest {
        date: None,
        mood: None,
        feelings: vec![],
        text: "今天读完了一本书".into(),
        tags: vec![],
    })
    .unwrap();
    let view = today(&app, "zh-CN");
    assert!(view.checkins.is_empty(), "the dated check-ins are other days'");
    assert_eq!(view.journal.len(), 1);
    assert_eq!(view.streak, StreakView { days: 3, today_done: true, longest: 3 });

    checkin(&app, 5, &["开心"], None);
    checkin(&app, 4, &[], None);
    let view = today(&app, "zh-CN");
    assert_eq!(view.checkins.len(), 2);
    assert_eq!(view.checkins[0].mood, Some(4), "newest first");

    let conversation = app.store().create_conversation(LOCAL_USER, Some("晨间聊天")).unwrap();
    let view = today(&app, "en");
    assert_eq!(view.last_conversation.map(|c| c.id), Some(conversation.id));
}

#[test]
fn the_days_prompt_is_the_same_all_day_turns_with_the_date_and_speaks_the_language() {
    let (_dir, app) = open();
    let on = |date: &str, lang: &str| {
        let request = TodayRequest { lang: Some(lang.into()), date: Some(date.into()) };
        app.today(&request).unwrap().prompt.unwrap().text
    };
    assert_eq!(on("2026-03-14", "zh-CN"), on("2026-03-14", "zh-CN"));
    assert_ne!(on("2026-03-14", "zh-CN"), on("2026-03-15", "zh-CN"));
    let zh = on("2026-03-14", "zh-CN");
    let en = on("2026-03-14", "en");
    assert_ne!(zh, en);
    assert!(en.is_ascii(), "the English version: {en}");
    assert!(!zh.is_ascii(), "the Chinese version: {zh}");
    let bad = app.today(&TodayRequest { lang: None, date: Some("14/03/2026".into()) });
    assert!(bad.unwrap_err().to_string().contains("YYYY-MM-DD"));
}

#[test]
fn the_protocol_in_progress_shows_its_step_and_due_reminders() {
    let (_dir, app) = open();
    let started =
        app.start_protocol(&ProtocolRequest { id: "dankoe".into(), skill: None }).unwrap();
    let view = today(&app, "en");
    let protocol = view.protocol.expect("a run in progress");
    assert_eq!(protocol.title, "One-Day Life Reset");
    assert_eq!(protocol.step_title, "Name the pain", "the step's English title");
    assert!(view.reminders.is_empty(), "step 1 asks nothing during the day");
    let zh = today(&app, "zh-CN").protocol.unwrap();
    assert_eq!((zh.title.as_str(), zh.step_title.as_str()), ("一日人生重置", "觉察痛点"));

    // At step 4 the day's questions come: at noon only the 11:00 one is due.
    app.store()
        .update_protocol_run(&started.run.id, |r| {
            r.step = 4;
            r.data = json!({"step_1": {"top_complaints": ["总是拖延"]}});
            Ok(vec![])
        })
        .unwrap();
    let view = today(&app, "zh-CN");
    let protocol = view.protocol.unwrap();
    assert_eq!(protocol.step_title, "打断自动驾驶");
    let times: Vec<&str> = view.reminders.iter().map(|r| r.time.as_str()).collect();
    assert_eq!(times, ["11:00"]);
    assert_eq!(protocol.run.answers.len(), 1, "the answers recorded so far");
    // Another day's view is a look back: nothing there is "due now".
    let yesterday = TodayRequest { lang: Some("zh-CN".into()), date: Some("2026-03-13".into()) };
    assert!(app.today(&yesterday).unwrap().reminders.is_empty());
}

/// `vibe protocol reminders --answer`: an answer at risk is saved, the crisis contacts come
/// back and the run is paused (the next question waits), as a risky message in the chat does;
/// a calm answer changes nothing else.
#[test]
fn a_reminder_answer_at_risk_pauses_the_run_and_brings_the_crisis_contacts() {
    use vibe_wire::command::{AnswerReminderRequest, ProtocolRunStatus};
    let (_dir, app) = open();
    let started =
        app.start_protocol(&ProtocolRequest { id: "dankoe".into(), skill: None }).unwrap();
    app.store()
        .update_protocol_run(&started.run.id, |r| {
            r.step = 4;
            Ok(vec![])
        })
        .unwrap();
    let answer = |text: &str| {
        let request = AnswerReminderRequest {
            run_id: started.run.id.clone(),
            at: "11:00".into(),
            text: text.into(),
        };
        app.answer_reminder(&request).unwrap()
    };
    let calm = answer("在回邮件，有点走神");
    assert_eq!((calm.run.status, calm.safety), (ProtocolRunStatus::Active, None));
    let risky = answer("我真的不想活了，已经想好怎么做了");
    let notice = risky.safety.expect("the contacts come back");
    assert_eq!(notice.category.as_str(), "suicide");
    assert!(!notice.resources.is_empty());
    assert_eq!(risky.run.status, ProtocolRunStatus::Paused);
    let stored = app.store().protocol_run(&started.run.id).unwrap();
    assert_eq!((stored.status, stored.step), (ProtocolStatus::Paused, 4));
    assert!(stored.data.to_string().contains("已经想好怎么做了"), "the answer is kept");
}

#[test]
fn a_runs_answers_are_the_persons_words_under_the_steps_questions() {
    let (_dir, app) = open();
    let started =
        app.start_protocol(&ProtocolRequest { id: "weekly_review".into(), skill: None }).unwrap();
    assert!(started.run.answers.is_empty());
    app.store()
        .update_protocol_run(&started.run.id, |r| {
            r.step = 2;
            r.data = json!({"step_1": {"wins": ["跑了三次步", "读完一本书"]}});
            Ok(vec![])
        })
        .unwrap();
    let run = app.get_protocol_run(&ProtocolRunRequest { run_id: started.run.id }).unwrap();
    assert_eq!(run.answers.len(), 1);
    assert_eq!((run.answers[0].step, run.answers[0].title.as_str()), (1, "看见进步"));
    assert_eq!(run.answers[0].title_en.as_deref(), Some("See your progress"));
    let field = &run.answers[0].fields[0];
    assert_eq!(
        (field.key.as_str(), field.label.as_str(), field.text.as_str()),
        ("wins", "这一周做成的事", "跑了三次步\n读完一本书")
    );
}

#[test]
fn insights_over_the_journal_a_completed_protocol_and_the_goals() {
    let (_dir, app) = open();
    checkin(&app, 2, &["焦虑"], Some("2026-03-03"));
    checkin(&app, 4, &["平静", "专注"], Some("2026-03-09"));
    checkin(&app, 5, &["平静"], Some("2026-03-14"));
    app.journal_add(&JournalAddRequest {
        date: Some("2026-03-10".into()),
        mood: Some(4),
        feelings: vec![],
        text: "写完了周报".into(),
        tags: vec![],
    })
    .unwrap();
    let started =
        app.start_protocol(&ProtocolRequest { id: "weekly_review".into(), skill: None }).unwrap();
    let completed_at = Local.with_ymd_and_hms(2026, 3, 13, 20, 0, 0).unwrap().to_rfc3339();
    app.store()
        .update_protocol_run(&started.run.id, |r| {
            r.status = ProtocolStatus::Completed;
            r.completed_at = Some(completed_at.clone());
            Ok(vec![])
        })
        .unwrap();
    let store = app.store();
    store
        .write_state(
            LOCAL_USER,
            "lifecoach",
            "goals",
            json!({"portfolio": {"title": "完成作品集", "status": "active", "deadline": "2026-03-31"}}),
        )
        .unwrap();
    store
        .append_to_list(
            LOCAL_USER,
            "lifecoach",
            "progress.milestones",
            json!({"date": "2026-03-11", "goal": "portfolio", "note": "案例一"}),
            usize::MAX,
        )
        .unwrap();

    let request = |range, lang: &str| InsightsRequest {
        range,
        until: Some("2026-03-14".into()),
        lang: Some(lang.into()),
    };
    let week = app.insights(&request(InsightsRange::Week, "en")).unwrap();
    assert_eq!(week.since, "2026-03-08");
    let moods: Vec<u8> = week.mood_points.iter().map(|p| p.mood).collect();
    assert_eq!(moods, [4, 4, 5], "the week's moods, oldest first");
    assert_eq!(week.days.len(), 7);
    assert_eq!(week.feelings[0].feeling, "平静");
    assert_eq!(week.protocols.len(), 1);
    assert_eq!(week.protocols[0].title, "Weekly Review");
    assert_eq!(week.goals.len(), 1);
    assert_eq!(
        (week.goals[0].milestones, week.goals[0].last_milestone.as_deref()),
        (1, Some("2026-03-11"))
    );
    assert_eq!(week.week.checkins, 2);
    assert_eq!(week.week.journal_entries, 1);
    assert_eq!(week.week.previous_mood_mean, Some(2.0));
    assert_eq!(week.week.protocols_completed, ["Weekly Review"]);

    let month = app.insights(&request(InsightsRange::Month, "zh-CN")).unwrap();
    assert_eq!(month.mood_points.len(), 4);
    assert_eq!(month.protocols[0].title, "每周回顾");
    let bad =
        app.insights(&InsightsRequest { until: Some("yesterday".into()), ..Default::default() });
    assert!(bad.unwrap_err().to_string().contains("until"));
}

#[test]
fn a_new_conversation_offers_each_skills_starters_in_the_persons_language() {
    let (_dir, app) = open();
    let en = app.conversation_starters(&StartersRequest { lang: Some("en".into()) }).starters;
    let zh = app.conversation_starters(&StartersRequest { lang: Some("zh-CN".into()) }).starters;
    assert_eq!(en.len(), zh.len());
    for skill in ["bazi", "career", "lifecoach", "tarot", "zodiac"] {
        let n = en.iter().filter(|s| s.skill == skill).count();
        assert!((2..=3).contains(&n), "{skill}: {n} starters");
    }
    let life = en.iter().find(|s| s.skill == "lifecoach").unwrap();
    assert_eq!(life.skill_name, "Life Coach");
    assert!(life.text.is_ascii(), "{}", life.text);
    let life = zh.iter().find(|s| s.skill == "lifecoach").unwrap();
    assert_eq!(life.skill_name, "人生教练");
    assert!(!life.text.is_ascii());
    let mut skills: Vec<&str> = en.iter().map(|s| s.skill.as_str()).collect();
    skills.dedup();
    let mut sorted = skills.clone();
    sorted.sort_unstable();
    assert_eq!(skills, sorted, "skills in the catalogue's order");
}
