//! Matched cases for a phase-2 prompt, rendered, with a small cache: both model calls of a turn
//! (and a retried message) ask for the same skill and message, and matching runs a full-text
//! query. A cached result is used only while the skill's case files are the very ones it was
//! matched against (the registry hands out the same parsed `Arc`s until a file changes).

use std::collections::HashMap;
use std::hash::{DefaultHasher, Hash, Hasher};
use std::sync::{Arc, Mutex, PoisonError};

use vibe_skills::Registry;

use super::sections::demote_headings;
use crate::CoreError;

/// Cached results kept at most; the cache is emptied beyond this.
const CAP: usize = 64;

type Key = (String, u64, usize);

struct Entry {
    /// Identities of the skill's cases when this was matched.
    cases: Vec<usize>,
    rendered: Arc<Vec<String>>,
}

/// Rendered case matches by skill, message and `k`.
#[derive(Default)]
pub(crate) struct CaseCache {
    entries: Mutex<HashMap<Key, Entry>>,
}

fn identities(skills: &Registry, skill: &str) -> Result<Vec<usize>, CoreError> {
    Ok(skills.cases(skill)?.iter().map(|c| Arc::as_ptr(c) as usize).collect())
}

impl CaseCache {
    /// The best `k` cases of `skill` for `message`, rendered as `### title` + body, best first.
    pub fn matched(
        &self,
        skills: &Registry,
        skill: &str,
        message: &str,
        k: usize,
    ) -> Result<Arc<Vec<String>>, CoreError> {
        let mut h = DefaultHasher::new();
        message.hash(&mut h);
        let key = (skill.to_string(), h.finish(), k);
        let current = identities(skills, skill)?;
        {
            let entries = self.entries.lock().unwrap_or_else(PoisonError::into_inner);
            if let Some(e) = entries.get(&key).filter(|e| e.cases == current) {
                return Ok(e.rendered.clone());
            }
        }
        let rendered: Arc<Vec<String>> = Arc::new(
            skills
                .match_cases(skill, message, k)?
                .iter()
                .map(|m| {
                    format!("### {}\n{}", m.case.title.trim(), demote_headings(&m.case.body, 3))
                })
                .collect(),
        );
        let mut entries = self.entries.lock().unwrap_or_else(PoisonError::into_inner);
        if entries.len() >= CAP {
            entries.clear();
        }
        entries.insert(key, Entry { cases: current, rendered: rendered.clone() });
        Ok(rendered)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use vibe_skills::RegistryConfig;

    #[test]
    fn an_edited_case_file_is_matched_again() {
        let root = tempfile::tempdir().unwrap();
        let dir = root.path().join("demo");
        std::fs::create_dir_all(dir.join("cases")).unwrap();
        std::fs::write(
            dir.join("SKILL.md"),
            "---\nname: demo\ndescription: 演示。\n---\n\n# 演示\n",
        )
        .unwrap();
        let case = |title: &str| format!("---\ntitle: {title}\nkeywords: [拖延]\n---\n\n正文。\n");
        std::fs::write(dir.join("cases/a.md"), case("旧标题")).unwrap();
        let skills = Registry::open(RegistryConfig {
            project: Some(root.path().into()),
            ..RegistryConfig::default()
        });
        let cache = CaseCache::default();
        let first = cache.matched(&skills, "demo", "我总是拖延", 2).unwrap();
        assert!(first[0].starts_with("### 旧标题"));
        assert!(Arc::ptr_eq(&first, &cache.matched(&skills, "demo", "我总是拖延", 2).unwrap()));
        // A different size and modification time, so the change is seen at once.
        std::fs::write(dir.join("cases/a.md"), case("新的标题，更长一些")).unwrap();
        let again = cache.matched(&skills, "demo", "我总是拖延", 2).unwrap();
        assert!(again[0].starts_with("### 新的标题"), "{again:?}");
    }
}
