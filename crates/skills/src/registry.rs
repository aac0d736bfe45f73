//! [`Registry`]: the public face of the crate. Opens the roots, keeps the index (frontmatter
//! only), answers lookups, and hands out change notices. Loading parts on demand is in
//! `registry_parts`, rescanning in `refresh`, file watching in `watch`.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError, RwLock, mpsc};

use notify::RecommendedWatcher;
use serde::Serialize;
use vibe_wire::Event;

use crate::cache::{AnyFileCache, FileCache};
use crate::cases::CaseIndex;
use crate::error::SkillsError;
use crate::fsio::{Fingerprint, Reads};
use crate::index::{BrokenSkill, Index, RootScan, SkillEntry};
use crate::parts::cases::Case;
use crate::parts::prompts::PromptsSpec;
use crate::parts::protocols::ProtocolSource;
use crate::parts::rules::Rule;
use crate::parts::scenarios::Scenario;
use crate::parts::tools::ToolsSpec;
use crate::parts::{PartKind, part_files};
use crate::problem::Problem;
use crate::resources::ResourceCache;
use crate::roots::{RegistryConfig, Root};

/// The skill registry. Cheap to clone (a shared handle); safe to use from many threads.
#[derive(Clone)]
pub struct Registry {
    pub(crate) inner: Arc<Inner>,
}

pub(crate) struct Inner {
    pub config: RegistryConfig,
    pub roots: Vec<Root>,
    pub reads: Reads,
    pub state: RwLock<State>,
    /// Serialises rescans (watcher thread and explicit `refresh`).
    pub refresh_lock: Mutex<()>,
    pub caches: Caches,
    pub subscribers: Mutex<Vec<mpsc::Sender<Event>>>,
    pub watcher: Mutex<Option<RecommendedWatcher>>,
    /// The watcher runs: cached folder listings and checked files are served without going
    /// to the disk; the watcher's events unverify what changed (see `Inner::forget`).
    pub trusted: AtomicBool,
    pub rescans: AtomicU64,
}

#[derive(Default)]
pub(crate) struct State {
    pub scans: Vec<RootScan>,
    pub index: Index,
}

/// The case files (and their fingerprints) a case index was built from.
pub(crate) type CaseFilesKey = Vec<(PathBuf, Option<Fingerprint>)>;

/// The files of one part folder, sorted.
pub(crate) type Listing = Arc<Vec<PathBuf>>;

#[derive(Default)]
pub(crate) struct Caches {
    pub body: FileCache<String>,
    pub rules: FileCache<Rule>,
    pub scenarios: FileCache<Scenario>,
    pub cases: FileCache<Case>,
    pub tools: FileCache<ToolsSpec>,
    pub protocols: FileCache<ProtocolSource>,
    pub prompts: FileCache<PromptsSpec>,
    pub resources: ResourceCache,
    /// Case indexes by skill folder, with the case files' fingerprints they were built from.
    pub case_indexes: Mutex<HashMap<PathBuf, (CaseFilesKey, Arc<CaseIndex>)>>,
    /// Part folder listings by skill folder, kept only while the watcher runs.
    pub listings: Mutex<HashMap<(PathBuf, PartKind), Listing>>,
}

impl Caches {
    /// The caches of parsed part files (not resources, which are read differently).
    pub(crate) fn file_caches(&self) -> [&dyn AnyFileCache; 7] {
        [
            &self.body,
            &self.rules,
            &self.scenarios,
            &self.cases,
            &self.tools,
            &self.protocols,
            &self.prompts,
        ]
    }
}

impl Inner {
    pub(crate) fn trusted(&self) -> bool {
        self.trusted.load(Ordering::Acquire)
    }

    /// The files of a part folder (see [`part_files`]); from the listing cache while the
    /// watcher runs.
    pub(crate) fn part_files(&self, dir: &Path, kind: PartKind) -> Listing {
        if !self.trusted() {
            return Arc::new(part_files(dir, kind));
        }
        let key = (dir.to_path_buf(), kind);
        if let Some(found) =
            self.caches.listings.lock().unwrap_or_else(PoisonError::into_inner).get(&key)
        {
            return Arc::clone(found);
        }
        let files = Arc::new(part_files(dir, kind));
        self.caches
            .listings
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .insert(key, Arc::clone(&files));
        files
    }

    /// Forget what the disk may have changed under `touched` (`None`: everywhere): folder
    /// listings and case indexes of the skills holding those paths, and the checked state of
    /// cached files there (they are compared with the disk again on next use).
    pub(crate) fn forget(&self, touched: Option<&[PathBuf]>) {
        let hit = |dir: &Path| {
            touched.is_none_or(|ps| ps.iter().any(|p| p.starts_with(dir) || dir.starts_with(p)))
        };
        let c = &self.caches;
        c.listings.lock().unwrap_or_else(PoisonError::into_inner).retain(|(d, _), _| !hit(d));
        c.case_indexes.lock().unwrap_or_else(PoisonError::into_inner).retain(|d, _| !hit(d));
        let paths: Vec<Option<&Path>> = match touched {
            None => vec![None],
            Some(ps) => ps.iter().map(|p| Some(p.as_path())).collect(),
        };
        for p in paths {
            c.file_caches().iter().for_each(|cache| cache.unverify(p));
        }
    }
}

/// Counters for diagnostics and tests.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct RegistryStats {
    /// Files opened for reading since the registry was opened.
    pub files_read: u64,
    /// Rescans of the roots (explicit or by the watcher) since the registry was opened.
    pub rescans: u64,
    /// Usable skills in the index.
    pub skills: usize,
    /// Skill folders left out because they are broken.
    pub broken: usize,
}

impl Registry {
    /// Open the configured roots and index them (frontmatter only). Never fails: unreadable
    /// roots and broken skills are reported by [`Registry::problems`].
    pub fn open(config: RegistryConfig) -> Registry {
        // Absolute, symlink-free root paths: file events are reported that way.
        let roots = config
            .roots()
            .into_iter()
            .map(|r| {
                let path = r
                    .path
                    .canonicalize()
                    .or_else(|_| std::path::absolute(&r.path))
                    .unwrap_or(r.path);
                Root { path, ..r }
            })
            .collect();
        let inner = Inner {
            config,
            roots,
            reads: Reads::default(),
            state: RwLock::new(State::default()),
            refresh_lock: Mutex::new(()),
            caches: Caches::default(),
            subscribers: Mutex::new(Vec::new()),
            watcher: Mutex::new(None),
            trusted: AtomicBool::new(false),
            rescans: AtomicU64::new(0),
        };
        let registry = Registry { inner: Arc::new(inner) };
        registry.refresh();
        registry
    }

    pub fn config(&self) -> &RegistryConfig {
        &self.inner.config
    }

    /// The roots, highest precedence first.
    pub fn roots(&self) -> &[Root] {
        &self.inner.roots
    }

    pub(crate) fn read_state(&self) -> std::sync::RwLockReadGuard<'_, State> {
        self.inner.state.read().unwrap_or_else(PoisonError::into_inner)
    }

    /// All usable skills, by name.
    pub fn skills(&self) -> Vec<SkillEntry> {
        self.read_state().index.entries.values().cloned().collect()
    }

    /// The usable skill called `name`.
    pub fn skill(&self, name: &str) -> Result<SkillEntry, SkillsError> {
        self.read_state()
            .index
            .entries
            .get(name)
            .cloned()
            .ok_or_else(|| SkillsError::UnknownSkill { name: name.to_string() })
    }

    /// Skill folders left out of the index, with why.
    pub fn broken(&self) -> Vec<BrokenSkill> {
        self.read_state().index.broken.clone()
    }

    /// Findings about the roots themselves (a configured folder missing, a misnamed
    /// `skill.md`), not about any one skill.
    pub fn root_problems(&self) -> Vec<Problem> {
        self.read_state().scans.iter().flat_map(|s| s.problems.iter().cloned()).collect()
    }

    /// Every finding of the last scan: roots, SKILL.md warnings, broken skills. Parts are only
    /// checked when loaded or by [`crate::check_path`].
    pub fn problems(&self) -> Vec<Problem> {
        let state = self.read_state();
        let mut out: Vec<Problem> =
            state.scans.iter().flat_map(|s| s.problems.iter().cloned()).collect();
        out.extend(state.index.entries.values().flat_map(|e| e.problems.iter().cloned()));
        out.extend(state.index.broken.iter().flat_map(|b| b.problems.iter().cloned()));
        out
    }

    /// Notices of skills added, changed, removed or turned invalid (after the registry is
    /// watching, or on [`Registry::refresh`]). Dropping the receiver unsubscribes.
    pub fn subscribe(&self) -> mpsc::Receiver<Event> {
        let (tx, rx) = mpsc::channel();
        self.inner.subscribers.lock().unwrap_or_else(PoisonError::into_inner).push(tx);
        rx
    }

    pub fn stats(&self) -> RegistryStats {
        let state = self.read_state();
        RegistryStats {
            files_read: self.inner.reads.count(),
            rescans: self.inner.rescans.load(Ordering::Relaxed),
            skills: state.index.entries.len(),
            broken: state.index.broken.len(),
        }
    }
}
