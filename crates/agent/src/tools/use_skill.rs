//! `use_skill` (docs/design.md#same-turn-reload): checks that the skill exists and may be started
//! by the model, checks its requirements (birth information, a computed chart), persists it as the
//! conversation's skill and returns [`Effect::SkillActivated`]. A missing requirement is a
//! `needs_input` observation, not an error. Rebuilding the prompt and emitting `skill_activated`
//! are the loop's; the phase-1 catalog description is the context builder's.

use std::sync::OnceLock;

use futures::future::BoxFuture;
use serde_json::{Value, json};
use vibe_llm::ToolDef;
use vibe_skills::{SkillEntry, SkillMeta};

use super::args::Args;
use super::{
    Effect, Tool, ToolContext, ToolKind, ToolOutput, birth, builtin_def, state_changed, sync_call,
    tool_def,
};
use crate::CoreError;
use crate::compute::ensure_chart;

pub(crate) struct UseSkill;

impl Tool for UseSkill {
    fn name(&self) -> &str {
        "use_skill"
    }

    fn kind(&self) -> ToolKind {
        ToolKind::Skill
    }

    fn definition(&self) -> ToolDef {
        static DEF: OnceLock<ToolDef> = OnceLock::new();
        builtin_def(&DEF, || {
            tool_def(
                self.name(),
                "激活一个专业技能（本轮立即生效，之后的对话沿用）。用户需要专业视角时调用。\
                 例：{\"skill\": \"bazi\"}；可选 scenario 指定场景。返回 needs_input 时按 ask_user 向用户询问，\
                 得到回答后带上 birth_info 再调用一次，如 {\"skill\": \"bazi\", \"birth_info\": \
                 {\"date\": \"1990-05-17\", \"time\": \"08:30\", \"place\": \"成都\", \"timezone\": \"Asia/Shanghai\"}}。\
                 只是闲聊时不要调用。",
                json!({
                    "type": "object",
                    "properties": {
                        "skill": {"type": "string", "description": "技能名"},
                        "scenario": {"type": "string", "description": "场景名，不传用技能默认场景"},
                        "birth_info": birth::schema()
                    },
                    "required": ["skill"]
                }),
            )
        })
    }

    fn call<'a>(&'a self, ctx: &'a ToolContext, args: Value) -> BoxFuture<'a, ToolOutput> {
        Box::pin(sync_call(ctx, args, activate))
    }
}

fn activate(ctx: &ToolContext, args: &Value) -> Result<ToolOutput, ToolOutput> {
    let a = Args::new("use_skill", args)?;
    let name = a.text("skill", "\"bazi\"")?;
    let entry = invocable(ctx, name)?;
    // A skill whose instructions cannot be read is not started: nothing is bound or saved.
    if let Err(e) = ctx.skills.body(name) {
        return Err(ToolOutput::field_error(
            "skill",
            format!("skill `{name}` cannot be loaded ({e}); it was not started: choose another"),
        ));
    }
    let meta = &entry.meta;
    let scenario = match a.opt_text("scenario")? {
        Some(s) => Some(
            ctx.skills
                .scenario(name, s)
                .map_err(|e| ToolOutput::field_error("scenario", e.to_string()))?
                .name
                .clone(),
        ),
        None => meta.default_scenario.clone(),
    };
    let compute_type = meta.compute_type.map(|c| c.as_str());
    let mut saved = None;
    if let Some(patch) = a.get("birth_info") {
        let Value::Object(patch) = patch else {
            return Err(a
                .error("birth_info", "expected an object such as {\"date\": \"1990-05-17\"}")
                .into());
        };
        saved = Some(birth::save(&ctx.store, &ctx.user, patch, compute_type.unwrap_or("zodiac"))?);
        state_changed(&ctx.emitter, None, ["birth_info".to_string()]);
    }
    let mut notes = Vec::new();
    if meta.requires_birth_info || meta.requires_compute {
        let profile = ctx.store.profile(&ctx.user).map_err(|e| ToolOutput::error(e.to_string()))?;
        let info = profile.get("birth_info").cloned().unwrap_or(Value::Null);
        let wants_time = compute_type == Some("bazi") && !birth::has_time(&info);
        let missing = birth::missing(&info);
        if !missing.is_empty() {
            return Ok(birth::needs_input("use_skill", name, missing, wants_time));
        }
        if wants_time {
            notes.push(
                "birth_info.time 缺失：时柱为空，只能解读年、月、日三柱；可以请用户补充出生时间。",
            );
        }
    }
    let mut chart_recomputed = None;
    if meta.requires_compute
        && let Some(compute_type) = compute_type
    {
        let outcome =
            ensure_chart(&ctx.store, &ctx.user, name, compute_type, false).map_err(chart_error)?;
        chart_recomputed = Some(outcome.recomputed);
        if outcome.recomputed {
            state_changed(&ctx.emitter, Some(name), ["chart".to_string()]);
        }
    }
    ctx.store
        .set_conversation_skill(&ctx.conversation_id, Some(name), scenario.as_deref())
        .map_err(|e| ToolOutput::error(e.to_string()))?;
    let mut result = json!({"status": "activated", "skill": name, "scenario": scenario});
    if let Some(recomputed) = chart_recomputed {
        result["chart"] = json!(if recomputed { "computed" } else { "current" });
    }
    if !notes.is_empty() {
        result["notes"] = json!(notes);
    }
    if let Some(ready) = &saved {
        birth::place_notes(ready, &mut result);
    }
    let effect = Effect::SkillActivated { skill: name.to_string(), scenario };
    Ok(ToolOutput::with_effect(result, effect))
}

/// The skill called `name`, when it exists and the model may start it.
fn invocable(ctx: &ToolContext, name: &str) -> Result<SkillEntry, ToolOutput> {
    let known = || -> String {
        let names: Vec<String> = ctx
            .skills
            .skills()
            .into_iter()
            .filter(|s| model_invocable(&s.meta))
            .map(|s| s.name)
            .collect();
        names.join(", ")
    };
    let entry = ctx.skills.skill(name).map_err(|_| {
        ToolOutput::field_error(
            "skill",
            format!("no skill named `{name}`; choose one of: {}", known()),
        )
    })?;
    if !model_invocable(&entry.meta) {
        return Err(ToolOutput::field_error(
            "skill",
            format!(
                "skill `{name}` can only be started by the person (disable-model-invocation); \
                 suggest it to them instead, or choose one of: {}",
                known()
            ),
        ));
    }
    Ok(entry)
}

pub(crate) fn model_invocable(meta: &SkillMeta) -> bool {
    !meta.disable_model_invocation
}

/// A chart failure as an observation naming the profile field at fault.
pub(crate) fn chart_error(e: CoreError) -> ToolOutput {
    if let CoreError::Chart(chart) = &e {
        ToolOutput::field_error(chart.field().unwrap_or("birth_info"), e.to_string())
    } else {
        ToolOutput::error(e.to_string())
    }
}
