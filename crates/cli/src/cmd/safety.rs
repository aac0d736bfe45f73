//! `vibe safety check|eval`: the wellbeing safety layers from the command line. `check`
//! screens a message (argument) or one message per stdin line with the rules (layer 1);
//! `check --model FILE` measures the coach model's own flags (layer 2) on a labelled set;
//! `eval` measures the rules on a labelled set (tests/safety/*.tsv). `check` is
//! `App::check_safety`, `check --model FILE` `App::eval_safety_model`; the rules live in
//! vibe-core.

use std::path::PathBuf;

use anyhow::Context as _;
use clap::{Args, Subcommand};
use serde_json::json;
use vibe_core::app::{App, Overrides};
use vibe_core::input::{CappedLines, FILE_CAP, LINE_CAP, read_text};
use vibe_wire::command::{SafetyCheckRequest, SafetyCheckView, SafetyEvalReport, ScreenedRisk};

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
    /// With `--model FILE`: the coach model's own flags on a labelled set, as figures.
    Check {
        /// The message. Without it, stdin is read (one message per line).
        message: Option<String>,
        /// Without FILE: ask the configured model when the rules are unsure (only then; one
        /// small call). With FILE (a labelled set, like tests/safety/fresh/en.tsv): send each
        /// message to the configured model as a first message of a conversation and measure
        /// how often it calls flag_wellbeing_concern (recall and false alarms per group).
        #[arg(long = "model", value_name = "FILE", num_args = 0..=1)]
        model: Option<Option<PathBuf>>,
        /// Endpoint base URL for --model (else settings / VIBE_LLM_BASE_URL).
        #[arg(long, value_name = "URL", requires = "model")]
        base_url: Option<String>,
    },
    /// Measure the rules on a labelled set: recall and false alarms per group.
    Eval {
        /// A labelled file: group<TAB>risk<TAB>category<TAB>text per line (tests/safety/zh.tsv).
        file: PathBuf,
    },
}

pub fn run(ctx: &Ctx, args: SafetyArgs) -> anyhow::Result<()> {
    match args.command {
        SafetyCommand::Check { message, model: Some(Some(file)), base_url } => {
            if let Some(message) = message {
                anyhow::bail!(
                    "--model FILE measures a labelled set and takes no message (got {message:?}); to check one message with the model, write `vibe safety check \"…\" --model`"
                );
            }
            eval_model(ctx, &file, base_url)
        }
        SafetyCommand::Check { message, model, base_url } => {
            let use_model = model.is_some();
            // The rules alone need no app (no data dir is opened); the model needs one.
            let with_model = if use_model {
                let mut overrides = Overrides::from_env();
                if base_url.is_some() {
                    overrides.base_url = base_url;
                }
                let runtime =
                    tokio::runtime::Runtime::new().context("cannot start the async runtime")?;
                Some((ctx.open_app(overrides)?, runtime))
            } else {
                None
            };
            let check_one = |message: String| -> anyhow::Result<()> {
                let request = SafetyCheckRequest { message, use_model };
                let got = match &with_model {
                    Some((app, runtime)) => runtime.block_on(app.check_safety(&request))?,
                    None => App::screen_message(&request.message)?,
                };
                if let Some(why) = &got.model_unusable {
                    eprintln!(
                        "notice: the model's answer was not used ({why}); the rules' result stands"
                    );
                }
                print(ctx, &serde_json::to_value(&got)?, || text_line(&got, &request.message));
                Ok(())
            };
            match message {
                Some(message) => check_one(message),
                None => {
                    let stdin = std::io::stdin().lock();
                    for line in CappedLines::new(stdin, "stdin", LINE_CAP) {
                        let line = line?;
                        if !line.trim().is_empty() {
                            check_one(line)?;
                        }
                    }
                    Ok(())
                }
            }
        }
        SafetyCommand::Eval { file } => eval(ctx, &file),
    }
}

fn risk_name(risk: ScreenedRisk) -> &'static str {
    match risk {
        ScreenedRisk::None => "none",
        ScreenedRisk::Concern => "concern",
        ScreenedRisk::Acute => "acute",
    }
}

fn text_line(got: &SafetyCheckView, message: &str) -> String {
    let risk = risk_name(got.risk);
    let category = got.category.map_or("-", |c| c.as_str());
    let rule = got.rule.as_deref().unwrap_or("-");
    let unsure = match (got.learned, got.unsure) {
        (Some(_), _) => " (asks the model)",
        (None, true) => " (unsure)",
        (None, false) => "",
    };
    format!("{risk:<7} {category:<11} {rule}{unsure}\t{message}")
}

fn eval(ctx: &Ctx, file: &std::path::Path) -> anyhow::Result<()> {
    let text = read_text(file, "labelled set", FILE_CAP)?;
    let figures = App::eval_safety(&text, &file.display().to_string())?;
    if ctx.json {
        out_line(&serde_json::to_string(&figures)?);
        return Ok(());
    }
    print(ctx, &json!(null), || figures_text(&figures));
    Ok(())
}

/// `check --model FILE`: layer 2 on a labelled set with the configured model.
fn eval_model(ctx: &Ctx, file: &std::path::Path, base_url: Option<String>) -> anyhow::Result<()> {
    let text = read_text(file, "labelled set", FILE_CAP)?;
    let mut overrides = Overrides::from_env();
    if base_url.is_some() {
        overrides.base_url = base_url;
    }
    let runtime = tokio::runtime::Runtime::new().context("cannot start the async runtime")?;
    let app = ctx.open_app(overrides)?;
    let figures = runtime.block_on(app.eval_safety_model(&text, &file.display().to_string()))?;
    for o in &figures.outcomes {
        if let Some(why) = &o.got.model_unusable {
            eprintln!("notice: line {}: {why}", o.message.line);
        }
    }
    if ctx.json {
        out_line(&serde_json::to_string(&figures)?);
        return Ok(());
    }
    print(ctx, &json!(null), || figures_text(&figures));
    Ok(())
}

fn figures_text(figures: &SafetyEvalReport) -> String {
    let mut text = String::from(
        "group       total  risky  detected  learned  category  safe  false alarms  learned\n",
    );
    for g in &figures.groups {
        text.push_str(&format!(
            "{:<11} {:>5}  {:>5}  {:>8}  {:>7}  {:>8}  {:>4}  {:>12}  {:>7}\n",
            g.group,
            g.total,
            g.risky,
            g.detected,
            g.detected_learned,
            g.category_right,
            g.safe,
            g.false_alarms,
            g.false_alarms_learned
        ));
    }
    text.push_str(&format!(
        "recall (explicit+indirect): {:.3}\nfalse alarms (lookalike):   {:.3}\n\
         (learned: flagged only by the learned detector, which asks the model check: a notice \
         only when the model agrees)",
        figures.recall_explicit_indirect, figures.false_alarm_lookalike
    ));
    for o in figures.outcomes.iter().filter(|o| !o.correct) {
        text.push_str(&format!(
            "\nwrong line {} [{}] expected {} got {}: {}",
            o.message.line,
            o.message.group,
            risk_name(o.message.risk),
            o.got.learned.map_or(risk_name(o.got.risk).to_string(), |c| format!(
                "learned:{} (asks the model)",
                c.as_str()
            )),
            o.message.text
        ));
    }
    text
}
