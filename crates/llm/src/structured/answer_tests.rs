//! Tests of the structured answer parser (`answer.rs`).

use super::*;

fn run(chunks: &[&str]) -> (Vec<Delta>, Result<(), String>) {
    let mut p = AnswerParser::new(vec!["get_weather".into()], "call_0".into()).unwrap();
    let mut out = Vec::new();
    for c in chunks {
        if let Err(e) = p.feed(c, &mut out) {
            return (out, Err(e));
        }
    }
    let r = p.finish(&mut out);
    (out, r)
}

#[test]
fn final_answer_streams_as_text_deltas() {
    let (out, r) =
        run(&["{\"action\": {\"type\": \"final_", "answer\", \"content\": \"Hel", "lo\"}}"]);
    assert_eq!(r, Ok(()));
    assert_eq!(
        out,
        vec![
            Delta::Text { text: "Hel".into() },
            Delta::Text { text: "lo".into() },
            Delta::Finish { reason: Some("stop".into()) },
        ]
    );
}

#[test]
fn content_before_type_is_held_until_the_type_is_known() {
    let (out, _) = run(&["{\"action\": {\"content\": \"Hi\", \"type\": \"final_answer\"}}"]);
    assert_eq!(out[0], Delta::Text { text: "Hi".into() });
}

#[test]
fn a_tool_call_is_reported_as_soon_as_its_type_is_known() {
    let mut p = AnswerParser::new(vec!["get_weather".into()], "call_3".into()).unwrap();
    let mut out = Vec::new();
    p.feed("```json\n{\"action\": {\"type\": \"get_weather\", \"argu", &mut out).unwrap();
    assert_eq!(
        out,
        vec![Delta::ToolCallStart { index: 0, id: "call_3".into(), name: "get_weather".into() }]
    );
    p.feed("ments\": {\"city\": \"Berlin\"}}}\n```", &mut out).unwrap();
    p.finish(&mut out).unwrap();
    assert_eq!(out[1], Delta::ToolCallArgs { index: 0, fragment: "{\"city\":\"Berlin\"}".into() });
    assert_eq!(out[2], Delta::Finish { reason: Some("tool_calls".into()) });
}

#[test]
fn think_blocks_become_reasoning_and_inline_arguments_are_accepted() {
    let (out, r) = run(&[
        "<think>need {weather}",
        "</think>\n{\"action\": {\"type\": \"get_weather\", \"city\": \"Oslo\"}}",
    ]);
    assert_eq!(r, Ok(()));
    assert_eq!(out[0], Delta::Reasoning { text: "need {weather}".into() });
    assert!(
        out.contains(&Delta::ToolCallArgs { index: 0, fragment: "{\"city\":\"Oslo\"}".into() })
    );
}

fn with_plan(chunks: &[&str]) -> (Vec<Delta>, Result<(), String>) {
    let tools = vec!["get_weather".into(), PLAN_TOOL.into()];
    let mut p = AnswerParser::new(tools, "call_2".into()).unwrap();
    let mut out = Vec::new();
    for c in chunks {
        p.feed(c, &mut out).unwrap();
    }
    let r = p.finish(&mut out);
    (out, r)
}

#[test]
fn a_plan_update_becomes_an_update_plan_call_after_the_action() {
    let plan = r#"{"goal":"出门","steps":[{"title":"看天气","status":"in_progress"}]}"#;
    let (out, r) = with_plan(&[&format!(
        "{{\"plan_update\": {plan}, \"action\": {{\"type\": \"get_weather\", \"arguments\": {{\"city\": \"Oslo\"}}}}}}"
    )]);
    assert_eq!(r, Ok(()));
    assert_eq!(
        out[2..],
        [
            Delta::ToolCallStart { index: 1, id: "call_2_plan".into(), name: "update_plan".into() },
            Delta::ToolCallArgs { index: 1, fragment: plan.into() },
            Delta::Finish { reason: Some("tool_calls".into()) },
        ]
    );

    let (out, r) = with_plan(&[&format!(
        "{{\"plan_update\": {plan}, \"action\": {{\"type\": \"final_answer\", \"content\": \"走吧\"}}}}"
    )]);
    assert_eq!(r, Ok(()));
    assert_eq!(out[0], Delta::Text { text: "走吧".into() });
    assert_eq!(
        out[1],
        Delta::ToolCallStart { index: 0, id: "call_2_plan".into(), name: "update_plan".into() }
    );

    // Without update_plan on offer, a plan update is ignored.
    let (out, _) = run(&[&format!(
        "{{\"plan_update\": {plan}, \"action\": {{\"type\": \"final_answer\", \"content\": \"走吧\"}}}}"
    )]);
    assert_eq!(out.last(), Some(&Delta::Finish { reason: Some("stop".into()) }));
    assert!(
        with_plan(&[
            "{\"plan_update\": 3, \"action\": {\"type\": \"final_answer\", \"content\": \"x\"}}"
        ])
        .1
        .is_err()
    );
}

#[test]
fn malformed_answers_say_what_is_wrong() {
    assert!(run(&["Sure, it is sunny."]).1.unwrap_err().contains("no JSON object"));
    assert!(
        run(&["{\"action\": {\"type\": \"final_answer\", \"content\": \"cut"])
            .1
            .unwrap_err()
            .contains("incomplete")
    );
    assert!(run(&["{\"action\": {\"type\": \"fly\"}}"]).1.unwrap_err().contains("neither a tool"));
    assert!(run(&["{\"answer\": 1}"]).1.unwrap_err().contains("no \"action\""));
    assert!(
        run(&["{\"action\": {\"type\": \"final_answer\" \"content\": 1}}"])
            .1
            .unwrap_err()
            .contains("not valid JSON")
    );
}
