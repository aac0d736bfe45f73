//! The skill index: from the scans of all roots to one entry per name (the highest-precedence
//! usable skill wins and records what it shadows), the broken skills left out, and the
//! difference between two indexes as `skills_changed` notices. No file access here.

use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;
use std::sync::Arc;

use serde::Serialize;
use vibe_wire::{SkillsChange, SkillsChangeKind};

use crate::fsio::Fingerprint;
use crate::meta::SkillMeta;
use crate::problem::{Problem, has_errors};
use crate::roots::{Root, RootKind};
use crate::scan::Scanned;

/// A usable skill as the index sees it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SkillEntry {
    pub name: String,
    pub meta: Arc<SkillMeta>,
    pub root: RootKind,
    pub dir: PathBuf,
    /// Same-name skills in lower-precedence roots, highest first.
    pub shadows: Vec<Shadowed>,
    /// False when the current SKILL.md is broken and this is its last good version.
    pub valid: bool,
    /// Findings for the SKILL.md (warnings; errors too when not valid).
    pub problems: Vec<Problem>,
    /// SKILL.md's version, so an edit of the body alone is a change too.
    #[serde(skip)]
    pub(crate) fingerprint: Option<Fingerprint>,
}

/// A skill hidden by a higher-precedence one of the same name.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Shadowed {
    pub root: RootKind,
    pub dir: PathBuf,
}

/// A skill folder left out of the index.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct BrokenSkill {
    /// The folder name (the name it should have).
    pub name: String,
    pub root: RootKind,
    pub dir: PathBuf,
    pub problems: Vec<Problem>,
}

/// The scan of one root.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct RootScan {
    pub root: Root,
    /// Skill folders by path.
    pub skills: BTreeMap<PathBuf, Scanned>,
    /// Findings about the root itself (missing folder, misnamed SKILL.md files).
    pub problems: Vec<Problem>,
}

#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct Index {
    pub entries: BTreeMap<String, SkillEntry>,
    pub broken: Vec<BrokenSkill>,
}

/// Build the index from root scans given in precedence order.
pub(crate) fn build(scans: &[RootScan]) -> Index {
    let mut index = Index::default();
    for scan in scans {
        let mut by_name: BTreeMap<&str, Vec<&Scanned>> = BTreeMap::new();
        for s in scan.skills.values() {
            match s.usable() {
                Some(meta) => by_name.entry(meta.name.as_str()).or_default().push(s),
                None => index.broken.push(broken(s, scan.root.kind, s.problems.clone())),
            }
        }
        for (name, group) in by_name {
            if group.len() > 1 {
                for s in &group {
                    let others: Vec<String> = group
                        .iter()
                        .filter(|o| o.dir != s.dir)
                        .map(|o| o.dir.display().to_string())
                        .collect();
                    let mut problems = s.problems.clone();
                    problems.push(Problem::error(
                        &s.skill_file(),
                        s.name_pos,
                        format!(
                            "duplicate skill name `{name}` in this root (also in {}); rename one",
                            others.join(", ")
                        ),
                    ));
                    index.broken.push(broken(s, scan.root.kind, problems));
                }
                continue;
            }
            let s = group[0];
            let Some(meta) = s.usable() else { continue };
            match index.entries.get_mut(name) {
                Some(winner) => {
                    winner.shadows.push(Shadowed { root: scan.root.kind, dir: s.dir.clone() })
                }
                None => {
                    let entry = SkillEntry {
                        name: name.to_string(),
                        meta: Arc::clone(meta),
                        root: scan.root.kind,
                        dir: s.dir.clone(),
                        shadows: Vec::new(),
                        valid: s.meta.is_some(),
                        problems: s.problems.clone(),
                        fingerprint: s.fingerprint,
                    };
                    index.entries.insert(name.to_string(), entry);
                }
            }
        }
    }
    index
}

fn broken(s: &Scanned, root: RootKind, problems: Vec<Problem>) -> BrokenSkill {
    BrokenSkill { name: s.folder.clone(), root, dir: s.dir.clone(), problems }
}

fn strings(problems: &[Problem]) -> Vec<String> {
    problems.iter().filter(|p| p.is_error()).map(ToString::to_string).collect()
}

/// What changed from `old` to `new`. `touched` names skills whose other files changed.
pub(crate) fn diff(old: &Index, new: &Index, touched: &BTreeSet<String>) -> Vec<SkillsChange> {
    let change = |name: &str, kind, problems: Vec<String>| SkillsChange {
        name: name.to_string(),
        change: kind,
        problems,
    };
    let mut out = Vec::new();
    for (name, entry) in &new.entries {
        match old.entries.get(name) {
            None => out.push(change(name, SkillsChangeKind::Added, Vec::new())),
            Some(prev) if prev != entry || touched.contains(name) => {
                if entry.valid {
                    out.push(change(name, SkillsChangeKind::Changed, Vec::new()));
                } else {
                    out.push(change(name, SkillsChangeKind::Invalid, strings(&entry.problems)));
                }
            }
            Some(_) => {}
        }
    }
    for name in old.entries.keys().filter(|n| !new.entries.contains_key(*n)) {
        match new.broken.iter().find(|b| &b.name == name) {
            Some(b) => out.push(change(name, SkillsChangeKind::Invalid, strings(&b.problems))),
            None => out.push(change(name, SkillsChangeKind::Removed, Vec::new())),
        }
    }
    for b in &new.broken {
        let reported = out.iter().any(|c| c.name == b.name);
        let known = old.broken.iter().any(|o| o.dir == b.dir && o.problems == b.problems);
        if !reported && !known && has_errors(&b.problems) {
            out.push(change(&b.name, SkillsChangeKind::Invalid, strings(&b.problems)));
        }
    }
    out.sort_by(|a, b| a.name.cmp(&b.name));
    out
}

#[cfg(test)]
#[path = "index_tests.rs"]
mod tests;
