use std::path::Path;

use super::*;

const SMALL: &str = "\
id: evening
version: 1
title: 晚间复盘
description: 三个问题结束一天。
principles: [只问不答]
steps:
  - id: wins
    title: 今天的收获
    goal: 看见做成的事
    opening: 今天做成了什么？
    fields:
      - {key: wins, type: list, description: 做成的事}
    done_when: 至少一件
  - id: tomorrow
    title: 明天
    goal: 定下明天最重要的一件事
    opening: 明天最重要的一件事是什么？
    fields:
      - {key: one_thing, type: text, description: 明天最重要的事}
      - {key: energy, type: number, description: 精力 1-10, required: false}
    done_when: 说出了一件具体的事
    reminders:
      - {at: \"21:00\", question: 明天的那件事准备好了吗？}
completion:
  goals:
    tomorrow: tomorrow.one_thing
report:
  title: 晚间复盘
  sections:
    - {title: 收获, from: [wins.wins]}
";

fn check(text: &str) -> (Option<Protocol>, Vec<String>) {
    let (p, problems) = parse_protocol_def(Path::new("s/protocols/evening.yaml"), text);
    (p, problems.iter().map(ToString::to_string).collect())
}

#[test]
fn a_valid_protocol_parses_into_steps_fields_and_targets() {
    let (p, problems) = check(SMALL);
    assert!(problems.is_empty(), "{problems:?}");
    let p = p.unwrap();
    assert_eq!(p.steps.len(), 2);
    assert!(!p.steps[1].fields[1].required);
    assert!(p.steps[0].fields[0].required, "required defaults to true");
    assert_eq!(p.steps[1].reminders[0].minute_of_day(), 21 * 60);
    let targets = p.completion_targets();
    assert_eq!(targets[0].path, vec!["goals", "tomorrow"]);
    assert_eq!(targets[0].from, "tomorrow.one_thing");
}

#[test]
fn schema_errors_point_at_the_offending_line() {
    let text = SMALL.replace("type: list", "type: lists");
    let (p, problems) = check(&text);
    assert!(p.is_none());
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert_eq!(
        problems[0],
        "s/protocols/evening.yaml:12:27: steps[0].fields[0].type must be one of text, list, number, boolean, found \"lists\""
    );
}

#[test]
fn unknown_and_missing_fields_are_named() {
    let text = SMALL.replace("    opening: 今天做成了什么？\n", "    prompt: 今天做成了什么？\n");
    let (_, problems) = check(&text);
    assert_eq!(
        problems,
        vec![
            "s/protocols/evening.yaml:7:5: steps[0] is missing `opening`",
            "s/protocols/evening.yaml:10:5: unknown field `prompt` in steps[0] (see docs/protocols.md)",
        ]
    );
}

#[test]
fn bad_reminder_times_are_refused() {
    let (_, problems) = check(&SMALL.replace("\"21:00\"", "\"25:00\""));
    assert_eq!(
        problems,
        vec![
            "s/protocols/evening.yaml:23:14: steps[1].reminders[0].at must be a time of day HH:MM (00:00–23:59), found \"25:00\""
        ]
    );
}

#[test]
fn references_must_name_declared_fields_and_ids_must_match_the_file() {
    let text = SMALL.replace("tomorrow: tomorrow.one_thing", "tomorrow: tomorrow.two_things");
    let (p, problems) = check(&text);
    assert!(p.is_none());
    assert_eq!(
        problems,
        vec![
            "s/protocols/evening.yaml:26:15: `tomorrow.two_things` names no field (write step_id.field_key of a declared field)"
        ]
    );
    let (_, problems) = check(&SMALL.replace("id: evening", "id: morning"));
    assert_eq!(
        problems,
        vec![
            "s/protocols/evening.yaml:1:5: id `morning` must equal the file name `evening` (rename one of them)"
        ]
    );
}

#[test]
fn duplicate_steps_and_fields_are_errors() {
    let text = SMALL.replace("  - id: tomorrow\n", "  - id: wins\n");
    let (_, problems) = check(&text);
    assert!(problems.iter().any(|p| p.contains("step id `wins` is used twice")), "{problems:?}");
}

#[test]
fn syntax_errors_keep_their_position() {
    let (p, problems) = check("id: x\nsteps: [\n");
    assert!(p.is_none());
    assert!(problems[0].starts_with("s/protocols/evening.yaml:3:"), "{problems:?}");
}

#[test]
fn the_committed_schema_is_a_valid_json_schema() {
    let schema: serde_json::Value = serde_json::from_str(PROTOCOL_SCHEMA).unwrap();
    jsonschema::draft202012::meta::validate(&schema).unwrap();
}
