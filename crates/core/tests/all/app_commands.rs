//! The app's memory, skill-state, profile, database, chart and protocol commands over a real
//! data dir and SQLite file (and, for extraction, the fake OpenAI-compatible server over
//! HTTP): what a front end sends and what it gets back, as wire DTOs.

use serde_json::{Value, json};
use vibe_core::app::{App, AppError, AppPaths, Overrides};
use vibe_test_support::{FakeServer, Reply, ev_finish, ev_text, sse};
use vibe_wire::command::{
    AppendStateRequest, ChartKind, ComputeChartRequest, EditMemoryRequest, ExtractMemoryRequest,
    Hint, ImportProfileRequest, ListMemoryRequest, MemoryItemRequest, MemoryKind, MemoryPassStatus,
    MemoryReplacedBy, ReadStateRequest, SendMessageRequest, SetMemoryEnabledRequest,
    SetProfilePathRequest, StateReadStatus, WriteStateRequest,
};

use crate::app::{endpoint, open};

fn hint(err: &AppError) -> Option<Hint> {
    err.to_command_error().hint
}

#[tokio::test]
async fn memory_is_extracted_listed_edited_forgotten_exported_and_switched_by_command() {
    let server = FakeServer::start();
    server.push(Reply::sse(sse(vec![ev_text("好的"), ev_finish("stop")])));
    // The person's first message in a fresh database has id 1.
    let answer = r#"{"items": [{"kind": "facts", "text": "在杭州做设计师", "confidence": 0.9, "sources": [1]}]}"#;
    server.push(Reply::sse(sse(vec![ev_text(answer), ev_finish("stop")])));
    let dir = tempfile::tempdir().unwrap();
    let app = open(dir.path(), Overrides::default());
    endpoint(&app, &server.url());
    let (sink, _events) = {
        let (tx, rx) = tokio::sync::mpsc::unbounded_channel();
        (std::sync::Arc::new(vibe_runlog::emit::ChannelSink(tx)), rx)
    };
    let turn = app.send_message(SendMessageRequest::say(None, "我在杭州做设计师"), sink).await;
    let conversation = turn.unwrap().conversation_id;

    let done = app.extract_memory(&ExtractMemoryRequest::default()).await.unwrap();
    assert_eq!(done.passes.len(), 1);
    assert_eq!(done.passes[0].conversation_id, conversation);
    assert!(
        matches!(&done.passes[0].status, MemoryPassStatus::Applied { added, .. } if added.len() == 1),
        "{:?}",
        done.passes[0]
    );
    let again = app.extract_memory(&ExtractMemoryRequest::default()).await.unwrap();
    assert!(again.passes.is_empty(), "nothing is read twice");

    let list = app.list_memory(&ListMemoryRequest::default()).unwrap();
    assert!(list.memory);
    assert_eq!(list.items.len(), 1);
    let item = &list.items[0];
    assert_eq!((item.kind, item.text.as_str()), (MemoryKind::Facts, "在杭州做设计师"));
    assert_eq!(item.sources[0].message_id, 1);
    let goals = app.list_memory(&ListMemoryRequest { kind: Some(MemoryKind::Goals) }).unwrap();
    assert!(goals.items.is_empty(), "only the kind asked for");

    let short = item.id[..8].to_string();
    let shown = app.show_memory_item(&MemoryItemRequest { id: short.clone() }).unwrap();
    assert_eq!(shown.id, item.id);
    let edited = app
        .edit_memory_item(&EditMemoryRequest {
            id: short.clone(), text: "在上海做产品设计".into()
        })
        .unwrap();
    assert!(edited.edited);
    assert_eq!(edited.history[0].text, "在杭州做设计师");
    assert_eq!(edited.history[0].by, MemoryReplacedBy::Edit);
    let blank = app.edit_memory_item(&EditMemoryRequest { id: short.clone(), text: "  ".into() });
    assert!(blank.is_err(), "an empty text is refused");
    let export = app.export_memory().unwrap();
    assert_eq!(export.items[0].text, "在上海做产品设计", "the edit stuck");
    assert!(!export.exported_at.is_empty());

    let forgotten = app.forget_memory_item(&MemoryItemRequest { id: short.clone() }).unwrap();
    assert_eq!(forgotten.forgotten, item.id);
    assert!(app.list_memory(&ListMemoryRequest::default()).unwrap().items.is_empty());
    assert!(app.show_memory_item(&MemoryItemRequest { id: short }).is_err());

    let off = app.set_memory_enabled(&SetMemoryEnabledRequest { on: false }).unwrap();
    assert!(!off.memory);
    assert!(!app.list_memory(&ListMemoryRequest::default()).unwrap().memory);
    let request = ExtractMemoryRequest { conversation_id: None, again: true };
    let err = app.extract_memory(&request).await.unwrap_err();
    assert!(matches!(err, AppError::MemoryOff), "{err}");
    assert_eq!(hint(&err), Some(Hint::MemoryOff));
    assert!(app.set_memory_enabled(&SetMemoryEnabledRequest { on: true }).unwrap().memory);
}

#[test]
fn skill_state_is_written_merged_appended_and_read_back_by_sections() {
    let dir = tempfile::tempdir().unwrap();
    let app = open(dir.path(), Overrides::default());
    let read = |sections: Option<Vec<String>>| {
        app.read_state(&ReadStateRequest { skill: "career".into(), sections }).unwrap()
    };
    assert_eq!(read(None).status, StateReadStatus::Empty);

    let write = |data: Value| {
        app.write_state(&WriteStateRequest {
            skill: "career".into(),
            section: "goals".into(),
            data,
        })
    };
    write(json!({"a": {"x": 1, "y": 2}})).unwrap();
    let written = write(json!({"a": {"y": null, "z": 3}})).unwrap();
    assert_eq!((written.skill_id.as_str(), written.section.as_str()), ("career", "goals"));
    for n in 1..=3 {
        let out = app
            .append_state(&AppendStateRequest {
                skill: "career".into(),
                path: "log.items".into(),
                entry: json!({"n": n}),
                max_items: Some(2),
            })
            .unwrap();
        assert_eq!(out.length, n.min(2));
        assert_eq!(out.dropped, u32::from(n == 3));
    }
    let got = read(Some(vec!["goals".into(), "log".into()]));
    assert_eq!(got.status, StateReadStatus::Success);
    assert_eq!(got.data["goals"], json!({"a": {"x": 1, "z": 3}}));
    let items: Vec<i64> = got.data["log"]["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["n"].as_i64().unwrap())
        .collect();
    assert_eq!(items, vec![3, 2], "newest first, the oldest dropped");
    // One entry edited in place, named by its place and stamp.
    let second = got.data["log"]["items"][1].clone();
    let edit = |index: u32, created_at: &str| {
        app.edit_state_entry(&vibe_wire::command::EditStateEntryRequest {
            skill: "career".into(),
            path: "log.items".into(),
            index,
            created_at: created_at.into(),
            entry: json!({"n": 20, "note": "edited"}),
        })
    };
    let stamp = second["_created_at"].as_str().unwrap();
    let edited = edit(1, stamp).unwrap();
    assert_eq!(edited.entry["_created_at"], stamp);
    let err = edit(0, "2001-01-01T00:00:00.000Z").unwrap_err();
    assert!(err.to_string().contains("read the state again"), "{err}");
    let got = read(Some(vec!["log".into()]));
    assert_eq!(got.data["log"]["items"][1]["note"], "edited");
    assert_eq!(got.data["log"]["items"][0]["n"], 3);
    assert_eq!(edited.safety, None, "calm words bring no notice");
    // Words at risk are saved, and the crisis contacts come back with them (as for a journal
    // entry).
    let first = got.data["log"]["items"][0]["_created_at"].as_str().unwrap().to_string();
    let at_risk = app
        .edit_state_entry(&vibe_wire::command::EditStateEntryRequest {
            skill: "career".into(),
            path: "log.items".into(),
            index: 0,
            created_at: first,
            entry: json!({"n": 3, "notes": ["加班到很晚", "我真的不想活了"]}),
        })
        .unwrap();
    let notice = at_risk.safety.expect("a notice");
    assert_eq!(notice.category, vibe_wire::SafetyCategory::Suicide);
    assert!(!notice.resources.is_empty());
    assert_eq!(
        read(Some(vec!["log".into()])).data["log"]["items"][0]["notes"][1],
        "我真的不想活了"
    );

    // Bad input is refused and changes nothing.
    assert!(write(json!([1, 2])).is_err(), "a section is merged from an object only");
    let bad_skill = app.write_state(&WriteStateRequest {
        skill: "Not A Skill".into(),
        section: "goals".into(),
        data: json!({"b": 1}),
    });
    assert!(bad_skill.is_err());
    assert_eq!(read(Some(vec!["goals".into()])).data["goals"], json!({"a": {"x": 1, "z": 3}}));
}

#[test]
fn a_profile_is_imported_whole_and_the_database_reports_what_it_holds() {
    let dir = tempfile::tempdir().unwrap();
    // A passphrase data dir, so the check below (which opens the database alone) has its key.
    let keyed = || Overrides {
        db_passphrase: Some(zeroize::Zeroizing::new("a test passphrase".to_string())),
        ..Overrides::default()
    };
    let app = open(dir.path(), keyed());
    let set = SetProfilePathRequest { path: "preferences.nickname".into(), value: json!("小林") };
    app.set_profile_path(&set).unwrap();
    let doc = json!({"name": "林晓", "skills": {"lifecoach": {"goals": {"a": 1}}}});
    let stored = app.import_profile(ImportProfileRequest { profile: doc }).unwrap().profile;
    assert_eq!(stored["name"], "林晓");
    assert_eq!(app.get_profile().unwrap().profile, stored, "a read after the import sees it");
    assert!(stored["preferences"].get("nickname").is_none(), "the import replaced the profile");
    let bad = app.import_profile(ImportProfileRequest { profile: json!("not an object") });
    assert!(bad.is_err());
    assert_eq!(app.get_profile().unwrap().profile, stored, "a refused import changes nothing");

    let info = app.database_info().unwrap();
    assert!(info.path.ends_with("vibe.db"), "{}", info.path);
    assert_eq!(info.schema_version, info.latest_schema_version);
    assert!(info.size_bytes > 0);
    assert_eq!(info.counts.get("skill_states"), Some(&1), "{:?}", info.counts);

    assert_eq!(info.encryption, vibe_wire::command::Encryption::Passphrase);
    let checked = App::check_database(
        &AppPaths::new(dir.path()),
        &keyed(),
        &vibe_core::app::EphemeralKeys::default(),
    )
    .unwrap();
    assert!(checked.ok && checked.problems.is_empty() && checked.advice.is_none());
}

#[test]
fn a_chart_is_computed_from_birth_info_and_missing_birth_info_hints_at_the_field() {
    let dir = tempfile::tempdir().unwrap();
    let app = open(dir.path(), Overrides::default());
    let request = ComputeChartRequest { skill: "bazi".into(), force: false };
    let err = app.compute_chart(&request).unwrap_err();
    assert_eq!(hint(&err), Some(Hint::BirthInfo { field: "birth_info".into() }), "{err}");
    assert!(app.get_profile().unwrap().profile["skills"].get("bazi").is_none(), "nothing stored");

    let birth = json!({"date": "1893-12-26", "time": "08:00", "place": "韶山", "timezone": "Asia/Shanghai"});
    let set = SetProfilePathRequest { path: "birth_info".into(), value: birth };
    app.set_profile_path(&set).unwrap();
    let first = app.compute_chart(&request).unwrap();
    assert_eq!((first.compute_type, first.recomputed), (ChartKind::Bazi, true));
    assert_eq!(first.path, "skills.bazi.chart");
    let profile = app.get_profile().unwrap().profile;
    assert_eq!(profile["skills"]["bazi"]["chart"], first.chart);
    let again = app.compute_chart(&request).unwrap();
    assert!(!again.recomputed, "birth_info unchanged: the stored chart");
    assert_eq!(again.chart, first.chart);

    let unknown = ComputeChartRequest { skill: "no-such-skill".into(), force: false };
    let err = app.compute_chart(&unknown).unwrap_err();
    assert_eq!(hint(&err), Some(Hint::Skill { name: "no-such-skill".into() }));
}

#[test]
fn protocols_are_listed_started_declined_paused_cancelled_and_reported_by_command() {
    use vibe_wire::command::{
        CancelProtocolRequest, ListProtocolRunsRequest, ProtocolReportRequest, ProtocolRequest,
        ProtocolRunRequest, ProtocolRunStatus, RemindersRequest, ReportFormatKind,
    };
    let dir = tempfile::tempdir().unwrap();
    let app = open(dir.path(), Overrides::default());
    let list = app.list_protocols();
    let dankoe = list.protocols.iter().find(|p| p.id == "dankoe").expect("the dankoe protocol");
    assert_eq!((dankoe.skill.as_str(), dankoe.steps), ("lifecoach", 6));

    let ask = |id: &str| ProtocolRequest { id: id.into(), skill: None };
    let started = app.start_protocol(&ask("dankoe")).unwrap();
    assert_eq!(started.run.status, ProtocolRunStatus::Active);
    // The run names its steps, so a front end opening it later shows step 1 by name.
    assert_eq!(started.run.step_names.len(), 6);
    assert_eq!(started.run.step_names[0], "觉察痛点");
    assert_eq!(started.run.step_names_en.len(), 6);
    let first = started.run.id.clone();
    let second = app.start_protocol(&ask("weekly_review")).unwrap();
    let paused = app.get_protocol_run(&ProtocolRunRequest { run_id: first.clone() }).unwrap();
    assert_eq!(paused.status, ProtocolRunStatus::Paused, "one active run per skill");
    let runs = app.list_protocol_runs(&ListProtocolRunsRequest::default()).unwrap();
    assert_eq!(runs.runs.len(), 2);

    let later = app.later_protocol(&ask("dankoe")).unwrap();
    assert_eq!(later.skill, "lifecoach");
    let unknown = app.start_protocol(&ask("no-such-protocol")).unwrap_err();
    assert_eq!(hint(&unknown), Some(Hint::Protocol { id: "no-such-protocol".into() }));

    let resumed = app.resume_protocol(&ProtocolRunRequest { run_id: first.clone() }).unwrap();
    assert_eq!(resumed.run.status, ProtocolRunStatus::Active);
    let other = app.get_protocol_run(&ProtocolRunRequest { run_id: second.run.id }).unwrap();
    assert_eq!(other.status, ProtocolRunStatus::Paused);
    let reminders = app.protocol_reminders(&RemindersRequest { due: false }).unwrap();
    assert!(reminders.reminders.is_empty(), "step 1 has none");

    let request = CancelProtocolRequest { run_id: first.clone(), reason: Some("改天".into()) };
    let cancelled = app.cancel_protocol(&request).unwrap();
    assert_eq!(cancelled.run.status, ProtocolRunStatus::Cancelled);
    assert_eq!(cancelled.run.cancel_reason.as_deref(), Some("改天"));

    let report = app
        .protocol_report(&ProtocolReportRequest { run_id: first, format: ReportFormatKind::Json })
        .unwrap();
    let doc: Value = serde_json::from_slice(&report).unwrap();
    assert_eq!(doc["schema_version"], 1, "{doc}");
}

#[test]
fn skills_are_listed_shown_checked_created_and_reloaded_by_command() {
    use vibe_wire::SkillsChangeKind;
    use vibe_wire::command::{
        CheckSkillsRequest, NewSkillRequest, ShowSkillRequest, SkillProblemSeverity, SkillRootKind,
    };
    let dir = tempfile::tempdir().unwrap();
    let app = open(dir.path(), Overrides::default());
    let list = app.list_skills();
    let bazi = list.skills.iter().find(|s| s.name == "bazi").expect("the built-in bazi skill");
    assert_eq!((bazi.root, bazi.valid), (SkillRootKind::Builtin, true));
    assert!(list.roots.iter().any(|r| r.kind == SkillRootKind::User));
    let names: Vec<&str> = list.skills.iter().map(|s| s.name.as_str()).collect();
    let sorted = {
        let mut n = names.clone();
        n.sort_unstable();
        n
    };
    assert_eq!(names, sorted, "sorted by name");

    let shown = app.show_skill(&ShowSkillRequest { name: "bazi".into() }).unwrap();
    assert_eq!(shown.meta["compute_type"], "bazi");
    let err = app.show_skill(&ShowSkillRequest { name: "nope".into() }).unwrap_err();
    assert_eq!(hint(&err), Some(vibe_wire::command::Hint::Skill { name: "nope".into() }));

    let made = app.new_skill(&NewSkillRequest { name: "my-habit".into() }).unwrap();
    assert!(std::path::Path::new(&made.file).is_file());
    assert!(app.new_skill(&NewSkillRequest { name: "Bad Name".into() }).is_err());
    let reloaded = app.reload_skills();
    assert!(
        reloaded
            .changes
            .iter()
            .any(|c| c.name == "my-habit" && c.change == SkillsChangeKind::Added),
        "{:?}",
        reloaded.changes
    );
    let mine = app.list_skills().skills.into_iter().find(|s| s.name == "my-habit").unwrap();
    assert_eq!((mine.root, mine.valid), (SkillRootKind::User, true));

    let clean = app.check_skills(&CheckSkillsRequest { dirs: vec![made.dir.clone()] });
    assert!(clean.ok && clean.errors == 0, "{clean:?}");
    std::fs::write(&made.file, "---\nname: my-habit\n---\n").unwrap();
    let broken = app.check_skills(&CheckSkillsRequest { dirs: vec![made.dir] });
    assert!(!broken.ok && broken.errors > 0, "{broken:?}");
    let first = &broken.problems[0];
    assert_eq!(first.severity, SkillProblemSeverity::Error);
    assert!(first.text.contains(&first.message) && first.path.ends_with("SKILL.md"), "{first:?}");
}

#[tokio::test]
async fn scenarios_are_run_and_scored_by_command() {
    use vibe_wire::StopReason;
    use vibe_wire::command::EvalRequest;
    let repo = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let file = |rel: &str| repo.join(rel).display().to_string();
    let good = EvalRequest { files: vec![file("tests/evals/budget_stop.yaml")] };
    let results = App::run_eval(&good).await.unwrap();
    assert_eq!(results.failed, 0, "{results:?}");
    let scenario = &results.scenarios[0];
    assert!(scenario.total > 0 && scenario.passed == scenario.total, "{scenario:?}");
    assert!(scenario.turns.iter().all(|t| t.observed.stop_reason.is_some()));
    assert!(scenario.turns.iter().any(|t| t.observed.stop_reason != Some(StopReason::Completed)));

    let wrong = EvalRequest { files: vec![file("crates/cli/tests/fixtures/eval_fail.yaml")] };
    let results = App::run_eval(&wrong).await.unwrap();
    assert_eq!(results.failed, 1);
    let failed: Vec<&str> = results.scenarios[0].turns[0]
        .checks
        .iter()
        .filter(|c| !c.passed)
        .map(|c| c.name.as_str())
        .collect();
    assert_eq!(failed, vec!["tool_calls"]);

    let missing = EvalRequest { files: vec![file("tests/evals/no_such_file.yaml")] };
    let err = App::run_eval(&missing).await.unwrap_err();
    assert!(err.to_string().contains("no_such_file.yaml"), "{err}");
}

#[tokio::test]
async fn a_message_is_screened_by_the_rules_and_by_the_model_only_when_they_are_unsure() {
    use vibe_wire::SafetyCategory;
    use vibe_wire::command::{SafetyCheckRequest, ScreenedRisk};
    let clear = App::screen_message("hello there").unwrap();
    assert_eq!((clear.risk, clear.unsure, clear.model_asked), (ScreenedRisk::None, false, None));

    let server = FakeServer::start();
    let answer = r#"{"risk": "acute", "category": "suicide"}"#;
    server.push(Reply::sse(sse(vec![ev_text(answer), ev_finish("stop")])));
    let dir = tempfile::tempdir().unwrap();
    let app = open(dir.path(), Overrides::default());
    endpoint(&app, &server.url());
    let ask = |message: &str| SafetyCheckRequest { message: message.into(), use_model: true };
    let sure = app.check_safety(&ask("hello there")).await.unwrap();
    assert_eq!(sure.model_asked, Some(false), "a sure result needs no call");
    let unsure = app.check_safety(&ask("撑不住了")).await.unwrap();
    assert_eq!(unsure.model_asked, Some(true));
    assert_eq!(
        (unsure.risk, unsure.category, unsure.rule.as_deref()),
        (ScreenedRisk::Acute, Some(SafetyCategory::Suicide), Some("model"))
    );
}
