//! `vibe skills compute NAME [--force]`: compute a skill's chart (its SKILL.md `compute_type`)
//! from the profile's `birth_info`, store it at `skills.<NAME>.chart`, print it. Finding the
//! skill is the registry's job (`vibe-skills`), computing and caching is `vibe-core`'s.

#[path = "compute_render.rs"]
mod render;

use anyhow::anyhow;
use clap::Args;
use serde_json::json;
use vibe_charts::ChartError;
use vibe_core::CoreError;
use vibe_core::compute::ensure_chart;
use vibe_skills::Registry;
use vibe_store::LOCAL_USER;

use crate::ctx::Ctx;
use crate::output::print;

#[derive(Debug, Args)]
pub struct ComputeArgs {
    /// Skill whose chart to compute (its SKILL.md declares `compute_type`), e.g. bazi.
    pub name: String,
    /// Recompute even when birth_info has not changed since the stored chart.
    #[arg(long)]
    pub force: bool,
}

/// Computes, stores and prints the chart of `args.name` as found in `registry` (the caller
/// opened it with the roots it was given, e.g. `--skills-dir`).
pub fn run_in(ctx: &Ctx, registry: &Registry, args: ComputeArgs) -> anyhow::Result<()> {
    let compute_type = skill_compute_type(registry, &args.name)?;
    let store = ctx.open_store()?;
    let outcome = ensure_chart(&store, LOCAL_USER, &args.name, &compute_type, args.force)
        .map_err(with_fix_hint)?;
    let value = json!({
        "skill": args.name,
        "compute_type": compute_type,
        "recomputed": outcome.recomputed,
        "path": format!("skills.{}.chart", args.name),
        "chart": outcome.chart,
    });
    print(ctx, &value, || render::render(&args.name, &outcome.chart, outcome.recomputed));
    Ok(())
}

/// The `compute_type` the skill `name` declares in its SKILL.md.
fn skill_compute_type(registry: &Registry, name: &str) -> anyhow::Result<String> {
    let entry = registry.skill(name)?;
    entry.meta.compute_type.map(|t| t.as_str().to_owned()).ok_or_else(|| {
        anyhow!(
            "skill {name} has no chart to compute: its SKILL.md declares no compute_type \
             (charts exist for skills with `compute_type: bazi` or `compute_type: zodiac`)"
        )
    })
}

/// Birth-info errors get the command that fixes them appended.
fn with_fix_hint(err: CoreError) -> anyhow::Error {
    let example = r#"'{"date": "1990-05-17", "time": "08:30", "place": "Beijing", "timezone": "Asia/Shanghai"}'"#;
    match &err {
        CoreError::Chart(ChartError::MissingField { field, .. }) if field == "birth_info" => {
            anyhow!("{err}; set it with `vibe profile set birth_info {example}`")
        }
        CoreError::Chart(
            ChartError::MissingField { field, .. } | ChartError::InvalidField { field, .. },
        ) if field.starts_with("birth_info") => {
            anyhow!("{err} (fix it with `vibe profile set {field} <JSON value>`)")
        }
        _ => anyhow::Error::new(err),
    }
}
