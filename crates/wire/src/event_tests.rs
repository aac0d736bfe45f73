use super::*;

#[test]
fn events_serialise_with_snake_case_type_and_envelope_fields() {
    let env = Envelope {
        run_id: "r1".into(),
        seq: 3,
        ts: "2026-01-01T00:00:00Z".into(),
        event: Event::SkillsChanged {
            changes: vec![SkillsChange {
                name: "bazi".into(),
                change: SkillsChangeKind::Changed,
                problems: vec![],
            }],
        },
    };
    let v = serde_json::to_value(&env).unwrap_or_default();
    assert_eq!(v["type"], "skills_changed");
    assert_eq!(v["run_id"], "r1");
    assert_eq!(v["seq"], 3);
    assert_eq!(v["changes"][0]["name"], "bazi");
    assert_eq!(v["changes"][0]["change"], "changed");
    assert!(v["changes"][0].get("problems").is_none());
    let back: Envelope = serde_json::from_value(v).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(back, env);
}

#[test]
fn run_events_round_trip_with_their_documented_shapes() {
    let events = vec![
        Event::Error { error: ErrorInfo::new(crate::ErrorKind::RateLimited, "slow down") },
        Event::RunFinished {
            stop_reason: StopReason::MaxRounds,
            usage: TokenUsage { prompt_tokens: 1, completion_tokens: 2, total_tokens: 3 },
            rounds: 10,
            tool_calls: 4,
        },
        Event::ModelRequest {
            round: 1,
            phase: Phase::Phase2,
            prompt_tokens: 900,
            sections: vec![SectionTokens { name: "persona".into(), tokens: 300 }],
            tools: vec!["read_state".into()],
            history_messages: 4,
            notices: vec![],
            token_factor: Some(1.25),
            corrected_tokens: Some(1125),
            budget: Some(crate::PromptBudget {
                context_window: 4096,
                prompt_budget: 1843,
                reply_reserve: 1024,
            }),
        },
        Event::Compacted {
            folded_messages: 6,
            summary_tokens: 80,
            summary_by: Some(SummaryBy::Digest),
            fallback_reason: Some("the summarising model call failed".into()),
            usage: Some(TokenUsage { prompt_tokens: 700, completion_tokens: 0, total_tokens: 700 }),
        },
    ];
    for event in events {
        let v = serde_json::to_value(&event).unwrap_or_default();
        let back: Event = serde_json::from_value(v.clone()).unwrap_or_else(|e| panic!("{e}: {v}"));
        assert_eq!(back, event);
    }
    let err = serde_json::to_value(Event::Error {
        error: ErrorInfo::new(crate::ErrorKind::Auth, "bad key"),
    })
    .unwrap_or_default();
    assert_eq!(err, serde_json::json!({"type": "error", "kind": "auth", "message": "bad key"}));
    let fin = serde_json::to_value(Event::RunFinished {
        stop_reason: StopReason::RepeatedToolFailure,
        usage: TokenUsage::default(),
        rounds: 3,
        tool_calls: 3,
    })
    .unwrap_or_default();
    assert_eq!(fin["stop_reason"], "repeated_tool_failure");
    assert_eq!(fin["type"], "run_finished");
}

#[test]
fn protocol_events_carry_the_seed_fields() {
    let progress = Event::ProtocolProgress {
        protocol_id: "dankoe".into(),
        protocol_run_id: "p1".into(),
        step: 2,
        total_steps: 6,
        step_name: "反愿景".into(),
        phase: Some("morning".into()),
        progress: 1.0 / 6.0,
        step_names: vec!["觉察痛点".into(), "反愿景".into()],
        step_names_en: vec!["Feel the pain".into(), "Anti-vision".into()],
    };
    let v = serde_json::to_value(&progress).unwrap_or_default();
    assert_eq!(v["type"], "protocol_progress");
    for key in ["protocol_id", "step", "total_steps", "step_name", "phase", "progress"] {
        assert!(v.get(key).is_some(), "{key} missing in {v}");
    }
    let back: Event = serde_json::from_value(v).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(back, progress);
    let done = Event::ProtocolCompleted {
        protocol_id: "dankoe".into(),
        protocol_run_id: "p1".into(),
        summary: "s".into(),
    };
    assert_eq!(serde_json::to_value(&done).unwrap_or_default()["type"], "protocol_completed");
}

#[test]
fn events_written_before_the_calibration_and_compaction_fields_still_read() {
    let old = r#"{"type":"model_request","round":1,"phase":"phase1","prompt_tokens":900,"sections":[],"tools":[],"history_messages":0}"#;
    let Event::ModelRequest { token_factor, corrected_tokens, .. } =
        serde_json::from_str(old).unwrap_or_else(|e| panic!("{e}"))
    else {
        panic!("not a model request")
    };
    assert_eq!((token_factor, corrected_tokens), (None, None));
    let old = r#"{"type":"compacted","folded_messages":12,"summary_tokens":300}"#;
    let back: Event = serde_json::from_str(old).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        back,
        Event::Compacted {
            folded_messages: 12,
            summary_tokens: 300,
            summary_by: None,
            fallback_reason: None,
            usage: None
        }
    );
}

#[test]
fn a_round_is_written_round_started_and_the_old_turn_started_still_reads() {
    let v = serde_json::to_value(Event::RoundStarted { round: 2 }).unwrap_or_default();
    assert_eq!(v, serde_json::json!({"type": "round_started", "round": 2}));
    let old = r#"{"run_id":"r1","seq":1,"ts":"t","type":"turn_started","round":3}"#;
    let env: Envelope = serde_json::from_str(old).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(env.event, Event::RoundStarted { round: 3 });
}

#[test]
fn safety_notice_is_tagged_and_round_trips() {
    let notice = Event::SafetyNotice {
        risk: SafetyRisk::Acute,
        category: SafetyCategory::Suicide,
        resources: vec![SafetyResource { name: "急救".into(), number: "120".into(), note: None }],
        locale: "zh-CN".into(),
    };
    let v = serde_json::to_value(&notice).unwrap_or_default();
    assert_eq!(v["type"], "safety_notice");
    assert_eq!(v["resources"][0], serde_json::json!({"name": "急救", "number": "120"}));
    let back: Event = serde_json::from_value(v).unwrap_or(Event::SkillsChanged { changes: vec![] });
    assert_eq!(back, notice);
}
