//! `vibe bench local`: the front end of `vibe_core::bench::bench_local` — its flags, the fresh
//! processes of `--restart-every` (this same binary, run with the hidden `--segment-*` flags,
//! re-opening the bench's data folder; the folder's passphrase goes in its environment), and
//! the per-turn table.

use std::path::PathBuf;
use std::process::{Command, Stdio};

use anyhow::Context as _;
use clap::Args;
use vibe_core::app::{AppError, DB_PASSPHRASE_ENV};
use vibe_core::bench::{
    LOCAL_BENCH_TURNS, LocalBenchOptions, LocalBenchReport, LocalTurn, RequestFigures, Segment,
};

use crate::ctx::Ctx;
use crate::output::print;

#[derive(Debug, Args)]
pub struct LocalArgs {
    /// The GGUF model file.
    #[arg(long)]
    model: PathBuf,
    /// Turns of the scripted conversation (1 to 10).
    #[arg(long, default_value_t = LOCAL_BENCH_TURNS)]
    turns: usize,
    /// Run every K-th turn (and those after it) in a fresh process, as after a restart.
    #[arg(long, value_name = "K")]
    restart_every: Option<usize>,
    /// Engine threads (default: the engine's).
    #[arg(long)]
    threads: Option<u32>,
    /// Cap on the context window (llm.local.context_tokens; the model's trained length
    /// applies when smaller).
    #[arg(long)]
    context_tokens: Option<u32>,
    /// Longest answer, in tokens, so that runs are comparable.
    #[arg(long, default_value_t = 64)]
    answer_tokens: u32,
    /// Replay the same requests against llama-server at this base URL (…/v1; started with
    /// --metrics), in the same run.
    #[arg(long, value_name = "URL")]
    llama_server: Option<String>,
    /// Warm the conversation up before each process's first turn, as the app does when a
    /// conversation is opened (its time and tokens are a row of the table).
    #[arg(long)]
    warm_up: bool,
    /// Folder to hold the benchmark's data folder (default: the system temp folder).
    #[arg(long)]
    dir: Option<PathBuf>,
    #[command(flatten)]
    segment: SegmentArgs,
}

/// A fresh process's share of the run (internal: set by the bench for its child processes).
#[derive(Debug, Args)]
struct SegmentArgs {
    #[arg(long, hide = true)]
    segment_dir: Option<PathBuf>,
    #[arg(long, hide = true)]
    segment_conversation: Option<String>,
    #[arg(long, hide = true, default_value_t = 0)]
    segment_from: usize,
    #[arg(long, hide = true, default_value_t = 0)]
    segment_to: usize,
    #[arg(long, hide = true, default_value_t = 0)]
    segment_process: usize,
}

pub fn run(ctx: &Ctx, args: LocalArgs) -> anyhow::Result<()> {
    let runtime = tokio::runtime::Runtime::new().context("cannot start the async runtime")?;
    if let (Some(dir), Some(conversation)) =
        (&args.segment.segment_dir, &args.segment.segment_conversation)
    {
        let passphrase = std::env::var(DB_PASSPHRASE_ENV)
            .with_context(|| format!("a bench segment needs {DB_PASSPHRASE_ENV}"))?;
        let segment = Segment {
            data_dir: dir.clone(),
            conversation: conversation.clone(),
            from: args.segment.segment_from,
            to: args.segment.segment_to,
            process: args.segment.segment_process,
            passphrase: zeroize::Zeroizing::new(passphrase),
            warm_up: args.warm_up,
        };
        let turns = runtime.block_on(vibe_core::bench::run_segment(&segment))?;
        println!("{}", serde_json::to_string(&turns)?);
        return Ok(());
    }
    let model = std::path::absolute(&args.model)
        .with_context(|| format!("cannot resolve {}", args.model.display()))?;
    let options = LocalBenchOptions {
        model: model.clone(),
        turns: args.turns,
        restart_every: args.restart_every,
        threads: args.threads,
        context_tokens: args.context_tokens,
        answer_tokens: args.answer_tokens,
        llama_server: args.llama_server.clone(),
        warm_up: args.warm_up,
    };
    let work = match &args.dir {
        Some(dir) => tempfile::tempdir_in(dir)
            .with_context(|| format!("cannot create a folder in {}", dir.display()))?,
        None => tempfile::tempdir().context("cannot create a temporary folder")?,
    };
    let restart = |segment: &Segment| child(&model, segment);
    let report = runtime.block_on(vibe_core::bench::bench_local(work.path(), &options, restart))?;
    print(ctx, &serde_json::to_value(&report)?, || table(&report));
    Ok(())
}

/// Run `segment` in a fresh `vibe` process and read its turns.
fn child(model: &std::path::Path, segment: &Segment) -> Result<Vec<LocalTurn>, AppError> {
    let failed = |what: String| AppError::from(vibe_core::CoreError::InvalidRequest(what));
    let exe = std::env::current_exe()
        .map_err(|e| failed(format!("cannot find this program to restart it: {e}")))?;
    let mut command = Command::new(exe);
    command.args(["bench", "local", "--model"]).arg(model);
    if segment.warm_up {
        command.arg("--warm-up");
    }
    let out = command
        .arg("--segment-dir")
        .arg(&segment.data_dir)
        .args(["--segment-conversation", &segment.conversation])
        .args(["--segment-from", &segment.from.to_string()])
        .args(["--segment-to", &segment.to.to_string()])
        .args(["--segment-process", &segment.process.to_string()])
        .env(DB_PASSPHRASE_ENV, segment.passphrase.as_str())
        .stdin(Stdio::null())
        .stderr(Stdio::inherit())
        .output()
        .map_err(|e| failed(format!("cannot start process {}: {e}", segment.process)))?;
    if !out.status.success() {
        return Err(failed(format!(
            "process {} (turns {}–{}) failed ({}); its error is above",
            segment.process,
            segment.from + 1,
            segment.to,
            out.status
        )));
    }
    serde_json::from_slice(&out.stdout)
        .map_err(|e| failed(format!("process {} printed no turns ({e})", segment.process)))
}

/// The per-turn table (engine, then llama-server when replayed, then the ratios).
fn table(report: &LocalBenchReport) -> String {
    let mut out = format!(
        "model {}; threads {}; answers ≤ {} tokens; restart every {}; cold prefill {} tokens/s\n",
        report.model,
        report.threads.map_or("default".into(), |t| t.to_string()),
        report.answer_tokens,
        report.restart_every.map_or("never".into(), |k| format!("{k} turns")),
        report.prefill_tokens_per_s.map_or("?".into(), |r| format!("{r:.0}")),
    );
    out.push_str(
        "turn proc step                     reqs | prompt  eval reused  ttft ms gen t/s state | limit ms ratio | server: prompt  eval reused  ttft ms | vs server\n",
    );
    for t in &report.turns {
        let e = &t.engine;
        out.push_str(&format!(
            "{:>4} {:>4} {:<24} {:>4} | {} {:>5} | {:>8} {:>5} | {} | {:>9}\n",
            t.turn,
            format!("{}{}", t.process, if t.restarted { "*" } else { "" }),
            t.step.chars().take(24).collect::<String>(),
            t.requests,
            figures(e),
            if e.state_loaded { "load" } else { "-" },
            format!(
                "{}{}",
                opt(t.limit_ms, 0),
                if t.limit_basis.as_deref() == Some("cold turn") { "c" } else { "" }
            ),
            opt(t.ratio, 2),
            t.server.as_ref().map_or_else(|| format!("{:>31}", "-"), server),
            opt(t.vs_server, 2),
        ));
    }
    out.push_str(
        "(* a fresh process; state: a saved state was loaded; limit: prefilling only the turn's new \
         tokens, at llama-server's rate on that request, c: at the cold turn's rate; ratio: ttft ÷ limit)",
    );
    for t in &report.turns {
        if let Some(w) = &t.warm_up {
            out.push_str(&format!(
                "\nwarm-up before turn {}: {:.0} ms, prefix {} tokens ({} evaluated, {} reused{}); turn {} then reused {} tokens",
                t.turn,
                w.ms,
                w.prefix_tokens,
                w.evaluated_tokens,
                w.reused_tokens,
                if w.state_loaded { ", saved state loaded" } else { "" },
                t.turn,
                t.engine.reused_tokens.map_or("?".into(), |n| n.to_string()),
            ));
        }
    }
    for t in &report.turns {
        if let Some(error) = &t.engine.error {
            out.push_str(&format!("\nturn {}: the engine failed: {error}", t.turn));
        }
        if let Some(error) = t.server.as_ref().and_then(|s| s.error.as_ref()) {
            out.push_str(&format!("\nturn {}: llama-server failed: {error}", t.turn));
        }
    }
    out
}

fn figures(f: &RequestFigures) -> String {
    format!(
        "{:>6} {:>5} {:>6} {:>8.0} {:>7}",
        f.prompt_tokens,
        f.evaluated_tokens.map_or("?".into(), |n| n.to_string()),
        f.reused_tokens.map_or("?".into(), |n| n.to_string()),
        f.first_token_ms,
        opt(f.generation_tokens_per_s, 1),
    )
}

fn server(f: &RequestFigures) -> String {
    format!(
        "{:>14} {:>5} {:>6} {:>8.0}",
        f.prompt_tokens,
        f.evaluated_tokens.map_or("?".into(), |n| n.to_string()),
        f.reused_tokens.map_or("?".into(), |n| n.to_string()),
        f.first_token_ms,
    )
}

fn opt(value: Option<f64>, decimals: usize) -> String {
    value.map_or("-".into(), |v| format!("{v:.decimals$}"))
}
