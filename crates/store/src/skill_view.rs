//! A skill's view of the person's profile: the parts of the profile the skill declared
//! (`profile_fields`) and the skill's own state, read in one transaction on every call. A cache of
//! these views (keyed per user and skill, invalidated by the paths a write touched, by another
//! process's writes and a 5-minute TTL) once sat here; the turn benchmark showed no measurable
//! cost without it (docs/performance.md, "Caches measured"), so every read is fresh.

use std::sync::Arc;

use serde::Serialize;
use serde_json::{Map, Value};

use crate::Store;
use crate::error::Result;
use crate::json_path::parse_dotted;
use crate::skill_rows::validate_skill_id;

/// What a skill sees of the profile.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SkillView {
    pub skill: String,
    /// Only the declared profile fields, at their usual place (`{"birth_info": {...}}`).
    pub profile: Value,
    /// `skills.<skill>`: the skill's own state.
    pub state: Value,
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
    /// `skills.bazi`, `extracted`) and the skill's own state.
    pub fn skill_view(&self, user: &str, skill: &str, fields: &[&str]) -> Result<Arc<SkillView>> {
        validate_skill_id(skill)?;
        let mut skills: Vec<String> = fields
            .iter()
            .filter_map(|d| d.strip_prefix("skills."))
            .map(|rest| rest.split('.').next().unwrap_or(rest).to_string())
            .chain(std::iter::once(skill.to_string()))
            .collect();
        skills.sort();
        skills.dedup();
        let doc = self.read_tx(|tx| crate::profile::assemble_with(tx, user, &skills))?;
        let mut profile = Value::Object(Map::new());
        for field in fields {
            pick(&doc, field, &mut profile);
        }
        let state = doc
            .get("skills")
            .and_then(|s| s.get(skill))
            .cloned()
            .unwrap_or(Value::Object(Map::new()));
        Ok(Arc::new(SkillView { skill: skill.to_string(), profile, state }))
    }
}
