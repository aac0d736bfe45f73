//! `vibe skills list|show|check|new|cases|compute`: the skill registry from the shell, for
//! authors and scripts. Only adapts: opens the app with `--skills-dir` as its extra root (else
//! settings `skills.extra_dir`; then `<data dir>/skills` and the built-in folder), calls its
//! skill commands and prints the wire DTOs; the text rendering lives in `skills_render`.

#[path = "skills_render.rs"]
mod render;

use std::path::PathBuf;

use anyhow::{Context as _, anyhow};
use clap::{Args, Subcommand};
use vibe_core::app::{App, Overrides};
use vibe_wire::command::{
    CheckSkillsRequest, MatchCasesRequest, NewSkillRequest, ShowSkillRequest,
};

use crate::ctx::Ctx;
use crate::output::print;

#[derive(Debug, Args)]
pub struct SkillsArgs {
    /// An extra skills folder with the highest precedence (instead of settings
    /// `skills.extra_dir`).
    #[arg(long, global = true, value_name = "DIR")]
    pub skills_dir: Option<PathBuf>,
    #[command(subcommand)]
    pub command: SkillsCommand,
}

#[derive(Debug, Subcommand)]
pub enum SkillsCommand {
    /// List skills: name, description, root, what each shadows, and whether it is valid.
    List,
    /// Show one skill: metadata, the parts it has, its resources.
    Show {
        /// Skill name, e.g. bazi.
        name: String,
    },
    /// Check skill folders completely; exits non-zero on any error. Each DIR is a skill
    /// folder or a folder of skills; without DIR the configured roots are checked.
    Check {
        #[arg(value_name = "DIR")]
        dirs: Vec<PathBuf>,
    },
    /// Create a new skill with a valid SKILL.md in the user skills folder.
    New {
        /// 1–64 characters of a-z, 0-9 and `-`.
        name: String,
    },
    /// Show which of a skill's cases match a message (for authors tuning keywords).
    Cases {
        /// Skill name.
        name: String,
        /// A user message, in any language.
        message: String,
        /// How many cases to show at most.
        #[arg(short = 'k', long, default_value_t = 3)]
        top: u32,
    },
    /// Compute the skill's chart from the profile's birth_info, store it, print it.
    Compute(crate::cmd::compute::ComputeArgs),
}

pub fn run(ctx: &Ctx, args: SkillsArgs) -> anyhow::Result<()> {
    let mut overrides = Overrides::from_env();
    if let Some(dir) = absolute(args.skills_dir)? {
        overrides.skills_dir = Some(dir);
    }
    let app = ctx.open_app(overrides)?;
    match args.command {
        SkillsCommand::List => list(ctx, &app),
        SkillsCommand::Show { name } => show(ctx, &app, name),
        SkillsCommand::Check { dirs } => check(ctx, &app, dirs),
        SkillsCommand::New { name } => new(ctx, &app, name),
        SkillsCommand::Cases { name, message, top } => {
            cases(ctx, &app, MatchCasesRequest { skill: name, message, top })
        }
        SkillsCommand::Compute(args) => crate::cmd::compute::run(ctx, &app, args),
    }
}

/// `--skills-dir` made absolute (relative to the current folder).
pub(crate) fn absolute(skills_dir: Option<PathBuf>) -> anyhow::Result<Option<PathBuf>> {
    skills_dir
        .map(|d| {
            std::path::absolute(&d)
                .with_context(|| format!("cannot resolve --skills-dir {}", d.display()))
        })
        .transpose()
}

fn list(ctx: &Ctx, app: &App) -> anyhow::Result<()> {
    let list = app.list_skills();
    if !ctx.json {
        for w in &list.warnings {
            crate::output::err_line(&w.to_string());
        }
    }
    let value = serde_json::to_value(&list)?;
    let rows = value["skills"].as_array().cloned().unwrap_or_default();
    print(ctx, &value, || render::list(&rows));
    Ok(())
}

fn show(ctx: &Ctx, app: &App, name: String) -> anyhow::Result<()> {
    let detail = app.show_skill(&ShowSkillRequest { name })?;
    let value = serde_json::to_value(&detail)?;
    print(ctx, &value, || render::show(&value));
    Ok(())
}

fn check(ctx: &Ctx, app: &App, dirs: Vec<PathBuf>) -> anyhow::Result<()> {
    let dirs = dirs.iter().map(|d| d.display().to_string()).collect();
    let report = app.check_skills(&CheckSkillsRequest { dirs });
    print(ctx, &serde_json::to_value(&report)?, || render::check(&report));
    if !report.ok {
        if ctx.json {
            // The report above is the one JSON object; the exit code carries the failure.
            std::process::exit(1);
        }
        return Err(anyhow!(
            "{} error(s) in skill files; fix the lines above and run `vibe skills check` again",
            report.errors
        ));
    }
    Ok(())
}

fn new(ctx: &Ctx, app: &App, name: String) -> anyhow::Result<()> {
    let made = app.new_skill(&NewSkillRequest { name })?;
    print(ctx, &serde_json::to_value(&made)?, || {
        format!(
            "created {}\nedit its description and instructions, then run `vibe skills check {}`",
            made.file, made.dir
        )
    });
    Ok(())
}

fn cases(ctx: &Ctx, app: &App, request: MatchCasesRequest) -> anyhow::Result<()> {
    let found = app.match_cases(&request)?;
    print(ctx, &serde_json::to_value(&found)?, || render::cases(&found));
    Ok(())
}
