//! Finding protocol definitions across skills: by id (optionally within one skill) and the
//! list of every valid protocol. A protocol file with errors is not found (it is disabled;
//! `vibe skills check` says why).

use std::sync::Arc;

use serde::Serialize;
use vibe_skills::{ProtocolSource, Registry};

use super::error::ProtocolError;

/// One protocol as listed by `vibe protocol list`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ProtocolInfo {
    pub skill: String,
    pub id: String,
    pub version: u32,
    pub title: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub title_en: Option<String>,
    pub description: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub estimated_time: Option<String>,
    pub steps: usize,
}

/// Every valid protocol of every usable skill, by skill then file name.
pub(crate) fn list(skills: &Registry) -> Vec<ProtocolInfo> {
    let mut out = Vec::new();
    for entry in skills.skills() {
        let Ok(protocols) = skills.protocols(&entry.name) else { continue };
        for p in protocols {
            out.push(ProtocolInfo {
                skill: entry.name.clone(),
                id: p.id.clone(),
                version: p.def.version,
                title: p.def.title.clone(),
                title_en: p.def.title_en.clone(),
                description: p.def.description.clone(),
                estimated_time: p.def.estimated_time.clone(),
                steps: p.def.steps.len(),
            });
        }
    }
    out
}

/// The protocol `id`, in `skill` when given, else in the one skill that defines it.
pub(crate) fn find(
    skills: &Registry,
    skill: Option<&str>,
    id: &str,
) -> Result<(String, Arc<ProtocolSource>), ProtocolError> {
    if let Some(skill) = skill {
        return match skills.protocol(skill, id) {
            Ok(p) => Ok((skill.to_string(), p)),
            Err(vibe_skills::SkillsError::UnknownPart { .. }) => {
                Err(ProtocolError::UnknownProtocol { id: id.to_string() })
            }
            Err(e) => Err(e.into()),
        };
    }
    let mut found = Vec::new();
    for entry in skills.skills() {
        if let Ok(p) = skills.protocol(&entry.name, id) {
            found.push((entry.name.clone(), p));
        }
    }
    match found.len() {
        0 => Err(ProtocolError::UnknownProtocol { id: id.to_string() }),
        1 => Ok(found.remove(0)),
        _ => Err(ProtocolError::Ambiguous {
            id: id.to_string(),
            skills: found.iter().map(|(s, _)| s.as_str()).collect::<Vec<_>>().join(", "),
        }),
    }
}
