//! Scenario tests of the chat service with the scripted model: same-turn reload, skill restore,
//! budgets and the graceful stop, failing tools, approvals, audit, persistence.

use std::sync::Arc;

use vibe_agent::agent::{ApprovalPolicy, Budgets};
use vibe_store::Role;
use vibe_wire::{Event, Phase, StopReason};

use crate::harness::{Harness, Options, say, say_in};

const JOURNAL: &str = r#"
mode: matched
responses:
  - when: {user: "继续", tool_result: "success"}
    text: "好的，我们接着聊。"
  - when: {user: "继续"}
    tool_calls: [{name: read_state, arguments: {sections: [journal]}}]
  - when: {tool_result: "activated"}
    tool_calls: [{name: append_to_list, arguments: {path: journal, entry: {text: "今天完成了晨跑"}}}]
  - when: {tool_result: "success"}
    text: "记下来了！"
  - tool_calls: [{name: use_skill, arguments: {skill: lifecoach}}]
"#;

#[tokio::test]
async fn use_skill_reloads_phase_two_in_the_same_turn_and_the_skill_is_restored_next_time() {
    let h = Harness::scripted(JOURNAL);
    let first = h.turn(say("帮我记一下：今天完成了晨跑")).await;
    assert_eq!(first.result.stop_reason, StopReason::Completed, "{:?}", first.types());
    let phases: Vec<Phase> = first
        .model_requests()
        .iter()
        .map(|e| match e {
            Event::ModelRequest { phase, .. } => *phase,
            _ => unreachable!(),
        })
        .collect();
    assert_eq!(
        phases,
        vec![Phase::Phase1, Phase::Phase2, Phase::Phase2],
        "the call after use_skill is phase 2"
    );
    assert!(first.types().contains(&"skill_activated".to_string()));
    assert_eq!(first.reply(), "记下来了！");
    assert_eq!(h.profile()["skills"]["lifecoach"]["journal"][0]["text"], "今天完成了晨跑");
    let conversation = h.store.conversation(&first.result.conversation_id).unwrap();
    assert_eq!(conversation.skill.as_deref(), Some("lifecoach"));

    let second = h.turn(say_in(&first.result.conversation_id, "继续")).await;
    match &second.events[0].event {
        Event::RunStarted { phase, skill, .. } => {
            assert_eq!(*phase, Phase::Phase2);
            assert_eq!(skill.as_deref(), Some("lifecoach"));
        }
        other => panic!("first event {other:?}"),
    }
    let read = &second.tool_results()[0];
    assert_eq!(
        read.1["data"]["journal"][0]["text"], "今天完成了晨跑",
        "read_state is bound to the restored skill"
    );
}

#[tokio::test]
async fn every_message_of_a_turn_is_stored_in_order_with_tool_pairs() {
    let h = Harness::scripted(JOURNAL);
    let turn = h.turn(say("帮我记一下：今天完成了晨跑")).await;
    let messages = h.store.messages(&turn.result.conversation_id).unwrap();
    let roles: Vec<Role> = messages.iter().map(|m| m.role).collect();
    assert_eq!(
        roles,
        vec![Role::User, Role::Assistant, Role::Tool, Role::Assistant, Role::Tool, Role::Assistant]
    );
    assert_eq!(messages[2].tool_call_id.as_deref(), messages[1].tool_call_ids().first().copied());
    assert!(
        messages
            .iter()
            .all(|m| !m.interrupted && m.run_id.as_deref() == Some(turn.result.run_id.as_str()))
    );
    assert!(
        messages
            .iter()
            .all(|m| m.token_count > 0 || m.role == Role::Assistant && m.content.is_empty())
    );
    let run = h.store.run(&turn.result.run_id).unwrap().unwrap();
    assert_eq!(
        (run.status.as_str(), run.stop_reason.map(|r| r.as_str())),
        ("completed", Some("completed"))
    );
}

#[tokio::test]
async fn a_budget_stop_ends_with_a_closing_message_never_silence() {
    let script = r#"
mode: matched
responses:
  - tool_calls: [{name: read_state, arguments: {}}]
"#;
    let h = Harness::scripted_with(
        script,
        Options { budgets: Budgets { max_rounds: 2, ..Budgets::default() }, ..Options::default() },
    );
    let mut request = say("帮我规划一下这周");
    request.skill = Some("lifecoach".into());
    let turn = h.turn(request).await;
    assert_eq!(turn.result.stop_reason, StopReason::MaxRounds);
    let reply = turn.reply();
    assert!(reply.contains("思考轮数") && reply.contains("继续"), "{reply}");
    let last = h.store.messages(&turn.result.conversation_id).unwrap().pop().unwrap();
    assert_eq!((last.role, last.content.as_str()), (Role::Assistant, reply.as_str()));
    // The closing call offered no tools.
    let Event::ModelRequest { tools, .. } = turn.model_requests().last().unwrap() else {
        unreachable!()
    };
    assert!(tools.is_empty());
}

#[tokio::test]
async fn a_failing_tool_is_an_observation_and_three_failures_stop_the_run() {
    let script = r#"
mode: matched
responses:
  - tool_calls: [{name: append_to_list, arguments: {path: "a..b", entry: {x: 1}}}]
"#;
    let h = Harness::scripted(script);
    let mut request = say("记录一下");
    request.skill = Some("lifecoach".into());
    let turn = h.turn(request).await;
    assert_eq!(turn.result.stop_reason, StopReason::RepeatedToolFailure);
    let results = turn.tool_results();
    assert_eq!(results.len(), 3);
    assert!(
        results
            .iter()
            .all(|(_, r, err)| *err && r["message"].as_str().unwrap().contains("empty segment"))
    );
    assert!(!turn.reply().is_empty(), "the person hears why it stopped");
}

#[tokio::test]
async fn an_unknown_tool_and_bad_arguments_come_back_to_the_model() {
    let script = r#"
mode: matched
responses:
  - when: {tool_result: "not valid JSON"}
    text: "抱歉，我换个方式。"
  - when: {tool_result: "unknown tool"}
    tool_calls: [{name: write_state, arguments: "{\"section\": "}]
  - tool_calls: [{name: teleport, arguments: {}}]
"#;
    let h = Harness::scripted(script);
    let mut request = say("hi");
    request.skill = Some("career".into());
    let turn = h.turn(request).await;
    assert_eq!(turn.result.stop_reason, StopReason::Completed);
    assert_eq!(turn.reply(), "抱歉，我换个方式。");
}

#[tokio::test]
async fn the_audit_log_holds_every_event_in_order() {
    let h = Harness::scripted(JOURNAL);
    let turn = h.turn(say("帮我记一下：今天完成了晨跑")).await;
    let log = h.app.run_folders().read_events(&turn.result.run_id).unwrap();
    assert_eq!(log.events, turn.events);
    let seqs: Vec<u64> = log.events.iter().map(|e| e.seq).collect();
    assert_eq!(seqs, (0..seqs.len() as u64).collect::<Vec<_>>());
    assert!(matches!(log.events.last().unwrap().event, Event::RunFinished { .. }));
}

#[tokio::test]
async fn approvals_granted_and_denied() {
    let skills = tempfile::tempdir().unwrap();
    let skill = skills.path().join("helper");
    std::fs::create_dir_all(skill.join("scripts")).unwrap();
    std::fs::write(
        skill.join("SKILL.md"),
        "---\nname: helper\ndescription: A test skill with a script.\n---\nUse the script.\n",
    )
    .unwrap();
    std::fs::write(skill.join("tools.yaml"), "tools:\n  - run_script\n").unwrap();
    std::fs::write(skill.join("scripts/hello.sh"), "echo hello from script\n").unwrap();
    let script = r#"
mode: matched
responses:
  - when: {tool_result: "hello from script"}
    text: "脚本说了 hello。"
  - when: {tool_result: "denied"}
    text: "好的，不运行脚本。"
  - tool_calls: [{name: run_script, arguments: {script: hello.sh}}]
"#;
    let options =
        || Options { project_skills: Some(skills.path().to_path_buf()), ..Options::default() };
    for (policy, reply, approved) in [
        (ApprovalPolicy::ApproveAll, "脚本说了 hello。", true),
        (ApprovalPolicy::DenyAll, "好的，不运行脚本。", false),
    ] {
        let h = Harness::scripted_with(script, options());
        let mut request = say("run it");
        request.skill = Some("helper".into());
        let turn = h.turn_with(request, Arc::new(policy)).await;
        assert_eq!(turn.reply(), reply);
        let types = turn.types();
        let required = types.iter().position(|t| t == "approval_required").expect("approval asked");
        let resolved =
            types.iter().position(|t| t == "approval_resolved").expect("approval resolved");
        assert!(required < resolved);
        let decision = turn.events.iter().find_map(|e| match &e.event {
            Event::ApprovalResolved { approved, by, .. } => {
                Some((*approved, by.as_str().to_string()))
            }
            _ => None,
        });
        assert_eq!(decision, Some((approved, "policy".to_string())));
    }
}

#[tokio::test]
async fn an_empty_message_or_unknown_skill_is_refused_before_anything_is_stored() {
    let h = Harness::scripted(JOURNAL);
    let sinks = Vec::new();
    let err = h
        .service
        .run_turn(say("   "), sinks, Arc::new(ApprovalPolicy::DenyAll), Default::default())
        .await
        .unwrap_err();
    assert!(err.to_string().contains("empty"), "{err}");
    let mut request = say("hi");
    request.skill = Some("no-such-skill".into());
    assert!(
        h.service
            .run_turn(request, Vec::new(), Arc::new(ApprovalPolicy::DenyAll), Default::default())
            .await
            .is_err()
    );
    assert!(h.store.list_conversations("local").unwrap().is_empty());
}

fn prompt_tokens_without_history(event: &Event) -> u32 {
    let Event::ModelRequest { sections, .. } = event else { unreachable!() };
    sections.iter().filter(|s| s.name != "history" && s.name != "this_run").map(|s| s.tokens).sum()
}

#[tokio::test]
async fn phase_budgets_hold_with_fifty_skills_installed() {
    let skills = tempfile::tempdir().unwrap();
    for i in 0..50 {
        let dir = skills.path().join(format!("extra-skill-{i}"));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(
            dir.join("SKILL.md"),
            format!(
                "---\nname: extra-skill-{i}\ndescription: 第 {i} 个测试技能，帮助用户处理与主题 {i} 相关的生活问题，包括计划、反思、习惯养成与情绪整理等多个方面的详细指导。\ntriggers: [主题{i}, topic{i}]\n---\n正文 {i}\n"
            ),
        )
        .unwrap();
    }
    let h = Harness::scripted_with(
        JOURNAL,
        Options { project_skills: Some(skills.path().to_path_buf()), ..Options::default() },
    );
    let turn = h.turn(say("帮我记一下：今天完成了晨跑")).await;
    let requests = turn.model_requests();
    assert!(prompt_tokens_without_history(requests[0]) <= 2_400, "{:?}", requests[0]);
    assert!(prompt_tokens_without_history(requests[1]) <= 6_000, "{:?}", requests[1]);
    let Event::ModelRequest { notices, .. } = requests[0] else { unreachable!() };
    assert!(
        notices.iter().any(|n| n.contains("catalog")),
        "left-out skills are announced: {notices:?}"
    );
}

#[tokio::test]
async fn cancelling_mid_stream_keeps_the_partial_answer_and_a_valid_history() {
    let script = r#"
mode: ordered
responses:
  - text: "这是一个会被打断的很长的回答，一个字一个字地出来。"
    chunk_chars: 1
    delay_ms: 40
"#;
    let h = Harness::scripted(script);
    let cancel = tokio_util::sync::CancellationToken::new();
    let sink = Arc::new(vibe_runlog::emit::CollectSink::default());
    let sinks: Vec<Arc<dyn vibe_runlog::emit::EventSink>> = vec![sink.clone()];
    let canceller = {
        let cancel = cancel.clone();
        let sink = sink.clone();
        tokio::spawn(async move {
            while sink
                .events()
                .iter()
                .filter(|e| matches!(e.event, Event::AssistantDelta { .. }))
                .count()
                < 5
            {
                tokio::time::sleep(std::time::Duration::from_millis(5)).await;
            }
            cancel.cancel();
        })
    };
    let result = h
        .service
        .run_turn(say("讲个故事"), sinks, Arc::new(ApprovalPolicy::DenyAll), cancel)
        .await
        .unwrap();
    canceller.await.unwrap();
    assert_eq!(result.stop_reason, StopReason::Cancelled);
    let messages = h.store.messages(&result.conversation_id).unwrap();
    assert_eq!(messages.len(), 2);
    let partial = &messages[1];
    assert!(partial.interrupted && !partial.content.is_empty());
    assert!("这是一个会被打断的很长的回答，一个字一个字地出来。".starts_with(&partial.content));
    let run = h.store.run(&result.run_id).unwrap().unwrap();
    assert_eq!(
        (run.status.as_str(), run.stop_reason.map(|r| r.as_str())),
        ("cancelled", Some("cancelled"))
    );
    assert!(matches!(
        sink.events().last().unwrap().event,
        Event::RunFinished { stop_reason: StopReason::Cancelled, .. }
    ));
}

use vibe_test_support::eventually;

#[tokio::test]
async fn a_long_lived_service_takes_over_run_folders_made_ahead() {
    let h = Harness::scripted_with(JOURNAL, Options { runs_ahead: true, ..Options::default() });
    let spares = h.dir.path().join("runs").join(vibe_runlog::SPARE_DIR);
    let count = |dir: &std::path::Path| std::fs::read_dir(dir).map_or(0, |d| d.count());
    eventually("a run folder is ready before the first turn", || count(&spares) == 1);
    let mut runs = Vec::new();
    for message in ["今天跑了五公里", "明天想早点睡"] {
        let turn = h.turn(say(message)).await;
        let log = h.app.run_folders().read_events(&turn.result.run_id).unwrap();
        assert_eq!(log.events, turn.events, "the run's log is in runs/<id>/ as emitted");
        runs.push(turn.result.run_id);
    }
    assert_ne!(runs[0], runs[1]);
    let on_disk = vibe_runlog::list_runs_on_disk(h.dir.path()).unwrap();
    assert_eq!(on_disk.len(), 2, "spares are not listed as runs: {on_disk:?}");
    eventually("the next folder is made ahead", || count(&spares) == 1);
    // A spare left by a process that is gone is swept; this process's live one is kept.
    let orphan = spares.join("0190d3c2-7a1e-7c3b-9f00-1234567890ab");
    std::fs::create_dir_all(&orphan).unwrap();
    std::fs::write(orphan.join("events.jsonl"), "").unwrap();
    h.service.recover().unwrap();
    assert!(!orphan.exists());
    assert_eq!(count(&spares), 1);
    let Harness { dir, service, app, .. } = h;
    drop(service);
    drop(app);
    eventually("the unused folder is removed with the service", || count(&spares) == 0);
    drop(dir);
}
