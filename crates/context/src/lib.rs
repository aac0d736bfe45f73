//! The context of a model call (docs/design.md#two-phase-context, #history, #compaction): the
//! phase-1 and phase-2 system prompts within their token budgets, the history window from the
//! database, and compaction of older turns into a stored summary. Running the loop, executing tools
//! and persisting messages belong to the agent and chat modules. The rules are in docs/context.md.

mod calibration;
mod cases;
mod catalog;
mod compact;
mod digest;
mod error;
mod history;
mod limits;
mod memory;
mod o200k;
mod phase1;
mod phase2;
mod render;
mod run_parts;
mod sections;
mod statics;
mod texts;
mod tokenizer;
mod tool_forms;
mod trim;

#[cfg(test)]
mod fixtures;
#[cfg(test)]
mod history_tests;
#[cfg(test)]
mod phase1_tests;
#[cfg(test)]
mod phase2_tests;
#[cfg(test)]
mod snapshot_tests;

use std::sync::Arc;

use vibe_llm::ToolDef;
use vibe_skills::{Registry, SkillsError};
use vibe_store::Store;
use vibe_wire::{Phase, PromptBudget, SectionTokens};

pub use calibration::{corrected, next_calibration, scaled_budget};
pub use catalog::USE_SKILL;
pub use compact::{Compaction, SUMMARIES_OFF};
pub use error::ContextError;
pub use history::{History, INTERRUPTED_NOTE, Window};
pub use limits::{ContextLimits, ContextLimitsExt, HistoryMode, MIN_CONTEXT_WINDOW};
pub use memory::{EXTRACTED, MEMORY_PREFERENCE, memory_switch, memory_value};
pub use phase1::FLAG_WELLBEING_CONCERN;
pub use run_parts::RunParts;
pub use tokenizer::{MESSAGE_OVERHEAD, TOOL_OVERHEAD, Tokenizer, TokenizerStats};

/// What a system prompt is built from. The builder reads everything else (skill files, the
/// declared profile fields, the skill's state) itself, fresh for every call — except the parts
/// a run's calls share ([`RunParts`]), read once per run.
#[derive(Debug, Clone, Copy, Default)]
pub struct PromptRequest<'a> {
    /// The user whose profile is read (`vibe_store::LOCAL_USER`).
    pub user: &'a str,
    /// The active skill; `None` builds the phase-1 prompt.
    pub active_skill: Option<&'a str>,
    /// The chosen scenario of the skill (replaces its rules in the prompt).
    pub scenario: Option<&'a str>,
    /// The conversation's mode; else the profile's `preferences.voice_mode`; else warm.
    pub voice_mode: Option<vibe_wire::VoiceMode>,
    /// A persona id of the skill (e.g. `future_self`); else the skill's first.
    pub persona: Option<&'a str>,
    /// The person's latest message (ranks the catalog, matches cases).
    pub user_message: &'a str,
    /// The protocol engine's prompt for the current step; never trimmed.
    pub protocol_prompt: Option<&'a str>,
    /// The conversation's compaction summary.
    pub summary: Option<&'a str>,
    /// Phase-2 tool definitions (from the tools registry). Ignored in phase 1, where the
    /// builder offers `use_skill` itself.
    pub tools: &'a [ToolDef],
    /// The parts this run's earlier calls built, reused by this one; `None` builds all.
    pub run: Option<&'a RunParts>,
}

/// A system prompt ready to send.
#[derive(Debug, Clone, PartialEq)]
pub struct BuiltPrompt {
    pub phase: Phase,
    /// The skill the prompt was built for (`None` in phase 1, also when the requested skill
    /// is no longer installed — see `notices`).
    pub skill: Option<String>,
    /// The text of `messages[0]`: only the sections that stay the same from turn to turn
    /// (docs/local-model.md, "Prompt order"), so that it and the tool definitions after it
    /// are a prefix the model's cache (or a provider's prompt cache) can keep.
    pub system: String,
    /// The tool definitions to offer.
    pub tools: Vec<ToolDef>,
    /// The sections that change from turn to turn (matched cases, profile and memory, the
    /// skill's state, the protocol or safety section, the summary), wrapped to ride with the
    /// latest user message ([`BuiltPrompt::user_content`]); `None` when there are none.
    pub turn: Option<String>,
    /// Tokens by section, in prompt order: the system prompt's sections, the tool definitions
    /// (`tools`, or `catalog` in phase 1), then the turn's sections. They add up to
    /// `prompt_tokens`.
    pub sections: Vec<SectionTokens>,
    /// System prompt + tool definitions + the turn's sections.
    pub prompt_tokens: u32,
    /// What was shortened or left out, in words for people (for the `model_request` event).
    pub notices: Vec<String>,
}

impl BuiltPrompt {
    /// All the prompt's text, without the tool definitions: the system prompt, then the
    /// turn's sections (for counting and checking; a request sends them apart).
    pub fn text(&self) -> String {
        match &self.turn {
            Some(turn) => format!("{}\n\n{turn}", self.system),
            None => self.system.clone(),
        }
    }

    /// The content of the latest user message as sent: the turn's sections (when there are
    /// any) before the person's own words.
    pub fn user_content(&self, message: &str) -> String {
        match &self.turn {
            Some(turn) => format!("{turn}\n\n{message}"),
            None => message.to_string(),
        }
    }
}

/// Builds prompts and history windows. Cheap to share behind an `Arc`.
pub struct ContextBuilder {
    store: Arc<Store>,
    skills: Arc<Registry>,
    limits: ContextLimits,
    tk: &'static Tokenizer,
    /// The token correction of the model budgets are for ([`ContextBuilder::calibrated_for`]).
    calibrator: Option<calibration::Calibrator>,
}

impl ContextBuilder {
    /// A builder over the store and the skill registry. Fails when `limits` are out of range
    /// (the message names the setting) or the tokenizer cannot load.
    pub fn new(
        store: Arc<Store>,
        skills: Arc<Registry>,
        limits: ContextLimits,
    ) -> Result<Self, ContextError> {
        limits.validate()?;
        Ok(Self { store, skills, limits, tk: Tokenizer::shared()?, calibrator: None })
    }

    /// Budget for `model`: its stored token correction (docs/context.md, "Calibration")
    /// scales the prompt and history budgets, and [`ContextBuilder::calibrate`] learns from
    /// each request.
    pub fn calibrated_for(mut self, model: &str) -> Result<Self, ContextError> {
        self.calibrator = Some(calibration::Calibrator::load(&self.store, model)?);
        Ok(self)
    }

    /// Reported prompt tokens per estimated token of the model, once it has reported usage.
    pub fn token_factor(&self) -> Option<f64> {
        self.calibrator.as_ref().and_then(calibration::Calibrator::factor)
    }

    /// Learn from one request: `estimate` tokens were sent by this builder's count, the
    /// server reported `reported`. Returns the factor now in force (`None`: none learnt yet,
    /// or the builder is not calibrated for a model).
    pub fn calibrate(&self, estimate: u32, reported: u64) -> Result<Option<f64>, ContextError> {
        let Some(c) = &self.calibrator else { return Ok(None) };
        Ok(c.record(&self.store, estimate, reported)?.map(|c| c.factor))
    }

    /// A budget of `budget` model tokens in this builder's (estimated) tokens.
    pub(crate) fn budget(&self, budget: u32) -> u32 {
        calibration::scaled_budget(budget, self.token_factor())
    }

    pub fn limits(&self) -> &ContextLimits {
        &self.limits
    }

    /// The budget `phase`'s requests are fitted to, for the `model_request` event: the
    /// context window, the phase's prompt budget (in the model's tokens, as set) and the
    /// reply reserve.
    pub fn prompt_budget(&self, phase: Phase) -> PromptBudget {
        let l = &self.limits;
        PromptBudget {
            context_window: l.max_context_tokens,
            prompt_budget: match phase {
                Phase::Phase1 => l.phase1_prompt_tokens,
                Phase::Phase2 => l.phase2_prompt_tokens,
            },
            reply_reserve: l.reply_reserve_tokens,
        }
    }

    /// The process-wide tokenizer the builder counts with.
    pub fn tokenizer(&self) -> &'static Tokenizer {
        self.tk
    }

    /// The system prompt and tools for the next model call: phase 1 without an active skill,
    /// phase 2 with one. Call it before every model call — it reads current state, and only
    /// the parts that changed are tokenised again.
    pub fn system_prompt(&self, req: &PromptRequest<'_>) -> Result<BuiltPrompt, ContextError> {
        let Some(name) = req.active_skill else {
            return self.phase1(req, Vec::new());
        };
        match self.skills.skill(name) {
            Ok(entry) => self.phase2(req, &entry),
            Err(SkillsError::UnknownSkill { .. }) => {
                let notice = format!(
                    "skill: `{name}` is no longer installed; back to the skill catalog (phase 1)"
                );
                self.phase1(req, vec![notice])
            }
            Err(e) => Err(e.into()),
        }
    }
}
