//! Protocol runs: one active per skill, every change in one transaction with its mirror.

use serde_json::json;

use super::*;
use crate::LOCAL_USER;

fn new_run<'a>(id: &'a str, protocol: &'a str, now: &'a str) -> NewProtocolRun<'a> {
    NewProtocolRun {
        id,
        user: LOCAL_USER,
        skill: "lifecoach",
        protocol_id: protocol,
        protocol_version: 2,
        total_steps: 3,
        conversation_id: None,
        model: Some("scripted"),
        now,
    }
}

fn mirror_in_profile(store: &Store) -> Value {
    store.read_state(LOCAL_USER, "lifecoach", None).unwrap().data["protocol"].clone()
}

#[test]
fn a_started_run_is_mirrored_exactly_as_the_seed_plus_version_status_activity() {
    let store = Store::open_in_memory().unwrap();
    let (run, paused) =
        store.start_protocol_run(&new_run("r1", "dankoe", "2026-01-20T10:00:00Z")).unwrap();
    assert!(paused.is_none());
    assert_eq!((run.status, run.step), (ProtocolStatus::Active, 1));
    assert_eq!(
        mirror_in_profile(&store),
        json!({
            "id": "dankoe", "version": 2, "step": 1, "total_steps": 3,
            "started_at": "2026-01-20T10:00:00Z", "data": {}, "completed": false,
            "status": "active", "last_activity_at": "2026-01-20T10:00:00Z"
        })
    );
}

#[test]
fn advancing_saves_step_data_and_completion_writes_leaves_with_the_mirror() {
    let store = Store::open_in_memory().unwrap();
    store.start_protocol_run(&new_run("r1", "dankoe", "t0")).unwrap();
    let run = store
        .update_protocol_run("r1", |run| {
            put(&mut run.data, "step_1", json!({"pain": ["累"]}));
            run.step = 2;
            run.last_activity_at = "t1".into();
            Ok(vec![])
        })
        .unwrap();
    assert_eq!(run.step, 2);
    assert_eq!(mirror_in_profile(&store)["data"], json!({"step_1": {"pain": ["累"]}}));
    store
        .update_protocol_run("r1", |run| {
            run.status = ProtocolStatus::Completed;
            run.step = 3;
            run.completed_at = Some("t2".into());
            Ok(vec![(vec!["north_star".into(), "vision".into()], json!("自由"))])
        })
        .unwrap();
    let state = store.read_state(LOCAL_USER, "lifecoach", None).unwrap().data;
    assert_eq!(state["north_star"], json!({"vision": "自由"}));
    assert_eq!(
        (state["protocol"]["completed"].clone(), state["protocol"]["status"].clone()),
        (json!(true), json!("completed"))
    );
    let err = store.update_protocol_run("r1", |_| Ok(vec![])).unwrap_err();
    assert!(err.to_string().contains("is completed and cannot change"), "{err}");
}

#[test]
fn a_refused_change_writes_nothing() {
    let store = Store::open_in_memory().unwrap();
    store.start_protocol_run(&new_run("r1", "dankoe", "t0")).unwrap();
    let err = store
        .update_protocol_run("r1", |run| {
            run.step = 2;
            Ok(vec![(vec!["_meta".into()], json!(1))])
        })
        .unwrap_err();
    assert!(err.to_string().contains("choose a section"), "{err}");
    assert_eq!(store.protocol_run("r1").unwrap().step, 1, "the row was rolled back");
    let err = store
        .update_protocol_run("r1", |run| {
            run.step = 9;
            Ok(vec![])
        })
        .unwrap_err();
    assert!(err.to_string().contains("outside 1..=3"), "{err}");
    assert_eq!(mirror_in_profile(&store)["step"], json!(1));
    let missing = store.update_protocol_run("nope", |_| Ok(vec![])).unwrap_err();
    assert_eq!(missing.kind(), vibe_wire::ErrorKind::NotFound);
}

#[test]
fn starting_another_pauses_the_active_one_and_resume_swaps_them_back() {
    let store = Store::open_in_memory().unwrap();
    store.start_protocol_run(&new_run("r1", "dankoe", "t0")).unwrap();
    let (_, paused) = store.start_protocol_run(&new_run("r2", "weekly_review", "t1")).unwrap();
    assert_eq!(paused.unwrap().id, "r1");
    assert_eq!(store.protocol_run("r1").unwrap().status, ProtocolStatus::Paused);
    assert_eq!(mirror_in_profile(&store)["id"], json!("weekly_review"));
    let (run, paused) = store.resume_protocol_run("r1").unwrap();
    assert_eq!((run.status, paused.unwrap().id.as_str()), (ProtocolStatus::Active, "r2"));
    assert_eq!(mirror_in_profile(&store)["id"], json!("dankoe"));
    assert_eq!(store.active_protocol_run(LOCAL_USER, "lifecoach").unwrap().unwrap().id, "r1");
    let ids: Vec<String> =
        store.protocol_runs(LOCAL_USER, None).unwrap().into_iter().map(|r| r.id).collect();
    assert_eq!(
        ids,
        vec!["r2", "r1"],
        "most recently active first (pausing and resuming are not activity)"
    );
}

#[test]
fn the_database_refuses_two_active_runs_of_one_skill() {
    let store = Store::open_in_memory().unwrap();
    store.start_protocol_run(&new_run("r1", "dankoe", "t0")).unwrap();
    let conn = store.conn();
    let err = conn
        .execute(
            "INSERT INTO protocol_runs (id, user_id, skill, protocol_id, protocol_version, status, step, total_steps, started_at, last_activity_at)
             VALUES ('x', 'local', 'lifecoach', 'p', 1, 'active', 1, 1, 't', 't')",
            [],
        )
        .unwrap_err();
    assert!(err.to_string().contains("UNIQUE"), "{err}");
}

#[test]
fn cancelled_runs_keep_their_data() {
    let store = Store::open_in_memory().unwrap();
    store.start_protocol_run(&new_run("r1", "dankoe", "t0")).unwrap();
    store
        .update_protocol_run("r1", |run| {
            put(&mut run.data, "step_1", json!({"a": "b"}));
            run.status = ProtocolStatus::Cancelled;
            run.cancel_reason = Some("没时间".into());
            Ok(vec![])
        })
        .unwrap();
    let run = store.protocol_run("r1").unwrap();
    assert_eq!(
        (run.data["step_1"]["a"].clone(), run.cancel_reason.as_deref()),
        (json!("b"), Some("没时间"))
    );
    assert_eq!(mirror_in_profile(&store)["status"], json!("cancelled"));
    assert!(store.resume_protocol_run("r1").unwrap_err().to_string().contains("cannot be resumed"));
}
