//! `flag_wellbeing_concern`: the coach model's own judgement of wellbeing risk (layer 2 of
//! docs/safety.md), offered in every phase. When the model calls it, the person's message of
//! this turn takes the same path as a risk the deterministic screen found
//! (`crate::wellbeing`: marked out of memory, `safety_notice` with the resources of the
//! person's language, protocol paused), and the observation tells the model how to answer.
//! Deciding what counts as risk is the model's (and the screen's), not this file's.

use std::sync::OnceLock;

use futures::future::BoxFuture;
use serde_json::{Value, json};
use vibe_llm::ToolDef;
use vibe_protocol::{ProtocolEngine, system_clock};
use vibe_wire::{SafetyCategory, SafetyRisk};

use super::args::Args;
use super::{Tool, ToolContext, ToolOutput, builtin_def, tool_def};
use crate::store_io::blocking;
use crate::wellbeing::{self, Found, Place};

/// The tool's name: the context module's, whose phase-1 prompt offers the tool by it.
pub use vibe_context::FLAG_WELLBEING_CONCERN;

pub(crate) struct FlagWellbeingConcern;

impl Tool for FlagWellbeingConcern {
    fn name(&self) -> &str {
        FLAG_WELLBEING_CONCERN
    }

    fn definition(&self) -> ToolDef {
        static DEF: OnceLock<ToolDef> = OnceLock::new();
        builtin_def(&DEF, || {
            let categories: Vec<&str> = SafetyCategory::ALL.iter().map(|c| c.as_str()).collect();
            tool_def(
                FLAG_WELLBEING_CONCERN,
                "用户的话表明可能伤害自己或他人、正遭受虐待或医疗紧急（含蓄的说法也算）时调用：应用会立刻展示求助资源、\
                 暂停进行中的流程。level：concern（风险迹象）或 acute（此刻危险：打算、计划、正在发生）。\
                 例：{\"level\": \"concern\", \"category\": \"suicide\", \"reason\": \"说想睡过去不再醒来\"}。",
                json!({
                    "type": "object",
                    "properties": {
                        "level": {"type": "string", "enum": ["concern", "acute"]},
                        "category": {"type": "string", "enum": categories},
                        "reason": {"type": "string", "description": "一句话：哪句话让你担心"}
                    },
                    "required": ["level", "category", "reason"]
                }),
            )
        })
    }

    fn call<'a>(&'a self, ctx: &'a ToolContext, args: Value) -> BoxFuture<'a, ToolOutput> {
        Box::pin(async move {
            let (risk, category) = match read_flag(&args) {
                Ok(read) => read,
                Err(out) => return out,
            };
            let conversation = ctx.conversation_id.clone();
            let last = blocking(&ctx.store, move |s| {
                let Some(message) = s.last_user_message(&conversation)? else {
                    return Ok(None);
                };
                Ok(Some((message.id, message.safety)))
            })
            .await;
            let (message_id, marked) = match last {
                Ok(Some(last)) => last,
                Ok(None) => {
                    return ToolOutput::error(
                        "this conversation has no message of the person to flag",
                    );
                }
                Err(e) => return ToolOutput::error(e.to_string()),
            };
            if marked.is_some_and(|m| rank(m.risk) >= rank(risk)) {
                return ToolOutput::ok(json!({
                    "status": "already_shown",
                    "message": "这条消息的安全提示和求助资源已经展示给用户，流程已暂停。现在按“安全优先”的方式回应用户，不要再调用本工具。",
                }));
            }
            // The system clock stamps the pause, like the protocol tools' default.
            let protocols = ProtocolEngine::new(ctx.store.clone(), ctx.skills.clone())
                .with_clock(system_clock())
                .with_user(&ctx.user);
            let place = Place {
                store: &ctx.store,
                user: &ctx.user,
                skill: ctx.active_skill.as_deref(),
                protocols,
                emitter: &ctx.emitter,
                language: ctx.language.as_deref(),
            };
            let contacts = wellbeing::act(place, Found { message_id, risk, category }).await;
            ToolOutput::ok(json!({
                "status": "flagged",
                "level": risk.as_str(),
                "category": category.as_str(),
                "message": "已向用户展示求助资源，进行中的流程已暂停，这条消息不会进入记忆。现在就这样回应：",
                "guidance": wellbeing::support_prompt(&contacts),
            }))
        })
    }
}

/// `level` and `category` of a call, each checked against its closed set (`reason` is for
/// the audit). Also how `vibe safety check --model FILE` reads a model's call.
pub fn read_flag(args: &Value) -> Result<(SafetyRisk, SafetyCategory), ToolOutput> {
    let a = Args::new("flag_wellbeing_concern", args)?;
    let level = a.text("level", "\"concern\"")?;
    let risk = SafetyRisk::parse(level)
        .ok_or_else(|| a.error("level", format!("\"{level}\" is not concern or acute")))?;
    let category = a.text("category", "\"suicide\"")?;
    let category = SafetyCategory::parse(category).ok_or_else(|| {
        let known: Vec<&str> = SafetyCategory::ALL.iter().map(|c| c.as_str()).collect();
        a.error("category", format!("\"{category}\" is not one of {}", known.join(", ")))
    })?;
    a.text("reason", "\"说想睡过去不再醒来\"")?;
    Ok((risk, category))
}

fn rank(risk: SafetyRisk) -> u8 {
    match risk {
        SafetyRisk::Concern => 1,
        SafetyRisk::Acute => 2,
    }
}
