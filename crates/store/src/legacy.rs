//! Legacy profile shapes (docs/design.md#legacy-shapes), migrated on open and on import:
//! `skill_data.X` → `skills.X`, and `life_context._paths.X.content` merged into `skills.X`.
//! Nothing is dropped: where a legacy value conflicts with a current one, the current one wins
//! and the legacy one is kept under `skills.X._meta.legacy_conflicts`; unknown keys stay.
//! Running it twice changes nothing the second time.

use serde_json::{Map, Value};

/// Migrate `doc` in place; returns whether anything changed.
pub fn migrate_legacy_profile(doc: &mut Value) -> bool {
    let Some(root) = doc.as_object_mut() else { return false };
    let mut changed = false;

    if let Some(skill_data) = root.remove("skill_data") {
        changed = true;
        match skill_data {
            Value::Object(map) => {
                for (skill, value) in map {
                    fill_skill(root, &skill, value, None);
                }
            }
            other if other.is_null() => {}
            other => {
                // Not the documented shape: keep it rather than guess.
                root.insert("skill_data_unmigrated".into(), other);
            }
        }
    }

    if let Some(Value::Object(life_context)) = root.get_mut("life_context")
        && let Some(paths) = life_context.remove("_paths")
    {
        changed = true;
        let empty_now = life_context.is_empty();
        if empty_now {
            root.remove("life_context");
        }
        match paths {
            Value::Object(paths) => {
                for (skill, entry) in paths {
                    migrate_path_entry(root, &skill, entry);
                }
            }
            other => {
                let lc = root.entry("life_context").or_insert_with(|| Value::Object(Map::new()));
                if let Some(lc) = lc.as_object_mut() {
                    lc.insert("_paths".into(), other);
                }
            }
        }
    }
    changed
}

/// One `life_context._paths.X` entry: `{content, version, updated_at, ...}`.
fn migrate_path_entry(root: &mut Map<String, Value>, skill: &str, entry: Value) {
    let Value::Object(mut entry) = entry else {
        fill_skill(root, skill, Value::Object(Map::from_iter([("content".into(), entry)])), None);
        return;
    };
    let content = entry.remove("content").unwrap_or(Value::Object(Map::new()));
    let mut meta = Map::new();
    if let Some(updated) = entry.remove("updated_at") {
        meta.insert("updated_at".into(), updated);
    }
    // Everything else the entry carried (version, ...) is kept in `_meta.legacy`.
    if !entry.is_empty() {
        meta.insert("legacy".into(), Value::Object(entry));
    }
    fill_skill(root, skill, content, Some(meta));
}

/// Merge `legacy` into `skills.<skill>`, the current value winning on conflict.
fn fill_skill(
    root: &mut Map<String, Value>,
    skill: &str,
    legacy: Value,
    meta: Option<Map<String, Value>>,
) {
    let skills = root.entry("skills").or_insert_with(|| Value::Object(Map::new()));
    if !skills.is_object() {
        let previous = std::mem::replace(skills, Value::Object(Map::new()));
        root.insert("skills_unmigrated".into(), previous);
    }
    let Some(skills) = root.get_mut("skills").and_then(Value::as_object_mut) else { return };
    let target = skills.entry(skill.to_string()).or_insert_with(|| Value::Object(Map::new()));
    let mut conflicts = Map::new();
    match legacy {
        Value::Object(legacy) => {
            if let Value::Object(target) = target {
                fill_map(target, legacy, "", &mut conflicts);
            } else {
                conflicts.insert("".into(), Value::Object(legacy));
            }
        }
        other => {
            conflicts.insert("".into(), other);
        }
    }
    let Some(target) = target.as_object_mut() else { return };
    let meta_value = target.entry("_meta").or_insert_with(|| Value::Object(Map::new()));
    if let Value::Object(meta_map) = meta_value {
        for (k, v) in meta.into_iter().flatten() {
            meta_map.entry(k).or_insert(v);
        }
        if !conflicts.is_empty() {
            let slot =
                meta_map.entry("legacy_conflicts").or_insert_with(|| Value::Object(Map::new()));
            if let Value::Object(slot) = slot {
                slot.extend(conflicts);
            }
        }
        if meta_map.is_empty() {
            target.remove("_meta");
        }
    }
}

/// Copy `source` into `target` where `target` has nothing; recurse into objects present in
/// both; record other clashes (by dotted path) in `conflicts` when the values differ.
fn fill_map(
    target: &mut Map<String, Value>,
    source: Map<String, Value>,
    prefix: &str,
    conflicts: &mut Map<String, Value>,
) {
    for (key, value) in source {
        let path = if prefix.is_empty() { key.clone() } else { format!("{prefix}.{key}") };
        match target.get_mut(&key) {
            None => {
                target.insert(key, value);
            }
            Some(Value::Object(existing)) if value.is_object() => {
                if let Value::Object(value) = value {
                    fill_map(existing, value, &path, conflicts);
                }
            }
            Some(existing) => {
                if *existing != value {
                    conflicts.insert(path, value);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn skill_data_and_life_context_paths_move_under_skills() {
        let mut doc = json!({
            "account": {"vibe_id": "v1"},
            "skill_data": {"bazi": {"chart": {"day": "甲子"}}, "zodiac": {"chart": {"sun": "leo"}}},
            "life_context": {
                "_paths": {"lifecoach": {"content": {"north_star": {"vision": "自由"}, "journal": [{"t": 1}]}, "version": 3, "updated_at": "2026-01-01T00:00:00Z"}},
                "notes": "kept"
            },
            "custom": {"x": 1}
        });
        assert!(migrate_legacy_profile(&mut doc));
        assert_eq!(doc["skills"]["bazi"]["chart"]["day"], "甲子");
        assert_eq!(doc["skills"]["zodiac"]["chart"]["sun"], "leo");
        assert_eq!(doc["skills"]["lifecoach"]["north_star"]["vision"], "自由");
        assert_eq!(doc["skills"]["lifecoach"]["journal"][0]["t"], 1);
        assert_eq!(doc["skills"]["lifecoach"]["_meta"]["updated_at"], "2026-01-01T00:00:00Z");
        assert_eq!(doc["skills"]["lifecoach"]["_meta"]["legacy"]["version"], 3);
        assert_eq!(doc["life_context"], json!({"notes": "kept"}));
        assert_eq!(doc["custom"], json!({"x": 1}));
        assert!(doc.get("skill_data").is_none());
    }

    #[test]
    fn migration_is_idempotent() {
        let mut doc = json!({"skill_data": {"bazi": {"chart": 1}}, "life_context": {"_paths": {"lifecoach": {"content": {"a": 1}}}}});
        migrate_legacy_profile(&mut doc);
        let once = doc.clone();
        assert!(!migrate_legacy_profile(&mut doc));
        assert_eq!(doc, once);
    }

    #[test]
    fn current_values_win_and_legacy_conflicts_are_kept() {
        let mut doc = json!({
            "skills": {"bazi": {"chart": {"day": "new", "keep": 1}}},
            "skill_data": {"bazi": {"chart": {"day": "old", "extra": 2}}}
        });
        migrate_legacy_profile(&mut doc);
        assert_eq!(doc["skills"]["bazi"]["chart"], json!({"day": "new", "keep": 1, "extra": 2}));
        assert_eq!(doc["skills"]["bazi"]["_meta"]["legacy_conflicts"]["chart.day"], "old");
    }
}
