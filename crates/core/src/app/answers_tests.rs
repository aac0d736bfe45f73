//! A run's answers read through the built-in weekly review's definition.

use std::path::PathBuf;

use serde_json::json;
use vibe_skills::parse_protocol_def;
use vibe_store::{LOCAL_USER, ProtocolStatus};

use super::*;

fn weekly_review() -> Protocol {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../skills/lifecoach/protocols/weekly_review.yaml");
    let text = std::fs::read_to_string(&path).unwrap();
    parse_protocol_def(&path, &text).0.unwrap()
}

fn run(data: Value) -> ProtocolRun {
    ProtocolRun {
        id: "r1".into(),
        user_id: LOCAL_USER.into(),
        skill: "lifecoach".into(),
        protocol_id: "weekly_review".into(),
        protocol_version: 1,
        status: ProtocolStatus::Active,
        step: 3,
        total_steps: 4,
        data,
        summaries: json!({}),
        conversation_id: None,
        model: None,
        cancel_reason: None,
        started_at: "2026-03-01T09:00:00Z".into(),
        last_activity_at: "2026-03-01T09:10:00Z".into(),
        completed_at: None,
    }
}

#[test]
fn answers_follow_the_steps_with_their_titles_and_the_labels_for_the_person() {
    let def = weekly_review();
    let r = run(json!({
        "step_1": {"wins": ["跑了三次步", "读完一本书"]},
        "step_2": {
            "recurring_obstacle": "晚上刷手机",
            "energy_pattern": "上午最好",
            "_reminders": {"20:00": "还行"}
        }
    }));
    let answers = step_answers(Some(&def), &r);
    assert_eq!(answers.len(), 2, "step 3 and 4 have nothing recorded: left out");
    assert_eq!(answers[0].step, 1);
    assert_eq!(answers[0].title, "看见进步");
    assert_eq!(
        answers[0].fields,
        vec![FieldAnswer {
            key: "wins".into(),
            label: "这一周做成的事".into(),
            label_en: Some("What you got done this week".into()),
            text: "跑了三次步\n读完一本书".into(),
        }],
        "a list is one item per line"
    );
    let keys: Vec<&str> = answers[1].fields.iter().map(|f| f.key.as_str()).collect();
    assert_eq!(keys, ["energy_pattern", "recurring_obstacle"], "the definition's order");
    assert_eq!(answers[1].fields[0].label, "能量高低的规律");

    // A field without a label for the person shows what it asks for (its description).
    let mut bare = def.clone();
    bare.steps[0].fields[0].label = None;
    let answers = step_answers(Some(&bare), &r);
    assert_eq!(answers[0].fields[0].label, bare.steps[0].fields[0].description);
    assert_eq!(answers[0].fields[0].label_en, None);
}

#[test]
fn every_built_in_protocol_field_has_a_label_for_the_person_in_both_languages() {
    // The descriptions are written for the coach ("用户……"); the completion card and the
    // report show the person a label instead.
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../skills");
    let mut seen = 0;
    for skill in std::fs::read_dir(&dir).unwrap() {
        let protocols = skill.unwrap().path().join("protocols");
        let Ok(files) = std::fs::read_dir(&protocols) else { continue };
        for file in files {
            let path = file.unwrap().path();
            let text = std::fs::read_to_string(&path).unwrap();
            let def = parse_protocol_def(&path, &text).0.unwrap();
            for field in def.steps.iter().flat_map(|s| &s.fields) {
                let label = field.label.as_ref().unwrap_or_else(|| {
                    panic!("{}: field {} has no label for the person", path.display(), field.key)
                });
                assert!(
                    !label.zh.contains("用户"),
                    "{}: {} speaks of 用户",
                    path.display(),
                    field.key
                );
                assert!(
                    label.en.is_some(),
                    "{}: {} has no English label",
                    path.display(),
                    field.key
                );
                seen += 1;
            }
        }
    }
    assert!(seen >= 29, "{seen} fields");
}

#[test]
fn undeclared_keys_other_values_and_a_missing_definition() {
    let def = weekly_review();
    let r = run(json!({
        "step_1": {"wins": [], "old_field": 3, "flag": true},
        "step_2": {"_reminders": {"20:00": "x"}},
        "step_7": {"note": "  "}
    }));
    let answers = step_answers(Some(&def), &r);
    assert_eq!(answers.len(), 1, "empty lists, reminders and blank text are not answers");
    let fields: Vec<(&str, &str, &str)> = answers[0]
        .fields
        .iter()
        .map(|f| (f.key.as_str(), f.label.as_str(), f.text.as_str()))
        .collect();
    assert_eq!(fields, [("old_field", "old_field", "3"), ("flag", "flag", "true")], "as recorded");

    let r = run(json!({"step_2": {"energy_pattern": "上午"}}));
    let answers = step_answers(None, &r);
    assert_eq!(answers.len(), 1);
    assert_eq!((answers[0].step, answers[0].title.as_str()), (2, ""));
    assert_eq!(answers[0].fields[0].label, "energy_pattern");
    assert!(step_answers(Some(&def), &run(json!({}))).is_empty());
}
