//! Deep validation for authors (`vibe skills check`): a folder that is one skill, or a root of
//! skills, is checked completely — frontmatter, every part file, cross-references such as
//! `default_scenario`, duplicate names — without a registry and without caching.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::Serialize;

use crate::cache::{MAX_PART_BYTES, Parser};
use crate::discover::{SKILL_FILE, discover, is_skill_dir};
use crate::fsio::{Reads, read_text};
use crate::parts::{
    PartKind, cases, part_files, prompts, protocols, rules, scenarios, stem, tools,
};
use crate::problem::{Pos, Problem, has_errors};
use crate::scan::{Scanned, scan_skill};

/// The outcome of checking a folder.
#[derive(Debug, Clone, Default, Serialize)]
pub struct CheckReport {
    /// The skill folders found, with whether each has no error.
    pub skills: Vec<CheckedSkill>,
    /// All findings, by file and position.
    pub problems: Vec<Problem>,
}

#[derive(Debug, Clone, Serialize)]
pub struct CheckedSkill {
    /// The folder name.
    pub name: String,
    pub dir: PathBuf,
    pub valid: bool,
}

impl CheckReport {
    pub fn has_errors(&self) -> bool {
        has_errors(&self.problems)
    }

    pub fn error_count(&self) -> usize {
        self.problems.iter().filter(|p| p.is_error()).count()
    }

    pub fn warning_count(&self) -> usize {
        self.problems.len() - self.error_count()
    }
}

/// Check `path`: a skill folder (holding SKILL.md, or the SKILL.md itself) or a root of skills.
pub fn check_path(path: &Path) -> CheckReport {
    let mut report = CheckReport::default();
    let path = if path.file_name().is_some_and(|n| n == SKILL_FILE) && path.is_file() {
        path.parent().unwrap_or(path)
    } else {
        path
    };
    if !path.is_dir() {
        report.problems.push(Problem::error(
            path,
            Pos::START,
            "no such folder: pass a skill folder or a folder of skills",
        ));
        return report;
    }
    let dirs = if is_skill_dir(path) {
        vec![path.to_path_buf()]
    } else {
        let found = discover(path);
        report.problems.extend(found.problems);
        found.dirs
    };
    let reads = Reads::default();
    let mut scans = Vec::new();
    for dir in &dirs {
        let scanned = scan_skill(dir, None, false, &reads);
        let mut problems = scanned.problems.clone();
        problems.extend(check_parts(&scanned, &reads));
        report.skills.push(CheckedSkill {
            name: scanned.folder.clone(),
            dir: dir.clone(),
            valid: !has_errors(&problems),
        });
        report.problems.extend(problems);
        scans.push(scanned);
    }
    let duplicates = duplicate_names(&scans);
    for skill in &mut report.skills {
        if duplicates.iter().any(|p| p.path.starts_with(&skill.dir)) {
            skill.valid = false;
        }
    }
    report.problems.extend(duplicates);
    report.problems.sort_by(|a, b| (&a.path, a.line, a.col).cmp(&(&b.path, b.line, b.col)));
    report
}

fn duplicate_names(scans: &[Scanned]) -> Vec<Problem> {
    let mut by_name: BTreeMap<&str, Vec<&Scanned>> = BTreeMap::new();
    for s in scans {
        if let Some(meta) = s.usable() {
            by_name.entry(meta.name.as_str()).or_default().push(s);
        }
    }
    let mut out = Vec::new();
    for (name, group) in by_name.into_iter().filter(|(_, g)| g.len() > 1) {
        for s in &group {
            let others: Vec<String> = group
                .iter()
                .filter(|o| o.dir != s.dir)
                .map(|o| o.dir.display().to_string())
                .collect();
            out.push(Problem::error(
                &s.skill_file(),
                s.name_pos,
                format!(
                    "duplicate skill name `{name}` in this root (also in {}); rename one",
                    others.join(", ")
                ),
            ));
        }
    }
    out
}

fn check_file<T>(path: &Path, parse: Parser<T>, reads: &Reads) -> (Option<T>, Vec<Problem>) {
    match read_text(path, MAX_PART_BYTES, reads) {
        Ok(text) => parse(path, &text),
        Err(e) => (None, vec![crate::problem::cannot_read(path, &e)]),
    }
}

fn check_parts(s: &Scanned, reads: &Reads) -> Vec<Problem> {
    let dir = &s.dir;
    let mut out = Vec::new();
    if s.meta.is_some() {
        // The body is read whole when the skill is used: it must be text within the cap.
        match read_text(&s.skill_file(), MAX_PART_BYTES, reads) {
            Ok(text) => {
                if crate::frontmatter::split(&text).is_ok_and(|parts| parts.body.trim().is_empty())
                {
                    out.push(Problem::warning(
                        &s.skill_file(),
                        Pos::START,
                        "SKILL.md has no instructions after its frontmatter",
                    ));
                }
            }
            Err(e) => out.push(Problem::error(
                &s.skill_file(),
                Pos::START,
                format!("cannot read the instructions: {e}"),
            )),
        }
    }
    for path in part_files(dir, PartKind::Rules) {
        out.extend(check_file(&path, rules::parse_rule, reads).1);
    }
    let mut scenario_names = Vec::new();
    for path in part_files(dir, PartKind::Scenarios) {
        let (scenario, problems) = check_file(&path, scenarios::parse_scenario, reads);
        scenario_names.extend(scenario.map(|s| s.name));
        out.extend(problems);
    }
    for path in part_files(dir, PartKind::Cases) {
        out.extend(check_file(&path, cases::parse_case, reads).1);
    }
    for path in part_files(dir, PartKind::Tools) {
        out.extend(check_file(&path, tools::parse_tools, reads).1);
    }
    for path in part_files(dir, PartKind::Protocols) {
        out.extend(check_file(&path, protocols::parse_protocol, reads).1);
    }
    for path in part_files(dir, PartKind::Prompts) {
        out.extend(check_file(&path, prompts::parse_prompts, reads).1);
    }
    if let Some(meta) = &s.meta
        && let Some(wanted) = &meta.default_scenario
        && !part_files(dir, PartKind::Scenarios).iter().any(|p| &stem(p) == wanted)
    {
        let pos = s
            .positions
            .iter()
            .find(|(k, _)| k == "default_scenario")
            .map_or(Pos::START, |(_, p)| *p);
        let known =
            if scenario_names.is_empty() { "none".to_string() } else { scenario_names.join(", ") };
        out.push(Problem::error(
            &s.skill_file(),
            pos,
            format!(
                "default_scenario `{wanted}` has no file scenarios/{wanted}.md (scenarios: {known})"
            ),
        ));
    }
    out.extend(stray_files(dir));
    let mut unreadable = Vec::new();
    unreadable_files(dir, dir, 0, &mut unreadable);
    out.extend(unreadable);
    out
}

/// Deepest folder level searched for files that cannot be read.
const MAX_WALK_DEPTH: usize = 8;

/// Every file or folder of the skill that the app could not read when it needs it: a folder
/// it cannot list, a link to nothing, a file it cannot open; links leaving the folder and
/// things that are not files (pipes, devices) are never read, which is said too. Part files
/// and SKILL.md are read (and reported) by `check_parts`, so only opened here when other.
fn unreadable_files(root: &Path, dir: &Path, depth: usize, out: &mut Vec<Problem>) {
    let entries = match std::fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(e) => {
            out.push(Problem::error(dir, Pos::START, format!("cannot read this folder: {e}")));
            return;
        }
    };
    let mut paths: Vec<PathBuf> = entries.flatten().map(|e| e.path()).collect();
    paths.sort();
    for path in paths {
        let hidden = path.file_name().and_then(|n| n.to_str()).is_none_or(|n| n.starts_with('.'));
        if hidden {
            continue;
        }
        let link = std::fs::symlink_metadata(&path).is_ok_and(|m| m.file_type().is_symlink());
        let meta = match std::fs::metadata(&path) {
            Ok(meta) => meta,
            Err(e) => {
                let what = if link { "a link to a missing file" } else { "cannot read it" };
                out.push(Problem::error(&path, Pos::START, format!("cannot read: {what} ({e})")));
                continue;
            }
        };
        let root_real = root.canonicalize().unwrap_or_else(|_| root.to_path_buf());
        if link && !path.canonicalize().is_ok_and(|real| real.starts_with(&root_real)) {
            out.push(Problem::warning(
                &path,
                Pos::START,
                "not read: a link that leaves the skill folder",
            ));
            continue;
        }
        if meta.is_dir() {
            if depth < MAX_WALK_DEPTH && !link {
                unreadable_files(root, &path, depth + 1, out);
            }
            continue;
        }
        if !meta.is_file() {
            out.push(Problem::warning(&path, Pos::START, "not read: not a regular file"));
            continue;
        }
        let rel = path.strip_prefix(root).unwrap_or(&path);
        let is_part = crate::parts::PartKind::of_relative(rel).is_some();
        if rel == Path::new(SKILL_FILE) || is_part {
            continue;
        }
        if let Err(e) = std::fs::File::open(&path) {
            out.push(crate::problem::cannot_read(&path, &e));
        }
    }
}

/// Files in part folders that are not read because of their extension.
fn stray_files(dir: &Path) -> Vec<Problem> {
    let mut out = Vec::new();
    for kind in [PartKind::Rules, PartKind::Scenarios, PartKind::Cases, PartKind::Protocols] {
        let Ok(entries) = std::fs::read_dir(dir.join(kind.file_name())) else { continue };
        let mut files: Vec<PathBuf> =
            entries.flatten().map(|e| e.path()).filter(|p| p.is_file()).collect();
        files.sort();
        for path in files {
            let name = path.file_name().and_then(|n| n.to_str()).unwrap_or_default();
            let ext = path.extension().and_then(|e| e.to_str()).unwrap_or_default();
            if !name.starts_with('.') && !kind.extensions().contains(&ext) {
                out.push(Problem::warning(
                    &path,
                    Pos::START,
                    format!(
                        "not read: files in {}/ must end in .{}",
                        kind.file_name(),
                        kind.extensions().join(" or .")
                    ),
                ));
            }
        }
    }
    out
}

#[cfg(test)]
#[path = "check_tests.rs"]
mod tests;
