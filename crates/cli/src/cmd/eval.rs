//! `vibe eval FILE.yaml...`: run scripted scenarios through the real chat service and score
//! them (docs/design.md#audit-and-replay). Exits non-zero when any check fails.

use std::path::PathBuf;

use anyhow::{Context as _, bail};
use clap::Args;
use serde_json::json;
use vibe_core::eval::{Scenario, run_eval};

use crate::ctx::Ctx;
use crate::output::print;

#[derive(Debug, Args)]
pub struct EvalArgs {
    /// Scenario files (YAML; see docs/evals.md).
    #[arg(required = true)]
    files: Vec<PathBuf>,
}

pub fn run(ctx: &Ctx, args: EvalArgs) -> anyhow::Result<()> {
    let runtime = tokio::runtime::Runtime::new().context("cannot start the async runtime")?;
    let mut reports = Vec::new();
    for file in &args.files {
        let scenario = Scenario::load(file)?;
        let report = runtime.block_on(run_eval(&scenario, file))?;
        reports.push((file.clone(), report));
    }
    let failed = reports.iter().filter(|(_, r)| !r.ok()).count();
    let value = json!({
        "scenarios": reports.iter().map(|(f, r)| json!({"file": f, "report": r})).collect::<Vec<_>>(),
        "failed": failed,
    });
    print(ctx, &value, || {
        let mut out = String::new();
        for (file, report) in &reports {
            out.push_str(&format!(
                "{} {} — {}/{} checks ({:.0}%)\n",
                if report.ok() { "PASS" } else { "FAIL" },
                report.name,
                report.passed,
                report.total,
                report.score * 100.0
            ));
            for (i, turn) in report.turns.iter().enumerate() {
                for check in turn.checks.iter().filter(|c| !c.passed) {
                    out.push_str(&format!(
                        "  {}: turn {} ✗ {} — {}\n",
                        file.display(),
                        i + 1,
                        check.name,
                        check.detail
                    ));
                }
            }
        }
        out.trim_end().to_string()
    });
    if failed > 0 {
        bail!("{failed} of {} scenario(s) failed", reports.len());
    }
    Ok(())
}
