//! The kinds keep the strings earlier versions wrote: lines copied from old `events.jsonl`
//! files still read, and every value serialises as its `as_str`.

use super::*;
use crate::{Envelope, Event, StopReason};

fn read(line: &str) -> Event {
    let env: Envelope = serde_json::from_str(line).unwrap_or_else(|e| panic!("{e}: {line}"));
    env.event
}

#[test]
fn every_value_serialises_as_its_name_and_parses_back() {
    fn check<T>(all: &[T], name: fn(T) -> &'static str, parse: fn(&str) -> Option<T>)
    where
        T: Copy + PartialEq + std::fmt::Debug + Serialize + for<'de> Deserialize<'de>,
    {
        for &v in all {
            let json = serde_json::to_value(v).unwrap_or_default();
            assert_eq!(json, serde_json::json!(name(v)));
            let back: T = serde_json::from_value(json).unwrap_or_else(|e| panic!("{e}"));
            assert_eq!(back, v);
            assert_eq!(parse(name(v)), Some(v));
        }
    }
    check(ErrorKind::ALL, ErrorKind::as_str, ErrorKind::parse);
    check(RunStatus::ALL, RunStatus::as_str, RunStatus::parse);
    check(ApprovalSource::ALL, ApprovalSource::as_str, ApprovalSource::parse);
    check(PlanStepStatus::ALL, PlanStepStatus::as_str, PlanStepStatus::parse);
    check(DisplayKind::ALL, DisplayKind::as_str, DisplayKind::parse);
    check(SafetyRisk::ALL, SafetyRisk::as_str, SafetyRisk::parse);
    check(SafetyCategory::ALL, SafetyCategory::as_str, SafetyCategory::parse);
    check(ProtocolChoice::ALL, ProtocolChoice::as_str, ProtocolChoice::parse);
    check(VoiceMode::ALL, VoiceMode::as_str, VoiceMode::parse);
    check(ToolMode::ALL, ToolMode::as_str, ToolMode::parse);
    check(StopReason::ALL, StopReason::as_str, StopReason::parse);
    assert_eq!(ErrorKind::parse("no_such_kind"), None);
}

#[test]
fn every_error_kind_written_before_the_enum_still_reads() {
    // Every kind any crate emitted as a string (llm, store, core, the safety hook, tests).
    let old = [
        "auth",
        "rate_limited",
        "server",
        "bad_request",
        "network",
        "timeout",
        "protocol",
        "truncated",
        "config",
        "invalid_input",
        "newer_schema",
        "backup_failed",
        "migration_failed",
        "not_found",
        "corrupt_data",
        "database",
        "io",
        "skills",
        "invalid_skill",
        "unknown_compute_type",
        "internal",
        "safety",
        "budget",
        "tool_failed",
        "settings",
        "keychain",
        "damaged_database",
        "memory_output",
        "storage",
        "wrong_key",
        "passphrase_needed",
        "no_database_key",
        "in_use",
        "invalid_backup",
        "checksum_mismatch",
        "no_space",
        "cancelled",
        "busy",
    ];
    for kind in old {
        let line = format!(
            r#"{{"run_id":"r1","seq":4,"ts":"2026-01-01T00:00:00Z","type":"error","kind":"{kind}","message":"m"}}"#
        );
        let Event::Error { error } = read(&line) else { panic!("not an error: {line}") };
        assert_eq!(error.kind.as_str(), kind);
    }
    assert_eq!(old.len(), ErrorKind::ALL.len(), "a kind was added: list it above");
}

#[test]
fn old_run_approval_plan_display_safety_and_protocol_lines_still_read() {
    let finished = read(
        r#"{"run_id":"r1","seq":9,"ts":"t","type":"run_finished","stop_reason":"max_tool_calls","usage":{"prompt_tokens":1,"completion_tokens":2,"total_tokens":3},"rounds":4,"tool_calls":8}"#,
    );
    assert!(matches!(finished, Event::RunFinished { stop_reason: StopReason::MaxToolCalls, .. }));

    for (by, source) in [("user", ApprovalSource::User), ("policy", ApprovalSource::Policy)] {
        let line = format!(
            r#"{{"run_id":"r1","seq":5,"ts":"t","type":"approval_resolved","request_id":"a1","approved":false,"by":"{by}"}}"#
        );
        let Event::ApprovalResolved { by, .. } = read(&line) else { panic!("{line}") };
        assert_eq!(by, source);
    }

    let plan = read(
        r#"{"run_id":"r1","seq":3,"ts":"t","type":"plan_updated","plan":{"goal":"g","steps":[{"title":"a","status":"done"},{"title":"b","status":"in_progress"},{"title":"c","status":"skipped"},{"title":"d"}]}}"#,
    );
    let Event::PlanUpdated { plan } = plan else { panic!("not a plan") };
    let statuses: Vec<_> = plan.steps.iter().map(|s| s.status).collect();
    assert_eq!(
        statuses,
        [
            PlanStepStatus::Done,
            PlanStepStatus::InProgress,
            PlanStepStatus::Skipped,
            PlanStepStatus::Pending
        ]
    );

    let display = read(
        r#"{"run_id":"r1","seq":6,"ts":"t","type":"display","kind":"chart","data":{"skill":"bazi"}}"#,
    );
    assert!(matches!(display, Event::Display { kind: DisplayKind::Chart, .. }));

    let notice = read(
        r#"{"run_id":"r1","seq":1,"ts":"t","type":"safety_notice","risk":"concern","category":"self_harm","resources":[],"locale":"generic"}"#,
    );
    assert!(matches!(
        notice,
        Event::SafetyNotice { risk: SafetyRisk::Concern, category: SafetyCategory::SelfHarm, .. }
    ));

    let invitation = read(
        r#"{"run_id":"r1","seq":7,"ts":"t","type":"protocol_invitation","skill":"s","protocol_id":"p","title":"t","description":"d","actions":[{"label":"开始","value":"start"},{"label":"稍后","value":"later"}]}"#,
    );
    let Event::ProtocolInvitation { actions, .. } = invitation else { panic!("not an invitation") };
    let values: Vec<_> = actions.iter().map(|a| a.value).collect();
    assert_eq!(values, [ProtocolChoice::Start, ProtocolChoice::Later]);
}

#[test]
fn an_unknown_kind_is_refused_with_the_known_ones_named() {
    let line = r#"{"type":"error","kind":"gremlins","message":"m"}"#;
    let err = serde_json::from_str::<Event>(line).err().map(|e| e.to_string()).unwrap_or_default();
    assert!(err.contains("gremlins"), "{err}");
}

#[test]
fn state_changed_names_the_skill_or_leaves_it_out_for_the_profile() {
    let skill =
        Event::StateChanged { skill: Some("life_coach".into()), paths: vec!["goals".into()] };
    let v = serde_json::to_value(&skill).unwrap_or_default();
    assert_eq!(
        v,
        serde_json::json!({"type": "state_changed", "skill": "life_coach", "paths": ["goals"]})
    );
    let profile = Event::StateChanged { skill: None, paths: vec!["birth_info".into()] };
    let v = serde_json::to_value(&profile).unwrap_or_default();
    assert_eq!(v, serde_json::json!({"type": "state_changed", "paths": ["birth_info"]}));
    let back: Event = serde_json::from_value(v).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(back, profile);
}
