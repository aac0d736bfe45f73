//! `compute_chart`: a skill's chart (its SKILL.md `compute_type`) from the profile's
//! `birth_info`, stored at `skills.<skill>.chart`.

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// Which chart a skill computes (its SKILL.md `compute_type`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum ChartKind {
    /// Four pillars (八字).
    Bazi,
    /// Sun and moon signs.
    Zodiac,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct ComputeChartRequest {
    pub skill: String,
    /// Recompute even when `birth_info` has not changed since the stored chart.
    #[serde(default)]
    pub force: bool,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct ChartView {
    pub skill: String,
    /// As the SKILL.md declares it.
    pub compute_type: ChartKind,
    /// Computed now (else the stored chart was still current).
    pub recomputed: bool,
    /// Where it is stored in the profile (`skills.bazi.chart`).
    pub path: String,
    pub chart: Value,
}
