//! The three protocol tools (docs/design.md#protocols) — `show_protocol_invitation` (display),
//! `advance_protocol_step`, `cancel_protocol` — as thin handlers over the protocol engine,
//! bound to the active skill. Their rules (validation, completion, events) are the engine's;
//! this file reads arguments, emits the engine's events and shapes the observations. The
//! engine's reads and writes run on the blocking pool (`store_io::off_worker`): a write may
//! wait for another process's lock.

use std::sync::Arc;

use futures::future::BoxFuture;
use serde_json::{Value, json};
use vibe_llm::ToolDef;
use vibe_protocol::{Advance, Clock, Invitation, ProtocolEngine};
use vibe_skills::Protocol;
use vibe_store::ProtocolRun;
use vibe_wire::{ProtocolAction, ProtocolChoice};

use super::args::Args;
use super::{Tool, ToolContext, ToolKind, ToolOutput, active_skill, state_changed, tool_def};
use crate::store_io::off_worker;

pub(crate) struct ShowProtocolInvitation {
    clock: Clock,
}
pub(crate) struct AdvanceProtocolStep {
    clock: Clock,
}
pub(crate) struct CancelProtocol {
    clock: Clock,
}

/// The three handlers on `clock`.
pub(crate) fn protocol_tools(clock: &Clock) -> Vec<Arc<dyn Tool>> {
    vec![
        Arc::new(ShowProtocolInvitation { clock: clock.clone() }),
        Arc::new(AdvanceProtocolStep { clock: clock.clone() }),
        Arc::new(CancelProtocol { clock: clock.clone() }),
    ]
}

fn engine(ctx: &ToolContext, clock: &Clock) -> ProtocolEngine {
    ProtocolEngine::new(ctx.store.clone(), ctx.skills.clone())
        .with_clock(clock.clone())
        .with_user(&ctx.user)
}

fn emit_all(ctx: &ToolContext, events: Vec<vibe_wire::Event>) {
    for e in events {
        ctx.emitter.emit(e);
    }
}

/// `state_changed` for a protocol command: the run's mirror at `protocol` and any paths the
/// completion mapping wrote (given in full, `skills.<skill>.…`).
fn protocol_state_changed(ctx: &ToolContext, skill: &str, written: &[String]) {
    let prefix = format!("skills.{skill}.");
    let written = written.iter().map(|p| p.strip_prefix(&prefix).unwrap_or(p).to_string());
    state_changed(
        &ctx.emitter,
        Some(skill),
        std::iter::once("protocol".to_string()).chain(written),
    );
}

impl Tool for ShowProtocolInvitation {
    fn name(&self) -> &str {
        "show_protocol_invitation"
    }

    fn kind(&self) -> ToolKind {
        ToolKind::Display
    }

    fn definition(&self) -> ToolDef {
        tool_def(
            self.name(),
            "展示协议邀请卡片（开始 / 稍后再说），用户选择后由应用开始协议。\
             例：{\"protocol_id\": \"dankoe\"}（标题、介绍、时长不传则用协议自带的）。",
            json!({
                "type": "object",
                "properties": {
                    "protocol_id": {"type": "string"},
                    "title": {"type": "string"},
                    "description": {"type": "string"},
                    "estimated_time": {"type": "string"},
                    "actions": {
                        "type": "array",
                        "items": {"type": "object"},
                        "description": "[{label, value: start|later}]"
                    }
                },
                "required": ["protocol_id"]
            }),
        )
    }

    fn call<'a>(&'a self, ctx: &'a ToolContext, args: Value) -> BoxFuture<'a, ToolOutput> {
        Box::pin(async move {
            let skill = match active_skill(ctx, self.name()) {
                Ok(s) => s,
                Err(out) => return out,
            };
            let a = match Args::new("show_protocol_invitation", &args) {
                Ok(a) => a,
                Err(e) => return e.into(),
            };
            let parsed = (|| {
                Ok::<_, super::args::ArgError>((
                    a.text("protocol_id", "\"dankoe\"")?,
                    a.opt_text("title")?,
                    a.opt_text("description")?,
                    a.opt_text("estimated_time")?,
                ))
            })();
            let (protocol_id, title, description, estimated_time) = match parsed {
                Ok(p) => p,
                Err(e) => return e.into(),
            };
            let actions = match parse_actions(a.get("actions")) {
                Ok(actions) => actions,
                Err(message) => return ToolOutput::field_error("actions", message),
            };
            let engine = engine(ctx, &self.clock);
            let worker = engine.clone();
            let (owned_skill, protocol_id, conversation_id) =
                (skill.to_string(), protocol_id.to_string(), ctx.conversation_id.clone());
            let (title, description, estimated_time) = (
                title.map(str::to_string),
                description.map(str::to_string),
                estimated_time.map(str::to_string),
            );
            let invited = off_worker(move || {
                worker.invite(&Invitation {
                    skill: Some(&owned_skill),
                    protocol_id: &protocol_id,
                    title: title.as_deref(),
                    description: description.as_deref(),
                    estimated_time: estimated_time.as_deref(),
                    actions,
                    conversation_id: Some(&conversation_id),
                })
            })
            .await;
            let invited = match invited {
                Ok(invited) => invited,
                Err(e) => return ToolOutput::error(e.to_string()),
            };
            match invited {
                Ok(event) => {
                    ctx.emitter.emit(event);
                    state_changed(&ctx.emitter, Some(skill), ["protocol_invitation".to_string()]);
                    ToolOutput::ok(json!({
                        "status": "shown",
                        "message": "邀请已展示。等用户点“开始”或“稍后”，或在下一条消息里明确同意；下一条消息不是同意，这次邀请就失效（之后合适时可以再邀请）。不要重复邀请。"
                    }))
                }
                Err(e) => {
                    let known: Vec<String> = engine
                        .list()
                        .into_iter()
                        .filter(|p| p.skill == skill)
                        .map(|p| p.id)
                        .collect();
                    ToolOutput::field_error(
                        "protocol_id",
                        format!("{e}; protocols of this skill: {}", known.join(", ")),
                    )
                }
            }
        })
    }
}

fn parse_actions(v: Option<&Value>) -> Result<Vec<ProtocolAction>, String> {
    let Some(v) = v.filter(|v| !v.is_null()) else { return Ok(Vec::new()) };
    let Some(items) = v.as_array() else {
        return Err(format!("expected a list of {{label, value}}, got {v}"));
    };
    items
        .iter()
        .map(|i| {
            let label = i.get("label").and_then(Value::as_str).filter(|s| !s.trim().is_empty());
            let value = i.get("value").and_then(Value::as_str).and_then(ProtocolChoice::parse);
            match (label, value) {
                (Some(label), Some(value)) => Ok(ProtocolAction { label: label.to_string(), value }),
                _ => Err(format!(
                    "each action needs a label and a value of start or later, got {i}; e.g. {{\"label\": \"开始\", \"value\": \"start\"}}"
                )),
            }
        })
        .collect()
}

impl Tool for AdvanceProtocolStep {
    fn name(&self) -> &str {
        "advance_protocol_step"
    }

    fn definition(&self) -> ToolDef {
        tool_def(
            self.name(),
            "保存当前步骤收集的字段（用用户原话）并进入下一步。\
             例：{\"step_data\": {\"why_stuck\": \"害怕失败\"}, \"step_summary\": \"一句话总结\"}。\
             字段缺失或类型不对时不前进，错误写明字段。",
            json!({
                "type": "object",
                "properties": {
                    "step_data": {"type": "object"},
                    "step_summary": {"type": "string"}
                },
                "required": ["step_data"]
            }),
        )
    }

    fn call<'a>(&'a self, ctx: &'a ToolContext, args: Value) -> BoxFuture<'a, ToolOutput> {
        Box::pin(async move {
            let skill = match active_skill(ctx, self.name()) {
                Ok(s) => s,
                Err(out) => return out,
            };
            let a = match Args::new("advance_protocol_step", &args) {
                Ok(a) => a,
                Err(e) => return e.into(),
            };
            let step_data = match a.object("step_data", "{\"field\": \"用户的原话\"}") {
                Ok(map) => Value::Object(map.clone()),
                Err(e) => return e.into(),
            };
            let summary = match a.opt_text("step_summary") {
                Ok(s) => s,
                Err(e) => return e.into(),
            };
            let engine = engine(ctx, &self.clock);
            let worker = engine.clone();
            let (owned_skill, summary) = (skill.to_string(), summary.map(str::to_string));
            let advanced =
                off_worker(move || worker.advance(&owned_skill, &step_data, summary.as_deref()))
                    .await;
            let advanced = match advanced {
                Ok(advanced) => advanced,
                Err(e) => return ToolOutput::error(e.to_string()),
            };
            match advanced {
                Ok(Advance::Rejected { step, problems }) => ToolOutput {
                    result: json!({
                        "status": "error",
                        "field": first_field(&problems),
                        "message": format!("step {step} was not saved: {}", problems.join("; ")),
                        "problems": problems,
                    }),
                    is_error: true,
                    effect: None,
                    write: None,
                },
                Ok(Advance::Advanced { run, events }) => {
                    emit_all(ctx, events);
                    protocol_state_changed(ctx, skill, &[]);
                    let next = engine.definition(&run).map(|s| next_step(&s.def, &run));
                    ToolOutput::ok(json!({
                        "status": "success",
                        "saved_step": run.step - 1,
                        "next_step": next.unwrap_or(Value::Null),
                    }))
                }
                Ok(Advance::Completed { run, events, written }) => {
                    emit_all(ctx, events);
                    protocol_state_changed(ctx, skill, &written);
                    ToolOutput::ok(json!({
                        "status": "completed",
                        "protocol_run_id": run.id,
                        "written_to_state": written,
                        "message": "协议完成，结果已写入用户数据。帮用户把产出浓缩成几句话，并告诉他可以导出报告。",
                    }))
                }
                Err(e) => ToolOutput::error(e.to_string()),
            }
        })
    }
}

/// The field named first in `problems` (each names its field in backticks).
fn first_field(problems: &[String]) -> Value {
    problems
        .first()
        .and_then(|p| p.split('`').nth(1))
        .map_or(Value::Null, |f| Value::String(f.to_string()))
}

/// What the model needs to open the next step in the same turn.
fn next_step(def: &Protocol, run: &ProtocolRun) -> Value {
    let Some(step) = def.steps.get(run.step as usize - 1) else { return Value::Null };
    json!({
        "step": run.step,
        "total_steps": run.total_steps,
        "title": step.title,
        "goal": step.goal,
        "opening": step.opening,
        "questions": step.questions,
        "fields": step.fields.iter().map(|f| json!({
            "key": f.key, "type": f.kind, "required": f.required, "description": f.description
        })).collect::<Vec<_>>(),
    })
}

impl Tool for CancelProtocol {
    fn name(&self) -> &str {
        "cancel_protocol"
    }

    fn definition(&self) -> ToolDef {
        tool_def(
            self.name(),
            "取消当前协议，已收集的内容保留。例：{\"reason\": \"今天太累\"}。",
            json!({
                "type": "object",
                "properties": {"reason": {"type": "string"}}
            }),
        )
    }

    fn call<'a>(&'a self, ctx: &'a ToolContext, args: Value) -> BoxFuture<'a, ToolOutput> {
        Box::pin(async move {
            let skill = match active_skill(ctx, self.name()) {
                Ok(s) => s,
                Err(out) => return out,
            };
            let reason =
                match Args::new("cancel_protocol", &args).and_then(|a| a.opt_text("reason")) {
                    Ok(r) => r,
                    Err(e) => return e.into(),
                };
            let worker = engine(ctx, &self.clock);
            let (owned_skill, reason) = (skill.to_string(), reason.map(str::to_string));
            let cancelled =
                off_worker(move || worker.cancel(Some(&owned_skill), None, reason.as_deref()))
                    .await;
            let cancelled = match cancelled {
                Ok(cancelled) => cancelled,
                Err(e) => return ToolOutput::error(e.to_string()),
            };
            match cancelled {
                Ok((run, events)) => {
                    emit_all(ctx, events);
                    protocol_state_changed(ctx, skill, &[]);
                    ToolOutput::ok(json!({
                        "status": "cancelled",
                        "protocol_run_id": run.id,
                        "kept_steps": run.data.as_object().map_or(0, |m| m.len()),
                    }))
                }
                Err(e) => ToolOutput::error(e.to_string()),
            }
        })
    }
}
