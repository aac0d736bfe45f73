//! `update_plan`: the explicit plan (docs/design.md#the-agent-loop; a goal and steps with a
//! status), validated and handed to the loop as [`Effect::PlanUpdated`], which shows it to the
//! person (`plan_updated`). Keeping the plan in the run state is the loop's job.

use std::sync::OnceLock;

use futures::future::BoxFuture;
use serde_json::{Value, json};
use vibe_llm::ToolDef;
use vibe_wire::{Plan, PlanStep, PlanStepStatus};

use super::args::{ArgError, Args, kind_of};
use super::{Effect, Tool, ToolContext, ToolKind, ToolOutput, builtin_def, tool_def};

/// Statuses a step may have, by name.
fn statuses() -> Vec<&'static str> {
    PlanStepStatus::ALL.iter().map(|s| s.as_str()).collect()
}
const MAX_STEPS: usize = 20;
const MAX_TITLE_CHARS: usize = 200;

pub(crate) struct UpdatePlan;

impl Tool for UpdatePlan {
    fn name(&self) -> &str {
        "update_plan"
    }

    fn kind(&self) -> ToolKind {
        ToolKind::Plan
    }

    fn definition(&self) -> ToolDef {
        static DEF: OnceLock<ToolDef> = OnceLock::new();
        builtin_def(&DEF, || {
            tool_def(
                self.name(),
                "给出或更新本次任务的计划（整体替换），用户能看到。多步任务开始时调用一次，\
                 每完成一步更新状态。status：pending / in_progress / done / skipped。\
                 例：{\"goal\": \"梳理转行方向\", \"steps\": [{\"title\": \"了解现状\", \"status\": \"done\"}, \
                 {\"title\": \"列出选项\", \"status\": \"in_progress\"}]}。一两句话能答完的问题不需要计划；最多 20 步。",
                json!({
                    "type": "object",
                    "properties": {
                        "goal": {"type": "string", "description": "这次要达成什么"},
                        "steps": {
                            "type": "array",
                            "maxItems": MAX_STEPS,
                            "items": {
                                "type": "object",
                                "properties": {
                                    "title": {"type": "string"},
                                    "status": {"type": "string", "enum": statuses()}
                                },
                                "required": ["title", "status"]
                            }
                        }
                    },
                    "required": ["goal", "steps"]
                }),
            )
        })
    }

    fn call<'a>(&'a self, _ctx: &'a ToolContext, args: Value) -> BoxFuture<'a, ToolOutput> {
        Box::pin(async move {
            match parse_plan(&args) {
                Ok(plan) => ToolOutput::with_effect(
                    json!({"status": "success", "plan": plan}),
                    Effect::PlanUpdated(plan),
                ),
                Err(e) => e.into(),
            }
        })
    }
}

/// Validates the arguments into a [`Plan`].
pub(crate) fn parse_plan(args: &Value) -> Result<Plan, ArgError> {
    let a = Args::new("update_plan", args)?;
    let goal = a.text("goal", "\"梳理转行方向\"")?.to_string();
    let example = "[{\"title\": \"了解现状\", \"status\": \"pending\"}]";
    let steps = match a.required("steps", example)? {
        Value::Array(items) => items,
        other => return Err(a.error("steps", format!("expected a list, got {}", kind_of(other)))),
    };
    if steps.len() > MAX_STEPS {
        return Err(a.error(
            "steps",
            format!(
                "{} steps is too many; keep at most {MAX_STEPS} (merge small ones)",
                steps.len()
            ),
        ));
    }
    steps
        .iter()
        .enumerate()
        .map(|(i, step)| parse_step(&a, i, step))
        .collect::<Result<_, _>>()
        .map(|steps| Plan { goal, steps })
}

fn parse_step(a: &Args<'_>, i: usize, step: &Value) -> Result<PlanStep, ArgError> {
    let field = format!("steps[{i}]");
    let Value::Object(map) = step else {
        return Err(a.error(
            &field,
            format!("expected an object {{title, status}}, got {}", kind_of(step)),
        ));
    };
    let title = match map.get("title") {
        Some(Value::String(t)) if !t.trim().is_empty() => t.trim(),
        _ => return Err(a.error(&format!("{field}.title"), "is required: a short non-empty text")),
    };
    if title.chars().count() > MAX_TITLE_CHARS {
        return Err(a.error(
            &format!("{field}.title"),
            format!("is longer than {MAX_TITLE_CHARS} characters; keep step titles short"),
        ));
    }
    let status = match map.get("status") {
        None | Some(Value::Null) => Some(PlanStepStatus::Pending),
        Some(Value::String(s)) => PlanStepStatus::parse(s.trim()),
        Some(_) => None,
    };
    let Some(status) = status else {
        let given = map.get("status").map(Value::to_string).unwrap_or_default();
        return Err(a.error(
            &format!("{field}.status"),
            format!("{given} is not a status; use one of {}", statuses().join(", ")),
        ));
    };
    Ok(PlanStep { title: title.to_string(), status })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_valid_plan_is_kept_as_given() {
        let plan = parse_plan(&json!({
            "goal": "转行",
            "steps": [{"title": "现状", "status": "done"}, {"title": "选项"}]
        }))
        .unwrap();
        assert_eq!(plan.goal, "转行");
        assert_eq!(plan.steps[0].status, PlanStepStatus::Done);
        assert_eq!(plan.steps[1].status, PlanStepStatus::Pending);
    }

    #[test]
    fn bad_steps_are_named_by_index() {
        let e = parse_plan(&json!({"goal": "g", "steps": [{"title": "a", "status": "finished"}]}))
            .unwrap_err();
        assert_eq!(e.field, "steps[0].status");
        assert!(e.message.contains("pending, in_progress, done, skipped"), "{}", e.message);
        let e = parse_plan(&json!({"goal": "g", "steps": [{"status": "done"}]})).unwrap_err();
        assert_eq!(e.field, "steps[0].title");
        let e = parse_plan(&json!({"steps": []})).unwrap_err();
        assert_eq!(e.field, "goal");
    }

    #[test]
    fn too_many_steps_are_refused() {
        let steps: Vec<Value> = (0..21).map(|i| json!({"title": format!("s{i}")})).collect();
        let e = parse_plan(&json!({"goal": "g", "steps": steps})).unwrap_err();
        assert!(e.message.contains("at most 20"), "{}", e.message);
    }
}
