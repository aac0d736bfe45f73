//! The chart tools of the built-in skills: `compute_chart` (the active skill's
//! `compute_type`, through [`crate::compute::ensure_chart`], optionally saving new birth
//! information first) and `show_chart` (display only: emits the stored chart as a `display`
//! event for the UI). Chart rules are `vibe-charts`'; storing and staleness are `compute`'s.

use futures::future::BoxFuture;
use serde_json::{Value, json};
use vibe_llm::ToolDef;
use vibe_wire::Event;

use super::args::Args;
use super::use_skill::chart_error;
use super::{
    Tool, ToolContext, ToolKind, ToolOutput, active_skill, birth, state_changed, sync_call,
    tool_def,
};
use crate::compute::ensure_chart;

pub(crate) struct ComputeChart;
pub(crate) struct ShowChart;

impl Tool for ComputeChart {
    fn name(&self) -> &str {
        "compute_chart"
    }

    fn kind(&self) -> ToolKind {
        ToolKind::Compute
    }

    fn definition(&self) -> ToolDef {
        tool_def(
            self.name(),
            "按用户的出生信息计算当前技能的命盘（如八字四柱、星座），存入用户数据并返回。\
             命盘已是最新时直接返回，不会重复计算。用户给出或更正了出生信息时，把它放进 birth_info，\
             例：{\"birth_info\": {\"time\": \"08:30\"}}（只传变化的字段）。\
             不要自己推算干支或星座，一律以本工具结果为准。缺出生信息时返回 needs_input。",
            json!({
                "type": "object",
                "properties": {"birth_info": birth::schema()}
            }),
        )
    }

    fn call<'a>(&'a self, ctx: &'a ToolContext, args: Value) -> BoxFuture<'a, ToolOutput> {
        Box::pin(sync_call(ctx, args, compute))
    }
}

fn compute(ctx: &ToolContext, args: &Value) -> Result<ToolOutput, ToolOutput> {
    let skill = active_skill(ctx, "compute_chart")?;
    let entry = ctx.skills.skill(skill).map_err(|e| ToolOutput::error(e.to_string()))?;
    let Some(compute_type) = entry.meta.compute_type.map(|c| c.as_str()) else {
        return Err(ToolOutput::error(format!(
            "skill `{skill}` has no chart to compute (its SKILL.md sets no compute_type)"
        )));
    };
    let a = Args::new("compute_chart", args)?;
    let mut saved = None;
    if let Some(patch) = a.get("birth_info") {
        let Value::Object(patch) = patch else {
            return Err(a
                .error("birth_info", "expected an object such as {\"time\": \"08:30\"}")
                .into());
        };
        saved = Some(birth::save(&ctx.store, &ctx.user, patch, compute_type)?);
        state_changed(&ctx.emitter, None, ["birth_info".to_string()]);
    }
    let profile = ctx.store.profile(&ctx.user).map_err(|e| ToolOutput::error(e.to_string()))?;
    let info = profile.get("birth_info").cloned().unwrap_or(Value::Null);
    let missing = birth::missing(&info);
    if !missing.is_empty() {
        let wants_time = compute_type == "bazi" && !birth::has_time(&info);
        return Ok(birth::needs_input("compute_chart", skill, missing, wants_time));
    }
    let outcome =
        ensure_chart(&ctx.store, &ctx.user, skill, compute_type, false).map_err(chart_error)?;
    if outcome.recomputed {
        state_changed(&ctx.emitter, Some(skill), ["chart".to_string()]);
    }
    let mut out = json!({
        "status": "success",
        "skill_id": skill,
        "recomputed": outcome.recomputed,
        "chart": outcome.chart,
    });
    if let Some(ready) = &saved {
        birth::place_notes(ready, &mut out);
    }
    Ok(ToolOutput::ok(out))
}

impl Tool for ShowChart {
    fn name(&self) -> &str {
        "show_chart"
    }

    fn changes_state(&self) -> bool {
        false
    }

    fn kind(&self) -> ToolKind {
        ToolKind::Display
    }

    fn definition(&self) -> ToolDef {
        tool_def(
            self.name(),
            "把当前技能已算好的命盘以图表形式展示给用户（只展示，不改数据）。用户想“看看命盘”时调用。\
             例：{}。还没有命盘时会报错，先调用 compute_chart。展示后用文字解读要点即可，不必逐项复述。",
            json!({"type": "object", "properties": {}}),
        )
    }

    fn call<'a>(&'a self, ctx: &'a ToolContext, _args: Value) -> BoxFuture<'a, ToolOutput> {
        Box::pin(sync_call(ctx, Value::Null, |ctx, _| show(ctx)))
    }
}

fn show(ctx: &ToolContext) -> Result<ToolOutput, ToolOutput> {
    let skill = active_skill(ctx, "show_chart")?;
    let read = ctx
        .store
        .read_state(&ctx.user, skill, Some(&["chart".to_string()]))
        .map_err(|e| ToolOutput::error(e.to_string()))?;
    let chart = read.data.get("chart").filter(|c| !c.is_null()).cloned().ok_or_else(|| {
        ToolOutput::error(format!(
            "no chart is stored for skill `{skill}` yet: call compute_chart first, then show_chart"
        ))
    })?;
    ctx.emitter.emit(Event::Display {
        kind: vibe_wire::DisplayKind::Chart,
        data: json!({"skill": skill, "chart": chart}),
    });
    Ok(ToolOutput::ok(json!({"status": "shown", "kind": "chart", "skill_id": skill})))
}
