//! The profile cache (docs/design.md#profile-cache): TTL 5 minutes, keys per user + skill, with
//! finer invalidation than the first design had: each entry remembers which parts of the profile it
//! read (the skill's declared `profile_fields` plus `skills.<skill>`), and a write invalidates only
//! entries that read the written path. Writes by another process (the CLI while the app runs) are
//! noticed through SQLite's `data_version` and clear the cache. A fill (read the profile, then
//! insert) is refused when any invalidation happened between its miss and its insert (a generation
//! counter), so a write by another thread in between never leaves a stale entry.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde::Serialize;
use serde_json::{Map, Value};

use crate::Store;
use crate::error::Result;
use crate::json_path::parse_dotted;
use crate::state::validate_skill_id;

/// The designed TTL, only a backstop (docs/design.md#profile-cache).
pub const DEFAULT_TTL: Duration = Duration::from_secs(5 * 60);

/// What a skill sees of the profile.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SkillView {
    pub skill: String,
    /// Only the declared profile fields, at their usual place (`{"birth_info": {...}}`).
    pub profile: Value,
    /// `skills.<skill>`: the skill's own state.
    pub state: Value,
}

/// Counters for tests and `vibe db info`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct CacheStats {
    pub hits: u64,
    pub misses: u64,
    pub entries: usize,
}

struct Entry {
    view: Arc<SkillView>,
    deps: Vec<String>,
    loaded_at: Instant,
}

struct Inner {
    entries: HashMap<(String, String), Entry>,
    data_version: Option<i64>,
    /// Bumped by every invalidation and clear; a fill inserts only when it is unchanged since
    /// the fill's miss.
    generation: u64,
    ttl: Duration,
    hits: u64,
    misses: u64,
}

pub(crate) struct ProfileCache {
    inner: Mutex<Inner>,
    /// Tests: runs between a fill's read and its insert (where another thread's write lands).
    #[cfg(test)]
    pub(crate) after_fill_read: Mutex<Option<Box<dyn FnOnce() + Send>>>,
}

impl Default for ProfileCache {
    fn default() -> Self {
        Self {
            inner: Mutex::new(Inner {
                entries: HashMap::new(),
                data_version: None,
                generation: 0,
                ttl: DEFAULT_TTL,
                hits: 0,
                misses: 0,
            }),
            #[cfg(test)]
            after_fill_read: Mutex::new(None),
        }
    }
}

/// Whether a write at `changed` can alter what was read at `dep` (one is a dotted prefix of
/// the other; the empty path is everything).
fn related(dep: &str, changed: &str) -> bool {
    fn prefix(a: &str, b: &str) -> bool {
        a.is_empty() || b == a || (b.starts_with(a) && b.as_bytes().get(a.len()) == Some(&b'.'))
    }
    prefix(dep, changed) || prefix(changed, dep)
}

impl ProfileCache {
    fn lock(&self) -> std::sync::MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Drop the entries of `user` that read anything at or under / above `path`.
    pub(crate) fn invalidate(&self, user: &str, path: &str) {
        let mut inner = self.lock();
        inner.generation += 1;
        inner
            .entries
            .retain(|(u, _), entry| u != user || !entry.deps.iter().any(|d| related(d, path)));
    }
}

fn pick(doc: &Value, field: &str, out: &mut Value) {
    let Ok(segments) = parse_dotted(field, "profile field") else { return };
    let mut src = doc;
    for s in &segments {
        match src.get(s) {
            Some(v) => src = v,
            None => return,
        }
    }
    let mut dst = out;
    for s in &segments[..segments.len() - 1] {
        let Some(map) = dst.as_object_mut() else { return };
        dst = map.entry(s.to_string()).or_insert_with(|| Value::Object(Map::new()));
    }
    if let (Some(map), Some(last)) = (dst.as_object_mut(), segments.last()) {
        map.insert(last.to_string(), src.clone());
    }
}

impl Store {
    /// The parts of `user`'s profile a skill declared (`fields`, dotted, e.g. `birth_info`,
    /// `skills.bazi`, `extracted`) and the skill's own state, from the cache when fresh.
    pub fn skill_view(&self, user: &str, skill: &str, fields: &[&str]) -> Result<Arc<SkillView>> {
        validate_skill_id(skill)?;
        let mut deps: Vec<String> = fields.iter().map(|f| f.to_string()).collect();
        deps.push(format!("skills.{skill}"));
        deps.sort();
        deps.dedup();
        let version: i64 = self.conn().query_row("PRAGMA data_version", [], |r| r.get(0))?;
        let key = (user.to_string(), skill.to_string());
        let generation = {
            let mut inner = self.cache.lock();
            if inner.data_version != Some(version) {
                inner.entries.clear();
                inner.generation += 1;
                inner.data_version = Some(version);
            }
            let ttl = inner.ttl;
            let hit = inner
                .entries
                .get(&key)
                .filter(|e| e.deps == deps && e.loaded_at.elapsed() < ttl)
                .map(|e| e.view.clone());
            if let Some(view) = hit {
                inner.hits += 1;
                return Ok(view);
            }
            inner.misses += 1;
            inner.generation
        };
        let mut skills: Vec<String> = deps
            .iter()
            .filter_map(|d| d.strip_prefix("skills."))
            .map(|rest| rest.split('.').next().unwrap_or(rest).to_string())
            .collect();
        skills.dedup();
        let doc = {
            let conn = self.conn();
            let tx = crate::Tx::begin(&conn, false)?;
            crate::profile::assemble_with(&tx, user, &skills)?
        };
        let mut profile = Value::Object(Map::new());
        for field in fields {
            pick(&doc, field, &mut profile);
        }
        let state = doc
            .get("skills")
            .and_then(|s| s.get(skill))
            .cloned()
            .unwrap_or(Value::Object(Map::new()));
        let view = Arc::new(SkillView { skill: skill.to_string(), profile, state });
        #[cfg(test)]
        if let Some(hook) =
            self.cache.after_fill_read.lock().unwrap_or_else(|p| p.into_inner()).take()
        {
            hook();
        }
        let mut inner = self.cache.lock();
        // A write landed since the miss: what was read may predate it, so it is returned to
        // this caller (its read began before the write) but not kept.
        if inner.generation == generation {
            let entry = Entry { view: view.clone(), deps, loaded_at: Instant::now() };
            inner.entries.insert(key, entry);
        }
        Ok(view)
    }

    /// Cache counters.
    pub fn cache_stats(&self) -> CacheStats {
        let inner = self.cache.lock();
        CacheStats { hits: inner.hits, misses: inner.misses, entries: inner.entries.len() }
    }

    /// Change the cache's time-to-live (default five minutes).
    pub fn set_cache_ttl(&self, ttl: Duration) {
        self.cache.lock().ttl = ttl;
    }

    /// Whether a fresh entry for `user` + `skill` is cached.
    pub fn is_cached(&self, user: &str, skill: &str) -> bool {
        let inner = self.cache.lock();
        inner
            .entries
            .get(&(user.to_string(), skill.to_string()))
            .is_some_and(|e| e.loaded_at.elapsed() < inner.ttl)
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use serde_json::json;

    use super::related;
    use crate::{LOCAL_USER, Store};

    #[test]
    fn a_write_between_a_fills_read_and_its_insert_leaves_no_stale_entry() {
        let store = Arc::new(Store::open_in_memory().unwrap());
        store.write_state(LOCAL_USER, "bazi", "chart", json!({"day": "甲子"})).unwrap();
        let writer = Arc::clone(&store);
        *store.cache.after_fill_read.lock().unwrap() = Some(Box::new(move || {
            // Another thread writes after the fill read the old state, before it inserts.
            std::thread::spawn(move || {
                writer.write_state(LOCAL_USER, "bazi", "chart", json!({"day": "乙丑"})).unwrap();
            })
            .join()
            .unwrap();
        }));
        let first = store.skill_view(LOCAL_USER, "bazi", &[]).unwrap();
        assert_eq!(first.state["chart"]["day"], "甲子", "the fill read before the write");
        let next = store.skill_view(LOCAL_USER, "bazi", &[]).unwrap();
        assert_eq!(
            next.state["chart"]["day"], "乙丑",
            "the write is seen at once, not after the TTL"
        );
        let again = store.skill_view(LOCAL_USER, "bazi", &[]).unwrap();
        assert_eq!(again.state["chart"]["day"], "乙丑");
        assert_eq!(store.cache_stats().hits, 1, "a fill without a write in between is kept");
    }

    #[test]
    fn relatedness_is_by_dotted_prefix() {
        assert!(related("birth_info", "birth_info.date"));
        assert!(related("skills.bazi.chart", "skills.bazi"));
        assert!(related("", "anything"));
        assert!(related("skills.bazi", ""));
        assert!(!related("skills.bazi", "skills.bazi2"));
        assert!(!related("birth_info", "extracted"));
    }
}
