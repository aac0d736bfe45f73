//! read_state / write_state / append_to_list: bound to the active skill, shapes as in
//! docs/design.md#state-semantics, store errors as observations, caches refreshed after writes.

use serde_json::json;
use vibe_store::LOCAL_USER;

use super::Fixture;

#[tokio::test]
async fn state_tools_refuse_to_work_without_an_active_skill() {
    let f = Fixture::new();
    for (tool, args) in [
        ("read_state", json!({})),
        ("write_state", json!({"section": "goals", "data": {"a": 1}})),
        ("append_to_list", json!({"path": "journal", "entry": {"text": "x"}})),
        ("load_resource", json!({"path": "SKILL.md"})),
    ] {
        let out = f.call(None, tool, args).await;
        assert!(out.is_error, "{tool}");
        assert_eq!(out.result["status"], "error");
        assert!(out.result["message"].as_str().unwrap().contains("call use_skill first"), "{tool}");
    }
    assert_eq!(
        f.store
            .profile(LOCAL_USER)
            .unwrap()
            .get("skills")
            .map(|s| s.as_object().unwrap().len())
            .unwrap_or(0),
        0
    );
}

#[tokio::test]
async fn writes_land_under_the_active_skill_only() {
    let f = Fixture::new();
    let out = f
        .call(
            Some("career"),
            "write_state",
            json!({"section": "goals", "data": {"this_year": "转行做产品经理"}}),
        )
        .await;
    assert!(!out.is_error, "{}", out.result);
    assert_eq!(
        out.result,
        json!({"status": "success", "message": "已保存 goals", "skill_id": "career"})
    );
    // Deep merge: a second write keeps the first field.
    f.call(Some("career"), "write_state", json!({"section": "goals", "data": {"salary": "30k"}}))
        .await;

    let read = f.call(Some("career"), "read_state", json!({"sections": ["goals"]})).await;
    assert_eq!(read.result["status"], "success");
    assert_eq!(read.result["skill_id"], "career");
    assert_eq!(
        read.result["data"]["goals"],
        json!({"this_year": "转行做产品经理", "salary": "30k"})
    );

    let other = f.call(Some("lifecoach"), "read_state", json!({})).await;
    assert_eq!(other.result["status"], "empty");
    assert_eq!(other.result["skill_id"], "lifecoach");
    assert_eq!(other.result["message"], "尚未建立 lifecoach 数据");
    let profile = f.store.profile(LOCAL_USER).unwrap();
    assert_eq!(profile["skills"]["career"]["goals"]["salary"], "30k");
}

#[tokio::test]
async fn appends_are_newest_first_and_trimmed() {
    let f = Fixture::new();
    for i in 0..3 {
        let out = f
            .call(
                Some("bazi"),
                "append_to_list",
                json!({"path": "insights", "entry": {"n": i}, "max_items": 2}),
            )
            .await;
        assert_eq!(out.result["status"], "success", "{}", out.result);
        assert_eq!(out.result["message"], "已添加到 insights");
        assert_eq!(out.result["skill_id"], "bazi");
    }
    let read = f.call(Some("bazi"), "read_state", json!({"sections": "insights"})).await;
    let items = read.result["data"]["insights"].as_array().unwrap();
    assert_eq!(items.len(), 2);
    assert_eq!(items[0]["n"], 2);
    assert!(items[0]["_created_at"].is_string());
}

#[tokio::test]
async fn store_errors_come_back_as_observations_with_the_store_message() {
    let f = Fixture::new();
    let out =
        f.call(Some("career"), "write_state", json!({"section": "a.b", "data": {"x": 1}})).await;
    assert!(out.is_error);
    assert!(
        out.result["message"].as_str().unwrap().contains("invalid section \"a.b\""),
        "{}",
        out.result
    );

    let out =
        f.call(Some("career"), "append_to_list", json!({"path": "_meta", "entry": {"x": 1}})).await;
    assert!(out.is_error);
    assert!(out.result["message"].as_str().unwrap().contains("reserved"), "{}", out.result);

    let out =
        f.call(Some("career"), "write_state", json!({"section": "goals", "data": "text"})).await;
    assert!(out.is_error);
    assert_eq!(out.result["field"], "data");

    let out = f
        .call(
            Some("career"),
            "append_to_list",
            json!({"path": "log", "entry": {"x": 1}, "max_items": 0}),
        )
        .await;
    assert_eq!(out.result["field"], "max_items");
}

#[tokio::test]
async fn a_write_refreshes_the_cached_skill_view() {
    let f = Fixture::new();
    let before = f.store.skill_view(LOCAL_USER, "career", &["extracted"]).unwrap();
    assert_eq!(before.state.get("goals"), None);
    f.call(Some("career"), "write_state", json!({"section": "goals", "data": {"x": 1}})).await;
    let after = f.store.skill_view(LOCAL_USER, "career", &["extracted"]).unwrap();
    assert_eq!(after.state["goals"]["x"], 1);
    f.call(
        Some("career"),
        "append_to_list",
        json!({"path": "applications", "entry": {"company": "A"}}),
    )
    .await;
    let again = f.store.skill_view(LOCAL_USER, "career", &["extracted"]).unwrap();
    assert_eq!(again.state["applications"][0]["company"], "A");
}

#[tokio::test]
async fn update_plan_validates_and_hands_the_plan_to_the_loop() {
    let f = Fixture::new();
    let out = f
        .call(
            None,
            "update_plan",
            json!({"goal": "转行", "steps": [{"title": "现状", "status": "in_progress"}]}),
        )
        .await;
    assert!(!out.is_error);
    let Some(vibe_agent::tools::Effect::PlanUpdated(plan)) = out.effect else {
        panic!("no plan effect")
    };
    assert_eq!(plan.steps[0].status.as_str(), "in_progress");
    let bad = f
        .call(
            None,
            "update_plan",
            json!({"goal": "g", "steps": [{"title": "a", "status": "doing"}]}),
        )
        .await;
    assert!(bad.is_error && bad.effect.is_none());
}

/// What `state_changed` events the calls so far emitted, as (skill, paths).
fn changes(f: &Fixture) -> Vec<(Option<String>, Vec<String>)> {
    f.sink
        .events()
        .into_iter()
        .filter_map(|e| match e.event {
            vibe_wire::Event::StateChanged { skill, paths } => Some((skill, paths)),
            _ => None,
        })
        .collect()
}

#[tokio::test]
async fn each_write_says_which_paths_changed_and_a_refused_one_says_nothing() {
    let f = Fixture::new();
    f.call(Some("career"), "write_state", json!({"section": "goals", "data": {"a": 1}})).await;
    f.call(Some("career"), "append_to_list", json!({"path": "progress.log", "entry": {"t": 1}}))
        .await;
    f.call(Some("career"), "read_state", json!({})).await;
    let refused = f.call(Some("career"), "write_state", json!({"section": "goals"})).await;
    assert!(refused.is_error);
    let career = Some("career".to_string());
    assert_eq!(
        changes(&f),
        [(career.clone(), vec!["goals".to_string()]), (career, vec!["progress.log".to_string()])]
    );
}

#[tokio::test]
async fn birth_info_given_to_a_chart_tool_is_a_profile_change() {
    let f = Fixture::new();
    let out = f
        .call(
            Some("zodiac"),
            "compute_chart",
            json!({"birth_info": {"date": "1990-05-17", "timezone": "Asia/Shanghai", "longitude": 121.47}}),
        )
        .await;
    assert!(!out.is_error, "{}", out.result);
    assert_eq!(
        changes(&f),
        [
            (None, vec!["birth_info".to_string()]),
            (Some("zodiac".to_string()), vec!["chart".to_string()])
        ]
    );
}

#[tokio::test]
async fn read_state_skips_a_damaged_entry_and_says_so() {
    let f = Fixture::new();
    for text in ["a", "b", "c"] {
        f.call(
            Some("career"),
            "append_to_list",
            json!({"path": "journal", "entry": {"text": text}}),
        )
        .await;
    }
    // Damaged outside VibeLife: one entry's stored JSON cut short.
    let conn = rusqlite::Connection::open(f.dir.path().join("vibe.db")).unwrap();
    conn.execute_batch(
        "PRAGMA ignore_check_constraints = ON;
         UPDATE state_list_items SET item = '{\"text\": \"b' WHERE item LIKE '%\"b\"%';",
    )
    .unwrap();
    drop(conn);
    let read = f.call(Some("career"), "read_state", json!({})).await;
    assert!(!read.is_error, "{}", read.result);
    let texts: Vec<&str> = read.result["data"]["journal"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["text"].as_str().unwrap())
        .collect();
    assert_eq!(texts, vec!["c", "a"]);
    let warning = read.result["warnings"][0].as_str().unwrap();
    assert!(
        warning.contains("skipped a damaged entry of list \"journal\" of skill career"),
        "{warning}"
    );
}

/// A state write that has to wait for another connection's write lock waits off the async
/// worker: on a one-thread runtime another task still runs meanwhile (the desktop shell's
/// event loop shares the runtime), and the write lands once the lock is let go.
#[test]
fn a_state_write_waiting_for_the_write_lock_lets_another_task_run() {
    use std::sync::Arc;

    let f = Arc::new(Fixture::new());
    let db = f.dir.path().join("vibe.db");
    let lock = vibe_test_support::WriteLock::take(move || rusqlite::Connection::open(&db).unwrap());

    let out = vibe_test_support::on_one_thread(async {
        let fixture = Arc::clone(&f);
        let write = tokio::task::spawn_local(async move {
            let args = json!({"section": "goals", "data": {"salary": "30k"}});
            fixture.call(Some("career"), "write_state", args).await
        });
        tokio::task::yield_now().await;
        // This only runs if the write's wait left the one worker thread free.
        let released = lock.release();
        (released, write.await.unwrap())
    });
    let (released, out) = out;
    assert!(released, "the other task never ran while the write waited");
    assert!(!out.is_error, "{}", out.result);
    let read = f.store.read_state(LOCAL_USER, "career", None).unwrap();
    assert_eq!(read.data["goals"]["salary"], "30k");
}

/// Issue 28: the protocol engine's state is not the model's to write. A forged invitation
/// would start a protocol the person never saw offered; a forged mirror would say a run is
/// completed while the engine says step 1.
#[tokio::test]
async fn writes_to_engine_owned_state_are_refused_and_change_nothing() {
    let f = Fixture::new();
    let forged = [
        (
            "write_state",
            json!({"section": "protocol_invitation", "data": {"id": "dankoe", "status": "pending"}}),
            "section",
        ),
        (
            "write_state",
            json!({"section": "protocol", "data": {"status": "completed", "completed": true}}),
            "section",
        ),
        ("append_to_list", json!({"path": "protocol.data", "entry": {"x": 1}}), "path"),
        ("append_to_list", json!({"path": "protocol_invitation", "entry": {"x": 1}}), "path"),
    ];
    for (tool, args, field) in forged {
        let out = f.call(Some("lifecoach"), tool, args.clone()).await;
        assert!(out.is_error, "{tool} {args}");
        assert_eq!(out.result["field"], field, "{}", out.result);
        let message = out.result["message"].as_str().unwrap();
        assert!(message.contains("kept by the protocol engine"), "{message}");
        assert!(message.contains("show_protocol_invitation"), "{message}");
    }
    let read = f.call(Some("lifecoach"), "read_state", json!({})).await;
    assert_eq!(read.result["status"], "empty", "{}", read.result);
}
