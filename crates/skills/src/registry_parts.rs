//! On-demand loading through the [`Registry`]: a skill's body, rules, scenarios, cases (and
//! case matching), tools, protocols, prompts and resources. Each file is read when first asked for and
//! cached until it changes. In folder parts a broken file is skipped (with a log line) so
//! the others still load; `vibe skills check` reports it.

use std::path::Path;
use std::sync::{Arc, PoisonError};

use serde::Serialize;

use crate::cache::{FileCache, Parser};
use crate::cases::{CaseIndex, CaseMatch};
use crate::discover::SKILL_FILE;
use crate::error::SkillsError;
use crate::frontmatter::split;
use crate::fsio::fingerprint;
use crate::parts::cases::{Case, parse_case};
use crate::parts::prompts::{PromptsSpec, parse_prompts};
use crate::parts::protocols::{ProtocolSource, parse_protocol};
use crate::parts::rules::{Rule, parse_rule};
use crate::parts::scenarios::{Scenario, parse_scenario};
use crate::parts::tools::{ToolsSpec, parse_tools};
use crate::parts::{PartKind, part_files, stem};
use crate::problem::Problem;
use crate::registry::Registry;
use crate::resources::{self, Resource, ResourceInfo};

/// Which optional parts a skill has, from folder listings (nothing is read).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PartsPresent {
    pub rules: Vec<String>,
    pub scenarios: Vec<String>,
    pub cases: Vec<String>,
    pub tools: bool,
    pub protocols: Vec<String>,
    /// `prompts.yaml` is present.
    pub prompts: bool,
}

fn parse_body(path: &Path, text: &str) -> (Option<String>, Vec<Problem>) {
    match split(text) {
        Ok(parts) => (Some(parts.body.to_string()), Vec::new()),
        Err(e) => (None, vec![Problem::error(path, e.pos, e.message)]),
    }
}

impl Registry {
    /// A cached part file: served as checked while the watcher runs, compared with the disk
    /// otherwise.
    fn get<T>(
        &self,
        cache: &FileCache<T>,
        path: &Path,
        parse: Parser<T>,
    ) -> Result<crate::cache::Cached<T>, SkillsError> {
        if self.inner.trusted() {
            cache.get_trusted(path, parse, &self.inner.reads)
        } else {
            cache.get(path, parse, &self.inner.reads)
        }
    }

    fn dir_of(&self, name: &str) -> Result<std::path::PathBuf, SkillsError> {
        Ok(self.skill(name)?.dir)
    }

    /// The optional parts present in the skill folder.
    pub fn parts(&self, name: &str) -> Result<PartsPresent, SkillsError> {
        let dir = self.dir_of(name)?;
        let files = |kind| self.inner.part_files(&dir, kind);
        let ids = |kind| files(kind).iter().map(|p| stem(p)).collect();
        Ok(PartsPresent {
            rules: ids(PartKind::Rules),
            scenarios: ids(PartKind::Scenarios),
            cases: ids(PartKind::Cases),
            tools: !files(PartKind::Tools).is_empty(),
            protocols: ids(PartKind::Protocols),
            prompts: !files(PartKind::Prompts).is_empty(),
        })
    }

    /// The Markdown body of SKILL.md (after the frontmatter).
    pub fn body(&self, name: &str) -> Result<Arc<String>, SkillsError> {
        let path = self.dir_of(name)?.join(SKILL_FILE);
        Ok(self.get(&self.inner.caches.body, &path, parse_body)?.value)
    }

    fn load_all<T>(
        &self,
        name: &str,
        kind: PartKind,
        cache: &FileCache<T>,
        parse: Parser<T>,
    ) -> Result<Vec<Arc<T>>, SkillsError> {
        let dir = self.dir_of(name)?;
        let mut out = Vec::new();
        for path in self.inner.part_files(&dir, kind).iter() {
            match self.get(cache, path, parse) {
                Ok(cached) => out.push(cached.value),
                Err(e) => tracing::warn!(skill = name, error = %e, "skipping a broken part file"),
            }
        }
        Ok(out)
    }

    /// `rules/*.md`, in file-name order.
    pub fn rules(&self, name: &str) -> Result<Vec<Arc<Rule>>, SkillsError> {
        self.load_all(name, PartKind::Rules, &self.inner.caches.rules, parse_rule)
    }

    /// `scenarios/*.md`, in file-name order.
    pub fn scenarios(&self, name: &str) -> Result<Vec<Arc<Scenario>>, SkillsError> {
        self.load_all(name, PartKind::Scenarios, &self.inner.caches.scenarios, parse_scenario)
    }

    /// One scenario by name (its file stem).
    pub fn scenario(&self, name: &str, scenario: &str) -> Result<Arc<Scenario>, SkillsError> {
        let all = self.scenarios(name)?;
        let known = all.iter().map(|s| s.name.as_str()).collect::<Vec<_>>().join(", ");
        all.iter().find(|s| s.name == scenario).cloned().ok_or_else(|| SkillsError::UnknownPart {
            skill: name.to_string(),
            kind: "scenario",
            name: scenario.to_string(),
            known,
        })
    }

    /// `cases/*.md`, in file-name order.
    pub fn cases(&self, name: &str) -> Result<Vec<Arc<Case>>, SkillsError> {
        self.load_all(name, PartKind::Cases, &self.inner.caches.cases, parse_case)
    }

    /// The best `k` cases of the skill for `message` (Chinese or English), best first.
    pub fn match_cases(
        &self,
        name: &str,
        message: &str,
        k: usize,
    ) -> Result<Vec<CaseMatch>, SkillsError> {
        let dir = self.dir_of(name)?;
        let trusted = self.inner.trusted();
        let key: Vec<_> = if trusted {
            Vec::new()
        } else {
            part_files(&dir, PartKind::Cases)
                .into_iter()
                .map(|p| {
                    let f = fingerprint(&p);
                    (p, f)
                })
                .collect()
        };
        let cached = {
            let indexes =
                self.inner.caches.case_indexes.lock().unwrap_or_else(PoisonError::into_inner);
            indexes
                .get(&dir)
                .filter(|(k, _)| trusted || *k == key)
                .map(|(_, index)| Arc::clone(index))
        };
        let index = match cached {
            Some(index) => index,
            None => {
                let index = Arc::new(CaseIndex::build(self.cases(name)?)?);
                let mut indexes =
                    self.inner.caches.case_indexes.lock().unwrap_or_else(PoisonError::into_inner);
                indexes.insert(dir, (key, Arc::clone(&index)));
                index
            }
        };
        index.search(message, k)
    }

    /// `tools.yaml`, or `None` when the skill has none.
    pub fn tools(&self, name: &str) -> Result<Option<Arc<ToolsSpec>>, SkillsError> {
        let dir = self.dir_of(name)?;
        let Some(path) = self.inner.part_files(&dir, PartKind::Tools).first().cloned() else {
            return Ok(None);
        };
        Ok(Some(self.get(&self.inner.caches.tools, &path, parse_tools)?.value))
    }

    /// `prompts.yaml` (daily prompts and starters), or `None` when the skill has none.
    pub fn prompts(&self, name: &str) -> Result<Option<Arc<PromptsSpec>>, SkillsError> {
        let dir = self.dir_of(name)?;
        let Some(path) = self.inner.part_files(&dir, PartKind::Prompts).first().cloned() else {
            return Ok(None);
        };
        Ok(Some(self.get(&self.inner.caches.prompts, &path, parse_prompts)?.value))
    }

    /// `protocols/*.yaml`, in file-name order.
    pub fn protocols(&self, name: &str) -> Result<Vec<Arc<ProtocolSource>>, SkillsError> {
        self.load_all(name, PartKind::Protocols, &self.inner.caches.protocols, parse_protocol)
    }

    /// One protocol by id (its file stem).
    pub fn protocol(&self, name: &str, id: &str) -> Result<Arc<ProtocolSource>, SkillsError> {
        let all = self.protocols(name)?;
        let known = all.iter().map(|p| p.id.as_str()).collect::<Vec<_>>().join(", ");
        all.iter().find(|p| p.id == id).cloned().ok_or_else(|| SkillsError::UnknownPart {
            skill: name.to_string(),
            kind: "protocol",
            name: id.to_string(),
            known,
        })
    }

    /// The files of the skill folder (not read).
    pub fn resources(&self, name: &str) -> Result<Vec<ResourceInfo>, SkillsError> {
        Ok(resources::list(&self.dir_of(name)?))
    }

    /// A file of the skill folder by relative path: refused when it leaves the folder,
    /// truncated with a marker beyond the configured size.
    pub fn load_resource(&self, name: &str, path: &str) -> Result<Resource, SkillsError> {
        let dir = self.dir_of(name)?;
        let cap = self.inner.config.max_resource_bytes;
        self.inner.caches.resources.load(name, &dir, path, cap, &self.inner.reads)
    }
}
