//! `vibe eval FILE.yaml...`: run scripted scenarios through the real chat service and score
//! them (docs/design.md#audit-and-replay) through `App::run_eval`. Exits non-zero when any
//! check fails.

use std::path::PathBuf;

use anyhow::{Context as _, bail};
use clap::Args;
use vibe_core::app::App;
use vibe_wire::command::EvalRequest;

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
    let files = args.files.iter().map(|f| f.display().to_string()).collect();
    let results = runtime.block_on(App::run_eval(&EvalRequest { files }))?;
    print(ctx, &serde_json::to_value(&results)?, || {
        let mut out = String::new();
        for report in &results.scenarios {
            out.push_str(&format!(
                "{} {} — {}/{} checks ({:.0}%)\n",
                if report.passed == report.total { "PASS" } else { "FAIL" },
                report.name,
                report.passed,
                report.total,
                report.score * 100.0
            ));
            for (i, turn) in report.turns.iter().enumerate() {
                for check in turn.checks.iter().filter(|c| !c.passed) {
                    out.push_str(&format!(
                        "  {}: turn {} ✗ {} — {}\n",
                        report.file,
                        i + 1,
                        check.name,
                        check.detail
                    ));
                }
            }
        }
        out.trim_end().to_string()
    });
    if results.failed > 0 {
        bail!("{} of {} scenario(s) failed", results.failed, results.scenarios.len());
    }
    Ok(())
}
