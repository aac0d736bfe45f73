//! `compute_chart`: a skill's chart (its SKILL.md `compute_type`) from the profile's
//! `birth_info`, stored at `skills.<skill>.chart` (computing and caching is
//! `vibe_agent::compute`'s; finding the skill the registry's).

use vibe_skills::ComputeType;
use vibe_store::LOCAL_USER;
use vibe_wire::command::{ChartKind, ChartView, ComputeChartRequest};

use vibe_charts::ChartError;

use crate::CoreError;
use crate::app::{App, AppError};
use vibe_agent::compute::ensure_chart;

impl App {
    /// `compute_chart`: the skill is found in the app's registry; its chart is computed
    /// when `birth_info` changed since the stored one (or `force`), else the stored one.
    pub fn compute_chart(&self, request: &ComputeChartRequest) -> Result<ChartView, AppError> {
        let name = &request.skill;
        let entry = self.skills().skill(name)?;
        let compute_type = entry.meta.compute_type.ok_or_else(|| {
            AppError::InvalidInput(format!(
                "skill {name} has no chart to compute: its SKILL.md declares no compute_type \
                 (charts exist for skills with `compute_type: bazi` or `compute_type: zodiac`)"
            ))
        })?;
        let outcome =
            ensure_chart(&self.store, LOCAL_USER, name, compute_type.as_str(), request.force)
                .map_err(birth_info_error)?;
        Ok(ChartView {
            skill: name.clone(),
            compute_type: match compute_type {
                ComputeType::Bazi => ChartKind::Bazi,
                ComputeType::Zodiac => ChartKind::Zodiac,
            },
            recomputed: outcome.recomputed,
            path: format!("skills.{name}.chart"),
            chart: outcome.chart,
        })
    }
}

/// A missing or wrong `birth_info` is an error whose hint is setting it.
fn birth_info_error(err: CoreError) -> AppError {
    match &err {
        CoreError::Chart(
            ChartError::MissingField { field, .. } | ChartError::InvalidField { field, .. },
        ) if field.starts_with("birth_info") => AppError::BirthInfo { field: field.clone(), err },
        _ => AppError::Core(err),
    }
}
