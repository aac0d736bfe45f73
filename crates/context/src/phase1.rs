//! The phase-1 prompt (docs/design.md#phase-1): no active skill, so the light core persona in
//! the conversation's voice, a short note on `use_skill`, the wellbeing instruction, the language rule, the `use_skill`
//! tool carrying the skill catalog and the `flag_wellbeing_concern` tool; and, riding with the
//! latest user message, the protocol prompt and the compaction summary when there are any —
//! all within the phase-1 budget. No profile, cases or SOP.

use vibe_llm::ToolDef;
use vibe_skills::{SkillsError, VoiceMode};
use vibe_wire::{Phase, SectionTokens};

use super::catalog;
use super::phase2::voice_mode;
use super::render::head_and_tail;
use super::sections::{
    Section, join, join_turn, measure, seam_slack, section_tokens, tools_tokens,
    turn_wrapper_tokens,
};
use super::texts;
use super::{BuiltPrompt, ContextBuilder, PromptRequest};
use crate::ContextError;

/// The wellbeing tool's name (`flag_wellbeing_concern`; also in `vibe_skills::BUILTIN_TOOLS`):
/// the phase-1 prompt offers it beside `use_skill`. Running it is the tools module's.
pub const FLAG_WELLBEING_CONCERN: &str = "flag_wellbeing_concern";

/// `use_connection` (also in `vibe_skills::BUILTIN_TOOLS`): offered beside `use_skill` when
/// MCP servers are connected; its definition carries their catalogue.
pub const USE_CONNECTION: &str = "use_connection";

/// A tool the phase-1 prompt passes on from the offered set: `use_connection` and the tools
/// of connected MCP servers (`mcp__SERVER__TOOL`).
fn is_connection_tool(name: &str) -> bool {
    name == USE_CONNECTION || name.starts_with("mcp__")
}

/// Share of the phase-1 budget the core persona may take before it is cut.
const PERSONA_SHARE: u32 = 60;
/// Share of the phase-1 budget the compaction summary may take.
const SUMMARY_SHARE: u32 = 20;

impl ContextBuilder {
    /// The core persona: the `core` skill's body (titled by its expert persona when the body
    /// has no title of its own), or the built-in fallback when the skill is missing.
    fn core_persona(&self) -> Result<String, ContextError> {
        let entry = match self.skills.skill("core") {
            Ok(entry) => entry,
            Err(SkillsError::UnknownSkill { .. }) => return Ok(texts::FALLBACK_PERSONA.to_string()),
            Err(e) => return Err(e.into()),
        };
        let body = self.skills.body("core")?;
        let body = body.trim();
        if body.is_empty() {
            return Ok(texts::FALLBACK_PERSONA.to_string());
        }
        Ok(super::statics::titled(body, entry.meta.expert_persona.as_deref().unwrap_or("Vibe")))
    }

    /// The voice of the core persona: the conversation's mode, else the profile's preference,
    /// else warm, limited to the modes `core` allows (as phase 2 does for a skill).
    fn core_voice(
        &self,
        req: &PromptRequest<'_>,
        notices: &mut Vec<String>,
    ) -> Result<VoiceMode, ContextError> {
        match self.skills.skill("core") {
            Ok(entry) => {
                let view = self.view(req.user, &entry.meta)?;
                Ok(voice_mode(&entry.meta, req.voice_mode, &view, notices))
            }
            Err(SkillsError::UnknownSkill { .. }) => Ok(req.voice_mode.unwrap_or(VoiceMode::Warm)),
            Err(e) => Err(e.into()),
        }
    }

    pub(super) fn phase1(
        &self,
        req: &PromptRequest<'_>,
        mut notices: Vec<String>,
    ) -> Result<BuiltPrompt, ContextError> {
        let budget = self.budget(self.limits.phase1_prompt_tokens);
        let tk = self.tk;
        let mut persona = self.core_persona()?;
        let voice = self.core_voice(req, &mut notices)?;
        let persona_cap = budget * PERSONA_SHARE / 100;
        if tk.count(&persona) > persona_cap {
            persona = head_and_tail(tk, &persona, persona_cap);
            notices.push(format!(
                "persona: the core persona was cut to {persona_cap} tokens to fit {budget} tokens"
            ));
        }
        // What stays the same from turn to turn first (the system prompt); the protocol
        // section and the summary ride with the latest user message (docs/local-model.md).
        let sections = vec![
            Section::new("persona", persona),
            Section::new("voice", texts::voice_text(voice)),
            Section::new("tool_guide", texts::PHASE1_TOOLS),
            Section::new("wellbeing", texts::WELLBEING),
            Section::new("language", texts::LANGUAGE),
        ];
        let mut turn = Vec::new();
        if let Some(protocol) = req.protocol_prompt.filter(|p| !p.trim().is_empty()) {
            turn.push(Section::new("protocol", super::phase2::protocol_text(protocol)));
        }
        if let Some(summary) = req.summary.filter(|s| !s.trim().is_empty()) {
            let cap = (budget * SUMMARY_SHARE / 100).min(self.limits.summary_max_tokens);
            let shown = head_and_tail(tk, summary.trim(), cap);
            if shown.len() < summary.trim().len() {
                notices.push(format!(
                    "summary: shortened to its first and last lines to fit {budget} tokens"
                ));
            }
            turn.push(Section::new("summary", format!("{}\n{shown}", texts::SUMMARY_HEADING)));
        }
        // Counted section by section; the wrapper's tokens count with the turn's first section.
        let mut turn_counts = measure(tk, &turn, &[]).0;
        if let Some(first) = turn_counts.first_mut() {
            first.tokens += turn_wrapper_tokens(tk, turn.len());
        }
        let turn_tokens = turn_counts.iter().map(|c| c.tokens).sum::<u32>();
        // The wellbeing tool is offered in every phase (the tools registry puts it in the set).
        let wellbeing: Vec<ToolDef> =
            req.tools.iter().filter(|t| t.name == FLAG_WELLBEING_CONCERN).cloned().collect();
        let wellbeing_tokens = tools_tokens(tk, &wellbeing);
        // Connections (docs/mcp.md): `use_connection` with its catalogue, and the tools of the
        // connections opened this turn, after the app's own tools.
        let connections: Vec<ToolDef> =
            req.tools.iter().filter(|t| is_connection_tool(&t.name)).cloned().collect();
        let connections_tokens = tools_tokens(tk, &connections);
        let fixed: u32 =
            sections.iter().enumerate().map(|(i, s)| section_tokens(tk, s, i)).sum::<u32>()
                + seam_slack(sections.len())
                + wellbeing_tokens
                + connections_tokens
                + turn_tokens;
        let skills = self.skills.skills();
        let entries = catalog::entries(&skills, req.user_message);
        let base = req.tools.iter().find(|t| t.name == catalog::USE_SKILL);
        let fitted = catalog::fit(tk, &entries, budget.saturating_sub(fixed), budget, base);
        notices.extend(fitted.notices);
        let mut tools = vec![fitted.tool];
        let (mut counts, mut total) = measure(tk, &sections, &tools);
        if let Some(last) = counts.last_mut() {
            last.name = "catalog".to_string();
        }
        if !wellbeing.is_empty() {
            counts.push(SectionTokens { name: "tools".to_string(), tokens: wellbeing_tokens });
            total += wellbeing_tokens;
            tools.extend(wellbeing);
        }
        if !connections.is_empty() {
            counts.push(SectionTokens {
                name: "connections".to_string(),
                tokens: connections_tokens,
            });
            total += connections_tokens;
            tools.extend(connections);
        }
        total += turn_tokens;
        counts.extend(turn_counts);
        if total + seam_slack(sections.len()) > budget {
            notices.push(format!(
                "prompt: {total} tokens is over the {budget}-token phase-1 budget; the persona and the use_skill tool cannot be cut further"
            ));
        }
        Ok(BuiltPrompt {
            phase: Phase::Phase1,
            skill: None,
            system: join(&sections),
            tools,
            turn: join_turn(&turn),
            sections: counts,
            prompt_tokens: total,
            notices,
        })
    }
}
