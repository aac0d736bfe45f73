//! The phase-2 prompt (docs/design.md#phase-2): gathers the active skill's parts — expert persona
//! and body, persona mode, voice mode, rules or the chosen scenario, ethics, matched cases, the
//! declared profile fields and the skill's own state — plus the protocol prompt, the compaction
//! summary and the language rule. Fitting them to the budget is `trim`; the section order and the
//! trim order are documented there and in docs/context.md.

use std::collections::HashMap;
use std::sync::Arc;

use serde_json::Value;
use vibe_skills::{SkillEntry, SkillMeta, VoiceMode};
use vibe_store::SkillView;

use super::memory::{EXTRACTED, MEMORY_PREFERENCE, memory_switch, memory_value};
use super::render::at_path;
use super::texts;
use super::trim::Parts;
use super::{BuiltPrompt, ContextBuilder, PromptRequest};
use crate::ContextError;

/// The profile path of the voice-mode preference.
const VOICE_PREFERENCE: &str = "preferences.voice_mode";

/// The protocol prompt as a section: verbatim, under a heading unless it has one.
pub(crate) fn protocol_text(protocol: &str) -> String {
    let protocol = protocol.trim();
    if protocol.starts_with('#') {
        protocol.to_string()
    } else {
        format!("{}\n{protocol}", texts::PROTOCOL_HEADING)
    }
}

/// The persona-mode section: the requested persona, else the skill's first.
fn persona_mode(
    meta: &SkillMeta,
    requested: Option<&str>,
    notices: &mut Vec<String>,
) -> Option<String> {
    let first = meta.personas.first()?;
    let chosen = match requested {
        None => first,
        Some(id) => meta.personas.iter().find(|p| p.id == id).unwrap_or_else(|| {
            let known: Vec<&str> = meta.personas.iter().map(|p| p.id.as_str()).collect();
            notices.push(format!(
                "persona: `{id}` is not a persona of {} (known: {}); using {}",
                meta.name,
                known.join(", "),
                first.id
            ));
            first
        }),
    };
    Some(format!("## 当前人格：{}\n{}", chosen.id, chosen.description.trim()))
}

/// The voice mode: requested, else the profile's preference, else warm; limited to the ones
/// the skill allows.
pub(super) fn voice_mode(
    meta: &SkillMeta,
    requested: Option<VoiceMode>,
    view: &SkillView,
    notices: &mut Vec<String>,
) -> VoiceMode {
    let preferred = || {
        let text = at_path(&view.profile, VOICE_PREFERENCE).and_then(Value::as_str)?;
        let mode = VoiceMode::parse(text.trim());
        if mode.is_none() {
            notices.push(format!(
                "voice: profile voice mode `{text}` is unknown (use warm, direct or playful)"
            ));
        }
        mode
    };
    let mut mode = requested.or_else(preferred).unwrap_or(VoiceMode::Warm);
    if !meta.voice_modes.is_empty() && !meta.voice_modes.contains(&mode) {
        let fallback = meta.voice_modes[0];
        notices.push(format!(
            "voice: {} does not use the {} voice; using {}",
            meta.name,
            mode.as_str(),
            fallback.as_str()
        ));
        mode = fallback;
    }
    mode
}

/// What memory gives a declared `extracted` field.
enum Remembered {
    /// The memory switch is off: the field is left out of the prompt.
    Off,
    /// The remembered items that fit the budget.
    Value(Value),
}

/// Whether a declared profile field is a memory path (`extracted` or under it).
fn is_memory_field(field: &str) -> bool {
    field == EXTRACTED || field.starts_with("extracted.")
}

impl ContextBuilder {
    /// The declared `extracted` fields from memory (docs/memory.md): left out when the memory
    /// switch is off; else the remembered items, newest and most confident first, within
    /// `memory_tokens`. A field memory has nothing for keeps the profile's own value.
    fn memory(
        &self,
        user: &str,
        meta: &SkillMeta,
        view: &SkillView,
    ) -> Result<HashMap<String, Remembered>, ContextError> {
        let fields: Vec<&String> =
            meta.profile_fields.iter().filter(|f| is_memory_field(f)).collect();
        let mut out = HashMap::new();
        if fields.is_empty() {
            return Ok(out);
        }
        if !memory_switch(&view.profile) || self.limits.memory_tokens == 0 {
            for f in fields {
                out.insert(f.clone(), Remembered::Off);
            }
            return Ok(out);
        }
        let items = self.store.memory_items(user, None)?;
        let mut budget = self.budget(self.limits.memory_tokens);
        for f in fields {
            if let Some(v) = memory_value(&items, f, &mut budget, self.tk) {
                out.insert(f.clone(), Remembered::Value(v));
            }
        }
        Ok(out)
    }

    /// The skill's declared profile fields and state, through the store's cache.
    pub(super) fn view(
        &self,
        user: &str,
        meta: &SkillMeta,
    ) -> Result<Arc<SkillView>, ContextError> {
        let mut fields: Vec<&str> = meta.profile_fields.iter().map(String::as_str).collect();
        for extra in [VOICE_PREFERENCE, MEMORY_PREFERENCE] {
            if !fields.contains(&extra) {
                fields.push(extra);
            }
        }
        Ok(self.store.skill_view(user, &meta.name, &fields)?)
    }

    pub(super) fn phase2(
        &self,
        req: &PromptRequest<'_>,
        entry: &SkillEntry,
    ) -> Result<BuiltPrompt, ContextError> {
        let meta = &entry.meta;
        let name = meta.name.as_str();
        let title = meta.expert_persona.as_deref().unwrap_or(name);
        let build = || super::statics::build(&self.skills, self.tk, name, title, req.scenario);
        let statics = match req.run {
            Some(run) => run.statics((name, title, req.scenario), build)?,
            None => build()?,
        };
        let mut notices = statics.notices.clone();
        let view = self.view(req.user, meta)?;
        let own_state = format!("skills.{name}");
        let memory = self.memory(req.user, meta, &view)?;
        let profile: Vec<(String, Option<Value>)> = meta
            .profile_fields
            .iter()
            .filter(|f| **f != own_state && !f.starts_with(&format!("{own_state}.")))
            .filter_map(|f| match memory.get(f) {
                Some(Remembered::Off) => None,
                Some(Remembered::Value(v)) => Some((f.clone(), Some(v.clone()))),
                None => Some((f.clone(), at_path(&view.profile, f).cloned())),
            })
            .collect();
        let cases = match (self.limits.cases_top_k, req.user_message.trim()) {
            (0, _) | (_, "") => Arc::new(Vec::new()),
            (k, message) => {
                let k = k as usize;
                let matched = || super::cases::matched(&self.skills, name, message, k);
                match req.run {
                    Some(run) => run.cases((name, message, k), matched)?,
                    None => matched()?,
                }
            }
        };
        let ethics = (!meta.ethics.forbidden.is_empty()).then(|| {
            let lines: Vec<String> =
                meta.ethics.forbidden.iter().map(|f| format!("- {}", f.trim())).collect();
            format!("{}\n{}", texts::ETHICS_HEADING, lines.join("\n"))
        });
        let parts = Parts {
            persona_mode: persona_mode(meta, req.persona, &mut notices),
            voice: texts::voice_text(voice_mode(meta, req.voice_mode, &view, &mut notices)),
            statics,
            ethics,
            cases,
            profile,
            state_path: own_state,
            view,
            protocol: req.protocol_prompt.filter(|p| !p.trim().is_empty()).map(protocol_text),
            summary: req.summary.map(str::trim).filter(|s| !s.is_empty()).map(str::to_string),
        };
        Ok(self.fit_phase2(&parts, req.tools, name, notices))
    }
}
