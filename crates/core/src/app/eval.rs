//! `run_eval`: scenario files run through a fresh app each (over a temporary data dir and the
//! scenario's scripted model, `eval_run.rs`) and scored. Answers wire DTOs.

use std::path::Path;

use serde_json::json;
use vibe_wire::command::{
    EvalCheck, EvalObserved, EvalRequest, EvalResponse, EvalResults, EvalTurn,
};

use crate::app::eval_run::{EvalReport, run_eval};
use crate::app::{App, AppError};
use crate::eval::Scenario;

impl App {
    /// `run_eval`: every file in order. A file that cannot be read or parsed is an error
    /// naming it; a failed check is a result (`failed` counts the scenarios with one).
    pub async fn run_eval(request: &EvalRequest) -> Result<EvalResults, AppError> {
        let mut scenarios = Vec::with_capacity(request.files.len());
        for file in &request.files {
            let path = Path::new(file);
            let scenario = Scenario::load(path)?;
            let report = run_eval(&scenario, path).await?;
            scenarios.push(response(file, report));
        }
        let failed = scenarios.iter().filter(|s| s.passed != s.total).count();
        Ok(EvalResults { scenarios, failed: u32::try_from(failed).unwrap_or(u32::MAX) })
    }
}

fn response(file: &str, report: EvalReport) -> EvalResponse {
    let count = |n: usize| u32::try_from(n).unwrap_or(u32::MAX);
    EvalResponse {
        file: file.to_string(),
        name: report.name,
        turns: report
            .turns
            .into_iter()
            .map(|t| EvalTurn {
                user: t.user,
                observed: EvalObserved {
                    tool_calls: t.observed.tool_calls,
                    // Both are read from typed events; an empty string means none was seen.
                    stop_reason: serde_json::from_value(json!(t.observed.stop_reason)).ok(),
                    start_phase: serde_json::from_value(json!(t.observed.start_phase)).ok(),
                    rounds: t.observed.rounds,
                    guardrail_hits: t.observed.guardrail_hits,
                    reply: t.observed.reply,
                    event_types: t.observed.event_types,
                },
                checks: t
                    .checks
                    .into_iter()
                    .map(|c| EvalCheck { name: c.name, passed: c.passed, detail: c.detail })
                    .collect(),
            })
            .collect(),
        passed: count(report.passed),
        total: count(report.total),
        score: report.score,
    }
}
