//! The generic skill-state operations of seed 000 §4, with their exact semantics:
//! `read_state` (optional sections; status `empty` when nothing is stored), `write_state`
//! (deep merge into `skills.<skill>.<section>`), `append_to_list` (dotted path, newest first,
//! `max_items` trimming the oldest, `_created_at` stamped). Each write is one IMMEDIATE
//! transaction and stamps `skills.<skill>._meta.updated_at`.

use serde::Serialize;
use serde_json::{Map, Value};

use crate::error::{Result, StoreError};
use crate::json_path::{deep_merge, ensure_object_path, parse_dotted, type_name};
use crate::{Store, clock, profile};

/// The default `max_items` of `append_to_list`.
pub const DEFAULT_MAX_ITEMS: usize = 100;

/// Whether `read_state` found anything.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum StateStatus {
    Success,
    Empty,
}

/// What `read_state` returns.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct StateRead {
    pub status: StateStatus,
    pub skill_id: String,
    pub data: Value,
}

/// What `append_to_list` did.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct AppendOutcome {
    pub skill_id: String,
    pub path: String,
    /// Items in the list after the append.
    pub length: usize,
    /// Oldest items dropped to honour `max_items`.
    pub dropped: usize,
    /// The stored entry, with its `_created_at`.
    pub entry: Value,
}

/// A skill id is 1–64 characters of `a-z`, `0-9` and `-`.
pub fn validate_skill_id(id: &str) -> Result<()> {
    let ok = !id.is_empty()
        && id.len() <= 64
        && id.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-');
    if ok {
        Ok(())
    } else {
        Err(StoreError::invalid(format!(
            "invalid skill id \"{id}\": use 1-64 characters of a-z, 0-9 and '-' (e.g. \"lifecoach\")"
        )))
    }
}

fn validate_section(section: &str) -> Result<()> {
    if section.is_empty() || section.contains('.') {
        return Err(StoreError::invalid(format!(
            "invalid section \"{section}\": give one top-level key such as \"goals\" (no dots)"
        )));
    }
    if section.starts_with('_') {
        return Err(StoreError::invalid(format!(
            "section \"{section}\" is reserved (names starting with '_' are managed by VibeLife)"
        )));
    }
    Ok(())
}

impl Store {
    /// A skill's saved state, optionally only some sections.
    pub fn read_state(&self, user: &str, skill: &str, sections: Option<&[String]>) -> Result<StateRead> {
        validate_skill_id(skill)?;
        let doc = self.profile(user)?;
        let all = doc.get("skills").and_then(|s| s.get(skill)).cloned().unwrap_or(Value::Null);
        let data: Map<String, Value> = match (all, sections) {
            (Value::Object(map), None) => map,
            (Value::Object(map), Some(wanted)) => {
                map.into_iter().filter(|(k, _)| wanted.iter().any(|w| w == k)).collect()
            }
            _ => Map::new(),
        };
        let has_content = data.keys().any(|k| k != "_meta");
        Ok(StateRead {
            status: if has_content { StateStatus::Success } else { StateStatus::Empty },
            skill_id: skill.to_string(),
            data: Value::Object(data),
        })
    }

    /// Deep-merge `data` (a JSON object) into `skills.<skill>.<section>`.
    pub fn write_state(&self, user: &str, skill: &str, section: &str, data: Value) -> Result<()> {
        validate_skill_id(skill)?;
        validate_section(section)?;
        if !data.is_object() {
            return Err(StoreError::invalid(format!(
                "write_state data must be a JSON object (it is merged into section \"{section}\"), got {}; \
                 wrap it, e.g. {{\"value\": ...}}",
                type_name(&data)
            )));
        }
        self.write_tx(|tx| {
            let mut doc = profile::load(tx, user)?;
            let skill_map = ensure_object_path(&mut doc, &["skills", skill], "skills")?;
            let slot = skill_map.entry(section.to_string()).or_insert_with(|| Value::Object(Map::new()));
            deep_merge(slot, data);
            profile::touch_skill(&mut doc, skill)?;
            profile::save(tx, user, &doc)
        })?;
        self.cache.invalidate(user, &format!("skills.{skill}.{section}"));
        Ok(())
    }

    /// Put `entry` (a JSON object) first in the list at `path` under `skills.<skill>`, stamped
    /// with `_created_at`; keep at most `max_items`, dropping the oldest.
    pub fn append_to_list(
        &self,
        user: &str,
        skill: &str,
        path: &str,
        entry: Value,
        max_items: usize,
    ) -> Result<AppendOutcome> {
        validate_skill_id(skill)?;
        let segments = parse_dotted(path, "list path")?;
        if segments[0].starts_with('_') {
            return Err(StoreError::invalid(format!(
                "list path \"{path}\" is reserved (names starting with '_' are managed by VibeLife)"
            )));
        }
        if max_items == 0 {
            return Err(StoreError::invalid("max_items must be at least 1"));
        }
        let Value::Object(mut entry) = entry else {
            return Err(StoreError::invalid(format!(
                "append_to_list entry must be a JSON object, got {}; wrap it, e.g. {{\"text\": ...}}",
                type_name(&entry)
            )));
        };
        entry.insert("_created_at".into(), Value::String(clock::now_rfc3339()));
        let entry = Value::Object(entry);
        let (parents, last) = segments.split_at(segments.len() - 1);
        let outcome = self.write_tx(|tx| {
            let mut doc = profile::load(tx, user)?;
            let mut full: Vec<&str> = vec!["skills", skill];
            full.extend_from_slice(parents);
            let parent = ensure_object_path(&mut doc, &full, path)?;
            let list = parent.entry(last[0].to_string()).or_insert_with(|| Value::Array(Vec::new()));
            let Value::Array(items) = list else {
                return Err(StoreError::invalid(format!(
                    "cannot append to \"{path}\" of skill {skill}: it holds {}, not a list; \
                     choose another path or remove it with write_state (null)",
                    type_name(list)
                )));
            };
            items.insert(0, entry.clone());
            let dropped = items.len().saturating_sub(max_items);
            items.truncate(max_items);
            let length = items.len();
            profile::touch_skill(&mut doc, skill)?;
            profile::save(tx, user, &doc)?;
            Ok(AppendOutcome { skill_id: skill.into(), path: path.into(), length, dropped, entry })
        })?;
        self.cache.invalidate(user, &format!("skills.{skill}.{path}"));
        Ok(outcome)
    }
}
