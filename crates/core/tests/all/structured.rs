//! Runs with a model in structured-action mode (no native tools): a reply still malformed
//! after the repair retry is an error observation and the run goes on; a `plan_update`
//! updates the plan and shows it, as `update_plan` does in native mode.

use std::sync::Arc;

use vibe_llm::{ScriptedModel, StructuredModel};
use vibe_wire::{Event, StopReason};

use crate::harness::{Harness, Options, say};

fn structured(script: &str) -> Harness {
    let inner = ScriptedModel::from_yaml(script, "test script").unwrap();
    let model = StructuredModel::new(Arc::new(inner));
    Harness::new(Arc::new(model), Options::default())
}

fn in_lifecoach(message: &str) -> vibe_agent::chat::TurnRequest {
    let mut request = say(message);
    request.skill = Some("lifecoach".into());
    request
}

#[tokio::test]
async fn a_reply_malformed_after_the_repair_is_an_observation_and_the_run_goes_on() {
    let script = r#"
mode: ordered
responses:
  - text: "我觉得你应该早点睡。"
  - text: "{\"action\": {\"type\": \"fly_away\"}}"
  - text: "{\"action\": {\"type\": \"final_answer\", \"content\": \"早点休息吧。\"}}"
"#;
    let h = structured(script);
    let turn = h.turn(in_lifecoach("我最近总熬夜")).await;
    assert_eq!(turn.result.stop_reason, StopReason::Completed, "{:?}", turn.types());
    assert_eq!(turn.reply(), "早点休息吧。");
    let results = turn.tool_results();
    assert_eq!(results.len(), 1, "{results:?}");
    let (name, result, is_error) = &results[0];
    assert_eq!(name, vibe_llm::UNUSABLE_REPLY);
    assert!(*is_error);
    let message = result["message"].as_str().unwrap();
    assert!(message.contains("neither a tool") && message.contains("JSON object"), "{message}");
    assert!(!turn.types().contains(&"error".to_string()), "{:?}", turn.types());
}

#[tokio::test]
async fn replies_that_stay_unusable_stop_at_the_failure_guard_with_a_closing_answer() {
    let script = r#"
mode: matched
responses:
  - text: "还是随便说说。"
"#;
    let h = structured(script);
    let turn = h.turn(in_lifecoach("帮我想想")).await;
    assert_eq!(turn.result.stop_reason, StopReason::RepeatedToolFailure, "{:?}", turn.types());
    assert!(!turn.reply().is_empty(), "the person still hears something");
}

#[tokio::test]
async fn a_plan_update_updates_the_plan_and_shows_it() {
    let script = r#"
mode: ordered
responses:
  - text: "{\"plan_update\": {\"goal\": \"规划这周\", \"steps\": [{\"title\": \"回顾目标\", \"status\": \"in_progress\"}, {\"title\": \"排日程\", \"status\": \"pending\"}]}, \"action\": {\"type\": \"read_state\", \"arguments\": {}}}"
  - text: "{\"action\": {\"type\": \"final_answer\", \"content\": \"我们先回顾目标。\"}}"
"#;
    let h = structured(script);
    let turn = h.turn(in_lifecoach("帮我规划这周")).await;
    assert_eq!(turn.result.stop_reason, StopReason::Completed, "{:?}", turn.types());
    let plans: Vec<_> = turn
        .events
        .iter()
        .filter_map(|e| match &e.event {
            Event::PlanUpdated { plan } => Some(plan.clone()),
            _ => None,
        })
        .collect();
    assert_eq!(plans.len(), 1, "{:?}", turn.types());
    assert_eq!(plans[0].goal, "规划这周");
    let titles: Vec<_> = plans[0].steps.iter().map(|s| s.title.as_str()).collect();
    assert_eq!(titles, ["回顾目标", "排日程"]);
    let names: Vec<_> = turn.tool_results().into_iter().map(|(n, ..)| n).collect();
    assert_eq!(names, ["read_state", "update_plan"]);
    assert_eq!(turn.reply(), "我们先回顾目标。");
}
