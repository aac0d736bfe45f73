//! Rescanning: rediscover the roots that saw changes, re-read only SKILL.md files whose
//! fingerprint changed (or that the watcher named), rebuild the index, re-check changed part
//! files, and tell subscribers what changed. Starting the watcher is `watch`.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::sync::PoisonError;

use vibe_wire::{Event, SkillsChange, SkillsChangeKind};

use crate::cache::{FileCache, Parser};
use crate::discover::{SKILL_FILE, discover};
use crate::fsio::Reads;
use crate::index::{Index, RootScan, build, diff};
use crate::parts::PartKind;
use crate::problem::{Problem, has_errors};
use crate::registry::{Inner, Registry};
use crate::roots::{Root, RootKind};
use crate::scan::scan_skill;

impl Registry {
    /// Rescan all roots now (reading only SKILL.md files that changed), update the index and
    /// notify subscribers. Returns the changes.
    pub fn refresh(&self) -> Vec<SkillsChange> {
        self.inner.refresh_paths(None)
    }
}

impl Inner {
    /// Rescan after `touched` paths changed (`None`: everything may have changed).
    pub(crate) fn refresh_paths(&self, touched: Option<&[PathBuf]>) -> Vec<SkillsChange> {
        let _serial = self.refresh_lock.lock().unwrap_or_else(PoisonError::into_inner);
        self.rescans.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let (old_scans, old_index) = {
            let state = self.state.read().unwrap_or_else(PoisonError::into_inner);
            (state.scans.clone(), state.index.clone())
        };
        let touched = &in_root_terms(touched.unwrap_or_default(), &self.roots);
        let everything = touched.is_empty();
        self.forget((!everything).then_some(touched.as_slice()));
        let mut scans = Vec::with_capacity(self.roots.len());
        for (i, root) in self.roots.iter().enumerate() {
            let prev = old_scans.get(i).filter(|s| s.root == *root);
            if let Some(prev) =
                prev.filter(|_| !everything && !touched.iter().any(|p| p.starts_with(&root.path)))
            {
                scans.push(prev.clone());
                continue;
            }
            let found = discover(&root.path);
            let mut problems = found.problems;
            if root.kind != RootKind::User && !root.path.is_dir() {
                problems.push(Problem::warning(
                    &root.path,
                    crate::problem::Pos::START,
                    format!("the {} skills folder does not exist", root.kind.as_str()),
                ));
            }
            let skills = found
                .dirs
                .into_iter()
                .map(|dir| {
                    let force = touched.iter().any(|p| p == &dir.join(SKILL_FILE));
                    let scanned =
                        scan_skill(&dir, prev.and_then(|p| p.skills.get(&dir)), force, &self.reads);
                    (dir, scanned)
                })
                .collect();
            scans.push(RootScan { root: root.clone(), skills, problems });
        }
        let index = build(&scans);
        let touched_names = touched_skills(&index, touched);
        let mut changes = diff(&old_index, &index, &touched_names);
        self.recheck_parts(&index, touched, &mut changes);
        self.purge_removed(&old_scans, &scans);
        {
            let mut state = self.state.write().unwrap_or_else(PoisonError::into_inner);
            state.scans = scans;
            state.index = index;
        }
        if !changes.is_empty() {
            tracing::info!(?changes, "skills changed");
            self.notify(&changes);
        }
        changes
    }

    /// Re-read changed part files of usable skills; a broken one turns the skill's notice
    /// into `invalid` (its last good version keeps being served).
    fn recheck_parts(&self, index: &Index, touched: &[PathBuf], changes: &mut [SkillsChange]) {
        for path in touched {
            let Some(entry) = index.entries.values().find(|e| path.starts_with(&e.dir)) else {
                continue;
            };
            let Ok(rel) = path.strip_prefix(&entry.dir) else { continue };
            if rel == Path::new(SKILL_FILE) {
                self.caches.body.invalidate(path);
                continue;
            }
            let Some(kind) = PartKind::of_relative(rel) else { continue };
            let problems = self.recheck_part(kind, path);
            if !has_errors(&problems) {
                continue;
            }
            if let Some(c) = changes.iter_mut().find(|c| c.name == entry.name) {
                c.change = SkillsChangeKind::Invalid;
                c.problems
                    .extend(problems.iter().filter(|p| p.is_error()).map(ToString::to_string));
            }
        }
    }

    fn recheck_part(&self, kind: PartKind, path: &Path) -> Vec<Problem> {
        use crate::parts::{cases, prompts, protocols, rules, scenarios, tools};
        let c = &self.caches;
        let r = &self.reads;
        if !path.is_file() {
            return Vec::new();
        }
        match kind {
            PartKind::Rules => reread(&c.rules, path, rules::parse_rule, r),
            PartKind::Scenarios => reread(&c.scenarios, path, scenarios::parse_scenario, r),
            PartKind::Cases => reread(&c.cases, path, cases::parse_case, r),
            PartKind::Tools => reread(&c.tools, path, tools::parse_tools, r),
            PartKind::Protocols => reread(&c.protocols, path, protocols::parse_protocol, r),
            PartKind::Prompts => reread(&c.prompts, path, prompts::parse_prompts, r),
        }
        .unwrap_or_else(|e| match e {
            crate::SkillsError::Invalid { problems } => problems,
            other => vec![Problem::error(path, crate::problem::Pos::START, other.to_string())],
        })
    }

    fn purge_removed(&self, old: &[RootScan], new: &[RootScan]) {
        let live: BTreeSet<&PathBuf> = new.iter().flat_map(|s| s.skills.keys()).collect();
        for dir in old.iter().flat_map(|s| s.skills.keys()).filter(|d| !live.contains(d)) {
            let c = &self.caches;
            c.file_caches().iter().for_each(|cache| cache.purge_under(dir));
            c.resources.purge_under(dir);
            c.case_indexes.lock().unwrap_or_else(PoisonError::into_inner).remove(dir);
        }
    }

    fn notify(&self, changes: &[SkillsChange]) {
        let event = Event::SkillsChanged { changes: changes.to_vec() };
        let mut subs = self.subscribers.lock().unwrap_or_else(PoisonError::into_inner);
        subs.retain(|tx| tx.send(event.clone()).is_ok());
    }
}

/// Read `path` into `cache` again now (it changed) and return the findings of its new version.
fn reread<T>(
    cache: &FileCache<T>,
    path: &Path,
    parse: Parser<T>,
    reads: &Reads,
) -> Result<Vec<Problem>, crate::SkillsError> {
    cache.invalidate(path);
    cache.get(path, parse, reads).map(|v| v.problems)
}

/// Event paths expressed under the roots as configured: a watcher may report the real
/// (symlink-resolved) path of a root, e.g. `/private/var/...` for `/var/...` on macOS.
fn in_root_terms(paths: &[PathBuf], roots: &[Root]) -> Vec<PathBuf> {
    let real: Vec<(PathBuf, &PathBuf)> =
        roots.iter().filter_map(|r| r.path.canonicalize().ok().map(|c| (c, &r.path))).collect();
    paths
        .iter()
        .map(|p| {
            real.iter()
                .find(|(canon, given)| !p.starts_with(given) && p.starts_with(canon))
                .and_then(|(canon, given)| p.strip_prefix(canon).ok().map(|rest| given.join(rest)))
                .unwrap_or_else(|| p.clone())
        })
        .collect()
}

/// Names of usable skills with a touched file.
fn touched_skills(index: &Index, touched: &[PathBuf]) -> BTreeSet<String> {
    let dirs: BTreeMap<&PathBuf, &str> =
        index.entries.values().map(|e| (&e.dir, e.name.as_str())).collect();
    touched
        .iter()
        .filter_map(|p| dirs.iter().find(|(d, _)| p.starts_with(d)).map(|(_, n)| n.to_string()))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(unix)]
    #[test]
    fn event_paths_under_a_resolved_root_are_mapped_back_to_the_root_as_given() {
        let tmp = tempfile::tempdir().unwrap();
        let real = tmp.path().join("real");
        std::fs::create_dir_all(&real).unwrap();
        let link = tmp.path().join("link");
        std::os::unix::fs::symlink(&real, &link).unwrap();
        let roots = [Root { kind: RootKind::User, path: link.clone() }];
        let event = real.canonicalize().unwrap().join("bazi/SKILL.md");
        let mapped = in_root_terms(&[event, link.join("x")], &roots);
        assert_eq!(mapped, vec![link.join("bazi/SKILL.md"), link.join("x")]);
    }
}
