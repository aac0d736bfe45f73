//! The calls of one round: those that change state run in the order the model gave them,
//! each result is stored the moment it completes, and a cancel closes only the calls that had
//! not finished.

use std::path::Path;
use std::sync::Arc;

use tokio_util::sync::CancellationToken;
use vibe_agent::agent::ApprovalPolicy;
use vibe_runlog::emit::{CollectSink, EventSink};
use vibe_store::Role;
use vibe_wire::{Envelope, Event, StopReason};

use crate::harness::{Harness, Options, say};

/// A project skill folder holding `ordered`: write_state and run_script, with `scripts`.
fn skill(root: &Path, scripts: &[(&str, &str)]) {
    let dir = root.join("ordered");
    std::fs::create_dir_all(dir.join("scripts")).unwrap();
    std::fs::write(
        dir.join("SKILL.md"),
        "---\nname: ordered\ndescription: A test skill whose tools change state.\n---\nDo it.\n",
    )
    .unwrap();
    std::fs::write(dir.join("tools.yaml"), "tools:\n  - write_state\n  - run_script\n").unwrap();
    for (name, text) in scripts {
        std::fs::write(dir.join("scripts").join(name), text).unwrap();
    }
}

fn harness(root: &Path, script: &str) -> Harness {
    let model = vibe_llm::ScriptedModel::from_yaml(script, "test script").unwrap();
    let options = Options { project_skills: Some(root.to_path_buf()), ..Options::default() };
    Harness::new(Arc::new(model), options)
}

#[tokio::test]
async fn calls_that_change_state_run_in_the_order_the_model_gave_them() {
    let root = tempfile::tempdir().unwrap();
    // The first script is the slower one: run side by side, the second would finish first.
    // (Scripts are sandboxed and cannot write a shared file: each prints when it finished.)
    skill(root.path(), &[("first.sh", "sleep 1\ndate +%s%N\n"), ("second.sh", "date +%s%N\n")]);
    let script = r#"
mode: ordered
responses:
  - tool_calls:
      - {name: run_script, arguments: {script: first.sh}}
      - {name: run_script, arguments: {script: second.sh}}
  - text: "都跑完了。"
"#;
    let h = harness(root.path(), script);
    let mut request = say("按顺序跑两个脚本");
    request.skill = Some("ordered".into());
    let turn = h.turn_with(request, Arc::new(ApprovalPolicy::ApproveAll)).await;
    assert_eq!(turn.result.stop_reason, StopReason::Completed, "{:?}", turn.types());
    let finished = |script: &str| -> u128 {
        turn.events
            .iter()
            .find_map(|e| match &e.event {
                Event::ToolResult { name, result, .. }
                    if name == "run_script" && result["script"] == script =>
                {
                    result["stdout"].as_str()?.trim().parse().ok()
                }
                _ => None,
            })
            .unwrap_or_else(|| panic!("no result of {script}: {:?}", turn.types()))
    };
    let (first, second) = (finished("scripts/first.sh"), finished("scripts/second.sh"));
    assert!(first <= second, "the second script finished first: {first} > {second}");
}

/// Cancels the run when a result of `tool` is shown.
struct CancelAfter {
    tool: &'static str,
    cancel: CancellationToken,
    seen: CollectSink,
}

impl EventSink for CancelAfter {
    fn send(&self, envelope: &Envelope) {
        self.seen.send(envelope);
        if let Event::ToolResult { name, .. } = &envelope.event
            && name == self.tool
        {
            self.cancel.cancel();
        }
    }
}

#[tokio::test]
async fn a_cancel_keeps_the_results_of_finished_calls_and_closes_only_the_others() {
    let root = tempfile::tempdir().unwrap();
    skill(root.path(), &[("slow.sh", "sleep 30\necho late\n")]);
    let script = r#"
mode: ordered
responses:
  - tool_calls:
      - {name: write_state, arguments: {section: goals, data: {week: 3}}}
      - {name: run_script, arguments: {script: slow.sh}}
  - text: "不该走到这里。"
"#;
    let h = harness(root.path(), script);
    let cancel = CancellationToken::new();
    let sink = Arc::new(CancelAfter {
        tool: "write_state",
        cancel: cancel.clone(),
        seen: CollectSink::default(),
    });
    let mut request = say("记下目标再跑脚本");
    request.skill = Some("ordered".into());
    let sinks: Vec<Arc<dyn EventSink>> = vec![sink.clone()];
    let result = h
        .service
        .run_turn(request, sinks, Arc::new(ApprovalPolicy::ApproveAll), cancel)
        .await
        .unwrap();
    assert_eq!(result.stop_reason, StopReason::Cancelled);

    let messages = h.store.messages(&result.conversation_id).unwrap();
    let tools: Vec<_> = messages.iter().filter(|m| m.role == Role::Tool).collect();
    assert_eq!(tools.len(), 2, "every call is answered: {messages:?}");
    let written: serde_json::Value = serde_json::from_str(&tools[0].content).unwrap();
    assert_eq!(written["status"], "success", "the finished call keeps its real result");
    assert!(!tools[0].interrupted);
    assert!(tools[1].content.contains("cancelled") && tools[1].interrupted, "{:?}", tools[1]);
    assert_eq!(h.profile()["skills"]["ordered"]["goals"]["week"], 3);
}
