//! Parsed files cached until they change: one [`FileCache`] per kind of part. A file is
//! re-read when its fingerprint differs (or it was explicitly invalidated by the watcher);
//! when a new version is broken, the last good value keeps being served and the findings are
//! kept beside it. While the file watcher runs, [`FileCache::get_trusted`] serves a checked slot
//! without looking at the file again: the watcher unverifies what it saw change. What a file means is the parser's business, passed in by the caller.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError};

use crate::error::SkillsError;
use crate::fsio::{Fingerprint, Reads, fingerprint, read_text};
use crate::problem::{Problem, has_errors};

/// Largest part file (rule, case, scenario, tools.yaml, protocol, SKILL.md) read whole.
pub(crate) const MAX_PART_BYTES: u64 = 1024 * 1024;

/// A parser from a file's path and text to a value and findings.
pub(crate) type Parser<T> = fn(&Path, &str) -> (Option<T>, Vec<Problem>);

struct Slot<T> {
    fingerprint: Option<Fingerprint>,
    /// The fingerprint was compared with the file since the last unverify.
    verified: bool,
    /// The value of the current version, when it is valid.
    current: Option<Arc<T>>,
    /// The last valid value seen (equal to `current` when that is valid).
    last_good: Option<Arc<T>>,
    problems: Vec<Problem>,
}

/// What a lookup found.
#[derive(Debug)]
pub(crate) struct Cached<T> {
    pub value: Arc<T>,
    /// Findings of the file's current version (errors when `value` is an earlier version).
    pub problems: Vec<Problem>,
}

pub(crate) struct FileCache<T> {
    slots: Mutex<HashMap<PathBuf, Slot<T>>>,
}

impl<T> Default for FileCache<T> {
    fn default() -> Self {
        Self { slots: Mutex::new(HashMap::new()) }
    }
}

impl<T> FileCache<T> {
    /// Like [`FileCache::get`], but a slot checked since it was last unverified is served
    /// as it is (no `stat`): for callers that know a watcher reports every change.
    pub fn get_trusted(
        &self,
        path: &Path,
        parse: Parser<T>,
        reads: &Reads,
    ) -> Result<Cached<T>, SkillsError> {
        {
            let slots = self.slots.lock().unwrap_or_else(PoisonError::into_inner);
            if let Some(slot) = slots.get(path).filter(|s| s.verified && s.fingerprint.is_some()) {
                return serve(path, slot);
            }
        }
        self.get(path, parse, reads)
    }

    /// The parsed file, read only when it changed since the last call.
    pub fn get(
        &self,
        path: &Path,
        parse: Parser<T>,
        reads: &Reads,
    ) -> Result<Cached<T>, SkillsError> {
        let fp = fingerprint(path);
        let mut slots = self.slots.lock().unwrap_or_else(PoisonError::into_inner);
        let fresh = slots.get(path).is_some_and(|s| s.fingerprint.is_some() && s.fingerprint == fp);
        if fresh && let Some(slot) = slots.get_mut(path) {
            slot.verified = true;
        }
        if !fresh {
            let previous_good = slots.get(path).and_then(|s| s.last_good.clone());
            let (current, problems) = match read_text(path, MAX_PART_BYTES, reads) {
                Ok(text) => {
                    let (value, problems) = parse(path, &text);
                    (value.filter(|_| !has_errors(&problems)).map(Arc::new), problems)
                }
                Err(e) => (None, vec![crate::problem::cannot_read(path, &e)]),
            };
            let last_good = current.clone().or(previous_good);
            let slot = Slot { fingerprint: fp, verified: true, current, last_good, problems };
            slots.insert(path.to_path_buf(), slot);
        }
        let slot = slots.get(path).ok_or_else(|| SkillsError::Invalid { problems: Vec::new() })?;
        serve(path, slot)
    }

    /// Mark every slot under `path` (a file or a folder; `None`: all) as to be checked again.
    pub fn unverify(&self, path: Option<&Path>) {
        let mut slots = self.slots.lock().unwrap_or_else(PoisonError::into_inner);
        for (p, slot) in slots.iter_mut() {
            if path.is_none_or(|path| p.starts_with(path)) {
                slot.verified = false;
            }
        }
    }

    /// Forget the fingerprint of `path` so the next `get` re-reads it (keeping its last good value).
    pub fn invalidate(&self, path: &Path) {
        if let Some(slot) = self.slots.lock().unwrap_or_else(PoisonError::into_inner).get_mut(path)
        {
            slot.fingerprint = None;
        }
    }

    /// Drop everything cached for files under `dir` (a removed skill).
    pub fn purge_under(&self, dir: &Path) {
        self.slots
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .retain(|p, _| !p.starts_with(dir));
    }
}

/// What the registry does to every file cache alike, whatever it holds.
pub(crate) trait AnyFileCache {
    fn unverify(&self, path: Option<&Path>);
    fn purge_under(&self, dir: &Path);
}

impl<T> AnyFileCache for FileCache<T> {
    fn unverify(&self, path: Option<&Path>) {
        FileCache::unverify(self, path);
    }

    fn purge_under(&self, dir: &Path) {
        FileCache::purge_under(self, dir);
    }
}

/// The value of a slot: the current version, or the last good one while the file is broken.
fn serve<T>(path: &Path, slot: &Slot<T>) -> Result<Cached<T>, SkillsError> {
    match (&slot.current, &slot.last_good) {
        (Some(v), _) => Ok(Cached { value: Arc::clone(v), problems: slot.problems.clone() }),
        (None, Some(v)) => {
            tracing::warn!(path = %path.display(), "serving the last good version of a broken file");
            Ok(Cached { value: Arc::clone(v), problems: slot.problems.clone() })
        }
        (None, None) => Err(SkillsError::Invalid { problems: slot.problems.clone() }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn upper(path: &Path, text: &str) -> (Option<String>, Vec<Problem>) {
        if text.contains("BAD") {
            (None, vec![Problem::error(path, crate::problem::Pos::new(1, 1), "bad")])
        } else {
            (Some(text.to_uppercase()), vec![])
        }
    }

    #[test]
    fn reads_once_until_the_file_changes_and_keeps_the_last_good_value() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("a.md");
        std::fs::write(&p, "one").unwrap();
        let (cache, reads) = (FileCache::<String>::default(), Reads::default());
        assert_eq!(*cache.get(&p, upper, &reads).unwrap().value, "ONE");
        assert_eq!(*cache.get(&p, upper, &reads).unwrap().value, "ONE");
        assert_eq!(reads.count(), 1);

        std::fs::write(&p, "BAD file").unwrap();
        let stale = cache.get(&p, upper, &reads).unwrap();
        assert_eq!((stale.value.as_str(), stale.problems.len()), ("ONE", 1));

        std::fs::write(&p, "two, longer").unwrap();
        cache.invalidate(&p);
        let fixed = cache.get(&p, upper, &reads).unwrap();
        assert_eq!((fixed.value.as_str(), fixed.problems.len()), ("TWO, LONGER", 0));
    }

    #[test]
    fn broken_without_history_is_an_error_naming_the_problem() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("a.md");
        std::fs::write(&p, "BAD").unwrap();
        let err = FileCache::<String>::default().get(&p, upper, &Reads::default()).unwrap_err();
        assert!(err.to_string().ends_with("a.md:1:1: bad"), "{err}");
    }
}
