//! `vibe bench agent`: end-to-end cost of chat turns; `vibe bench insights`: the Insights and
//! Today screens over a year of use; `vibe bench local`: the embedded engine over a scripted
//! conversation (`bench_local.rs`). Measuring is `vibe_core::bench`'s.

use anyhow::Context as _;
use clap::{Args, Subcommand};
use vibe_wire::command::AgentBenchReport;

use crate::ctx::Ctx;
use crate::output::print;

#[derive(Debug, Args)]
pub struct BenchArgs {
    #[command(subcommand)]
    command: BenchCommand,
}

#[derive(Debug, Subcommand)]
enum BenchCommand {
    /// Per-turn time, database growth and peak memory of the agent loop with a scripted model.
    Agent {
        /// Prior messages in the conversation; repeat or comma-separate for several runs.
        #[arg(long, value_delimiter = ',', default_values_t = [0usize, 1_000, 10_000])]
        history: Vec<usize>,
        /// Measured turns per history size (at least 1).
        #[arg(long, default_value_t = 200, value_parser = measured_turns)]
        turns: usize,
        /// Folder to hold the benchmark's data dirs (default: the system temp folder). Put it
        /// on the disk your data dir lives on: creating run folders and writing the
        /// database's log are part of a turn.
        #[arg(long)]
        dir: Option<std::path::PathBuf>,
    },
    /// Time of `insights` (a year's range) and `today` over days of daily check-ins.
    Insights {
        /// Days of daily check-ins (and an entry every third day) ending today.
        #[arg(long, default_value_t = 365)]
        days: usize,
        /// Measured calls of each (at least 1).
        #[arg(long, default_value_t = 50, value_parser = measured_turns)]
        runs: usize,
        /// Folder to hold the benchmark's data dir (default: the system temp folder).
        #[arg(long)]
        dir: Option<std::path::PathBuf>,
    },
    /// A scripted conversation through the embedded engine: per turn the prompt tokens, tokens
    /// evaluated and reused, time to first token and generation speed; with restarts, and
    /// llama-server replaying the same requests.
    Local(super::bench_local::LocalArgs),
}

/// `--turns`: a count of at least one (a median of no turns means nothing).
fn measured_turns(text: &str) -> Result<usize, String> {
    match text.parse::<usize>() {
        Ok(0) => Err("the benchmark needs at least 1 measured turn; use e.g. --turns 200".into()),
        Ok(n) => Ok(n),
        Err(_) => Err(format!("{text:?} is not a whole number of turns; use e.g. --turns 200")),
    }
}

pub fn run(ctx: &Ctx, args: BenchArgs) -> anyhow::Result<()> {
    let (history, turns, dir) = match args.command {
        BenchCommand::Agent { history, turns, dir } => (history, turns, dir),
        BenchCommand::Insights { days, runs, dir } => return insights(ctx, days, runs, dir),
        BenchCommand::Local(args) => return super::bench_local::run(ctx, args),
    };
    let runtime = tokio::runtime::Runtime::new().context("cannot start the async runtime")?;
    let mut results = Vec::new();
    for n in history {
        let work = match &dir {
            Some(dir) => tempfile::tempdir_in(dir)
                .with_context(|| format!("cannot create a folder in {}", dir.display()))?,
            None => tempfile::tempdir().context("cannot create a temporary folder")?,
        };
        let result = runtime.block_on(vibe_core::bench::bench_agent(
            work.path(),
            n,
            turns,
            ctx.no_encryption,
        ))?;
        if !ctx.json {
            eprintln!(
                "history {:>6}: median {:.3} ms, p95 {:.3} ms, CPU {} ms/turn, db +{:.0} B/turn, peak RSS {} KiB",
                result.history,
                result.median_ms,
                result.p95_ms,
                result.cpu_ms_per_turn.map(|c| format!("{c:.3}")).unwrap_or_else(|| "?".into()),
                result.db_growth_bytes_per_turn,
                result.peak_rss_kb.map(|k| k.to_string()).unwrap_or_else(|| "?".into())
            );
        }
        results.push(result);
    }
    print(ctx, &serde_json::to_value(AgentBenchReport { agent: results })?, String::new);
    Ok(())
}

/// `vibe bench insights`.
fn insights(
    ctx: &Ctx,
    days: usize,
    runs: usize,
    dir: Option<std::path::PathBuf>,
) -> anyhow::Result<()> {
    let work = match &dir {
        Some(dir) => tempfile::tempdir_in(dir)
            .with_context(|| format!("cannot create a folder in {}", dir.display()))?,
        None => tempfile::tempdir().context("cannot create a temporary folder")?,
    };
    let result = vibe_core::bench::bench_insights(work.path(), days, runs, ctx.no_encryption)?;
    print(ctx, &serde_json::json!({ "insights": result }), || {
        format!(
            "{} days ({} entries): insights (year) median {:.3} ms, p95 {:.3} ms; today median {:.3} ms, p95 {:.3} ms",
            result.days,
            result.entries,
            result.insights_median_ms,
            result.insights_p95_ms,
            result.today_median_ms,
            result.today_p95_ms
        )
    });
    Ok(())
}
