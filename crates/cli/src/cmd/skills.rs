//! `vibe skills list|show|check|new|cases|compute`: the skill registry from the shell, for
//! authors and scripts. Only adapts: opens a `vibe_skills::Registry` over the usual roots
//! (`--skills-dir` or settings `skills.extra_dir`, `<data dir>/skills`, the built-in folder)
//! and prints; the text rendering lives in `skills_render`.

#[path = "skills_render.rs"]
mod render;

use std::path::PathBuf;

use anyhow::{Context as _, anyhow};
use clap::{Args, Subcommand};
use serde_json::{Value, json};
use vibe_skills::{Registry, RegistryConfig, SkillsSettings, check_path, new_skill};

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
        top: usize,
    },
    /// Compute the skill's chart from the profile's birth_info, store it, print it.
    Compute(crate::cmd::compute::ComputeArgs),
}

pub fn run(ctx: &Ctx, args: SkillsArgs) -> anyhow::Result<()> {
    let config = config(ctx, args.skills_dir)?;
    match args.command {
        SkillsCommand::List => list(ctx, &Registry::open(config)),
        SkillsCommand::Show { name } => show(ctx, &Registry::open(config), &name),
        SkillsCommand::Check { dirs } => check(ctx, &config, dirs),
        SkillsCommand::New { name } => new(ctx, &config, &name),
        SkillsCommand::Cases { name, message, top } => {
            cases(ctx, &Registry::open(config), &name, &message, top)
        }
        SkillsCommand::Compute(args) => {
            crate::cmd::compute::run_in(ctx, &Registry::open(config), args)
        }
    }
}

/// Roots from `--skills-dir` (relative to the current folder) or settings, the data dir and
/// the built-in folder (see `vibe_skills::builtin_dir`).
pub(crate) fn config(ctx: &Ctx, skills_dir: Option<PathBuf>) -> anyhow::Result<RegistryConfig> {
    let settings: SkillsSettings = ctx.section("skills")?;
    let project = skills_dir
        .map(|d| {
            std::path::absolute(&d)
                .with_context(|| format!("cannot resolve --skills-dir {}", d.display()))
        })
        .transpose()?;
    Ok(RegistryConfig::for_data_dir(&ctx.data_dir, &settings, project))
}

fn list(ctx: &Ctx, registry: &Registry) -> anyhow::Result<()> {
    let mut rows: Vec<Value> = registry
        .skills()
        .iter()
        .map(|e| {
            json!({
                "name": e.name,
                "description": e.meta.description,
                "root": e.root,
                "dir": e.dir,
                "shadows": e.shadows,
                "valid": e.valid,
                "problems": strings(&e.problems),
            })
        })
        .collect();
    for b in registry.broken() {
        rows.push(json!({
            "name": b.name, "description": null, "root": b.root, "dir": b.dir,
            "shadows": [], "valid": false, "problems": strings(&b.problems),
        }));
    }
    rows.sort_by(|a, b| a["name"].as_str().cmp(&b["name"].as_str()));
    let warnings = strings(&registry.root_problems());
    if !ctx.json {
        for w in &warnings {
            eprintln!("{w}");
        }
    }
    let value = json!({ "skills": rows, "roots": registry.roots(), "warnings": warnings });
    print(ctx, &value, || render::list(&rows));
    Ok(())
}

fn show(ctx: &Ctx, registry: &Registry, name: &str) -> anyhow::Result<()> {
    let entry = registry.skill(name)?;
    let value = json!({
        "name": entry.name,
        "root": entry.root,
        "dir": entry.dir,
        "valid": entry.valid,
        "shadows": entry.shadows,
        "meta": entry.meta,
        "parts": registry.parts(name)?,
        "resources": registry.resources(name)?,
        "problems": strings(&entry.problems),
    });
    print(ctx, &value, || render::show(&value));
    Ok(())
}

fn check(ctx: &Ctx, config: &RegistryConfig, dirs: Vec<PathBuf>) -> anyhow::Result<()> {
    let dirs = if dirs.is_empty() {
        config.roots().into_iter().map(|r| r.path).filter(|p| p.is_dir()).collect()
    } else {
        dirs
    };
    let (mut skills, mut problems) = (Vec::new(), Vec::new());
    for dir in &dirs {
        let report = check_path(dir);
        skills.extend(report.skills);
        problems.extend(report.problems);
    }
    let errors = problems.iter().filter(|p| p.is_error()).count();
    let value = json!({
        "ok": errors == 0,
        "dirs": dirs,
        "skills": skills,
        "errors": errors,
        "warnings": problems.len() - errors,
        "problems": problems.iter().map(|p| json!({
            "path": p.path, "line": p.line, "col": p.col, "severity": p.severity,
            "message": p.message, "text": p.to_string(),
        })).collect::<Vec<_>>(),
    });
    print(ctx, &value, || render::check(&problems, skills.len()));
    if errors > 0 {
        if ctx.json {
            // The report above is the one JSON object; the exit code carries the failure.
            std::process::exit(1);
        }
        return Err(anyhow!(
            "{errors} error(s) in skill files; fix the lines above and run `vibe skills check` again"
        ));
    }
    Ok(())
}

fn new(ctx: &Ctx, config: &RegistryConfig, name: &str) -> anyhow::Result<()> {
    let root = config.user.clone().ok_or_else(|| anyhow!("no user skills folder is configured"))?;
    let dir = new_skill(&root, name)?;
    let value = json!({ "name": name, "dir": dir, "file": dir.join(vibe_skills::SKILL_FILE) });
    print(ctx, &value, || {
        format!(
            "created {}\nedit its description and instructions, then run `vibe skills check {}`",
            dir.join(vibe_skills::SKILL_FILE).display(),
            dir.display()
        )
    });
    Ok(())
}

fn cases(
    ctx: &Ctx,
    registry: &Registry,
    name: &str,
    message: &str,
    top: usize,
) -> anyhow::Result<()> {
    let matches = registry.match_cases(name, message, top)?;
    let rows: Vec<Value> = matches
        .iter()
        .map(|m| {
            json!({
                "id": m.case.id, "title": m.case.title, "keywords": m.case.keywords,
                "score": m.score, "matched": m.matched,
            })
        })
        .collect();
    let value = json!({ "skill": name, "message": message, "matches": rows });
    print(ctx, &value, || render::cases(name, &rows));
    Ok(())
}

fn strings(problems: &[vibe_skills::Problem]) -> Vec<String> {
    problems.iter().map(ToString::to_string).collect()
}
