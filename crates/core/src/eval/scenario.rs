//! The scenario file format (YAML), documented in docs/evals.md.

use std::collections::BTreeMap;
use std::path::Path;

use serde::Deserialize;
use serde_json::Value;

use crate::CoreError;
use vibe_agent::agent::Budgets;

/// A whole scenario.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Scenario {
    pub name: String,
    #[serde(default)]
    pub description: String,
    /// Seed for random tools.
    #[serde(default)]
    pub seed: Option<u64>,
    /// `all` or `none` (default none).
    #[serde(default)]
    pub approve: Option<String>,
    #[serde(default)]
    pub budgets: Option<Budgets>,
    /// An extra skills folder, relative to the scenario file.
    #[serde(default)]
    pub skills_dir: Option<String>,
    /// Values set in the profile first: dotted path → JSON value.
    #[serde(default)]
    pub profile: BTreeMap<String, Value>,
    /// The scripted model, in the format of a `scripted:PATH` file.
    pub model: Value,
    pub turns: Vec<ScenarioTurn>,
}

/// One user turn and what must hold after it.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScenarioTurn {
    pub user: String,
    #[serde(default)]
    pub skill: Option<String>,
    #[serde(default)]
    pub expect: Expect,
}

/// Expectations of one turn; each given field is one check.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Expect {
    /// The exact sequence of tool names called.
    pub tool_calls: Option<Vec<String>>,
    /// Pairs `[a, b]`: every call of `b` comes after some call of `a`.
    pub order: Option<Vec<[String; 2]>>,
    pub stop_reason: Option<String>,
    /// The phase the run started in (`phase1` / `phase2`): a restored skill starts in phase 2.
    pub start_phase: Option<String>,
    /// The active skill after the turn (`none` for no skill).
    pub active_skill: Option<String>,
    pub reply_contains: Option<Vec<String>>,
    /// Guardrail: phrases the reply must never contain.
    pub reply_not_contains: Option<Vec<String>>,
    /// Budget compliance: at most this many model rounds / tool calls.
    pub max_rounds: Option<u32>,
    pub max_tool_calls: Option<u32>,
    /// Guardrail hits (refused, denied or failed calls) at most this many.
    pub max_guardrail_hits: Option<u32>,
    /// Event types that must appear.
    pub events: Option<Vec<String>>,
    /// Profile values after the turn: dotted path → expected JSON value.
    pub state: Option<BTreeMap<String, Value>>,
}

impl Scenario {
    pub fn load(path: &Path) -> Result<Self, CoreError> {
        let text = vibe_agent::input::read_text(path, "scenario", vibe_agent::input::FILE_CAP)
            .map_err(|err| CoreError::InvalidRequest(err.to_string()))?;
        Self::parse(&text, &path.display().to_string())
    }

    pub fn parse(text: &str, source: &str) -> Result<Self, CoreError> {
        let scenario: Scenario = serde_yaml_ng::from_str(text).map_err(|e| {
            let at =
                e.location().map(|l| format!(":{}:{}", l.line(), l.column())).unwrap_or_default();
            CoreError::InvalidRequest(format!("{source}{at}: invalid scenario: {e}"))
        })?;
        if scenario.turns.is_empty() {
            return Err(CoreError::InvalidRequest(format!(
                "{source}: a scenario needs at least one turn"
            )));
        }
        if let Some(mode) = &scenario.approve
            && !matches!(mode.as_str(), "all" | "none")
        {
            return Err(CoreError::InvalidRequest(format!(
                "{source}: approve must be \"all\" or \"none\", got \"{mode}\""
            )));
        }
        Ok(scenario)
    }
}
