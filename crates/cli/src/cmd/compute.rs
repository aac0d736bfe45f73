//! `vibe skills compute NAME [--force]`: compute a skill's chart (its SKILL.md `compute_type`)
//! from the profile's `birth_info`, store it at `skills.<NAME>.chart`, print it. Finding the
//! skill is the registry's job (`vibe-skills`), computing and caching is the core's
//! (`App::compute_chart`); this file parses and prints.

#[path = "compute_render.rs"]
mod render;

use clap::Args;
use vibe_core::app::App;
use vibe_wire::command::ComputeChartRequest;

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

/// Computes, stores and prints the chart of `args.name` as the app finds it (its skill roots
/// include `--skills-dir`). A missing or wrong birth_info gets its `vibe profile set` hint
/// from `output::message`.
pub fn run(ctx: &Ctx, app: &App, args: ComputeArgs) -> anyhow::Result<()> {
    let request = ComputeChartRequest { skill: args.name, force: args.force };
    let view = app.compute_chart(&request)?;
    print(ctx, &serde_json::to_value(&view)?, || {
        render::render(&view.skill, &view.chart, view.recomputed)
    });
    Ok(())
}
