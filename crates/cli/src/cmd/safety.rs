//! `vibe safety check|eval`: the deterministic risk screen of issue #11 from the command
//! line. `check` screens a message (argument) or one message per stdin line; `eval` measures
//! the rules on a labelled set (tests/safety/*.tsv). The rules live in vibe-core.

use std::io::BufRead as _;
use std::path::PathBuf;

use anyhow::Context as _;
use clap::{Args, Subcommand};
use serde_json::json;
use vibe_core::safety::{self, Figures, Screening};

use crate::ctx::Ctx;
use crate::output::{out_line, print};

#[derive(Debug, Args)]
pub struct SafetyArgs {
    #[command(subcommand)]
    command: SafetyCommand,
}

#[derive(Debug, Subcommand)]
enum SafetyCommand {
    /// Screen a message, or one message per line on stdin; prints one result per message.
    Check {
        /// The message. Without it, stdin is read (one message per line).
        message: Option<String>,
        /// Ask the configured model when the rules are unsure (not available yet).
        #[arg(long)]
        model: bool,
    },
    /// Measure the rules on a labelled set: recall and false alarms per group.
    Eval {
        /// A labelled file: group<TAB>risk<TAB>category<TAB>text per line (tests/safety/zh.tsv).
        file: PathBuf,
    },
}

pub fn run(ctx: &Ctx, args: SafetyArgs) -> anyhow::Result<()> {
    match args.command {
        SafetyCommand::Check { model: true, .. } => anyhow::bail!(
            "--model is not available yet: only the deterministic rules screen for now (run without --model)"
        ),
        SafetyCommand::Check { message: Some(message), .. } => check_one(ctx, &message),
        SafetyCommand::Check { message: None, .. } => {
            for line in std::io::stdin().lock().lines() {
                let line = line.context("cannot read stdin")?;
                if !line.trim().is_empty() {
                    check_one(ctx, &line)?;
                }
            }
            Ok(())
        }
        SafetyCommand::Eval { file } => eval(ctx, &file),
    }
}

fn check_one(ctx: &Ctx, message: &str) -> anyhow::Result<()> {
    let got = safety::screen(message)?;
    print(ctx, &screening_json(&got), || text_line(&got, message));
    Ok(())
}

fn screening_json(got: &Screening) -> serde_json::Value {
    json!({
        "risk": got.risk,
        "category": got.category,
        "rule": got.rule,
        "unsure": got.unsure,
        "discount": got.discount,
    })
}

fn text_line(got: &Screening, message: &str) -> String {
    let category = got.category.map_or("-", |c| c.as_str());
    let rule = got.rule.as_deref().unwrap_or("-");
    let unsure = if got.unsure { " (unsure)" } else { "" };
    format!("{:<7} {:<11} {rule}{unsure}\t{message}", got.risk.as_str(), category)
}

fn eval(ctx: &Ctx, file: &PathBuf) -> anyhow::Result<()> {
    let text = std::fs::read_to_string(file)
        .with_context(|| format!("cannot read {} (pass a labelled .tsv file)", file.display()))?;
    let set = safety::parse_labelled(&text, &file.display().to_string())?;
    let figures = safety::evaluate(safety::builtin_rules()?, &set);
    if ctx.json {
        out_line(&serde_json::to_string(&figures)?);
        return Ok(());
    }
    print(ctx, &json!(null), || figures_text(&figures));
    Ok(())
}

fn figures_text(figures: &Figures) -> String {
    let mut text =
        String::from("group       total  risky  detected  category  safe  false alarms\n");
    for g in &figures.groups {
        text.push_str(&format!(
            "{:<11} {:>5}  {:>5}  {:>8}  {:>8}  {:>4}  {:>12}\n",
            g.group, g.total, g.risky, g.detected, g.category_right, g.safe, g.false_alarms
        ));
    }
    text.push_str(&format!(
        "recall (explicit+indirect): {:.3}\nfalse alarms (lookalike):   {:.3}",
        figures.recall_explicit_indirect, figures.false_alarm_lookalike
    ));
    for o in figures.outcomes.iter().filter(|o| !o.correct) {
        text.push_str(&format!(
            "\nwrong line {} [{}] expected {} got {}: {}",
            o.message.line,
            o.message.group,
            o.message.risk.as_str(),
            o.got.risk.as_str(),
            o.message.text
        ));
    }
    text
}
