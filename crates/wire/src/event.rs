//! The one event enum. Serialised as a JSON object with a snake_case `type` tag; an
//! [`Envelope`] adds `run_id`, `seq` and `ts`. The same JSON goes down the Tauri channel, out of
//! `vibe chat --json` and into `events.jsonl`.

use serde::{Deserialize, Serialize};

/// An event with its place in a run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Envelope {
    /// The run this event belongs to (empty for notices outside any run).
    pub run_id: String,
    /// Increasing within a run, starting at 0.
    pub seq: u64,
    /// RFC 3339 UTC timestamp.
    pub ts: String,
    #[serde(flatten)]
    pub event: Event,
}

/// Every event the core emits.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Event {
    /// The skill registry saw skills added, changed or removed on disk.
    SkillsChanged { changes: Vec<SkillsChange> },
}

/// One change the skill registry noticed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SkillsChange {
    /// Skill name (folder name).
    pub name: String,
    /// What happened to it.
    pub change: SkillsChangeKind,
    /// For `invalid`: the findings as `path:line:col: message` lines.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub problems: Vec<String>,
}

/// The kind of a [`SkillsChange`], serialised as `added`, `changed`, `removed` or `invalid`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SkillsChangeKind {
    /// A new skill is usable.
    Added,
    /// A usable skill's files changed (frontmatter, body or a part), or it is valid again.
    Changed,
    /// The skill is gone (or no longer usable and no earlier version is kept).
    Removed,
    /// The skill's SKILL.md or a part is broken; the last good version (if any) stays in use.
    Invalid,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn events_serialise_with_snake_case_type_and_envelope_fields() {
        let env = Envelope {
            run_id: "r1".into(),
            seq: 3,
            ts: "2026-01-01T00:00:00Z".into(),
            event: Event::SkillsChanged {
                changes: vec![SkillsChange {
                    name: "bazi".into(),
                    change: SkillsChangeKind::Changed,
                    problems: vec![],
                }],
            },
        };
        let v = serde_json::to_value(&env).unwrap_or_default();
        assert_eq!(v["type"], "skills_changed");
        assert_eq!(v["run_id"], "r1");
        assert_eq!(v["seq"], 3);
        assert_eq!(v["changes"][0]["name"], "bazi");
        assert_eq!(v["changes"][0]["change"], "changed");
        assert!(v["changes"][0].get("problems").is_none());
        let back: Envelope = serde_json::from_value(v).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(back, env);
    }
}
