//! What a skill's frontmatter says, as typed data ([`SkillMeta`]): the Agent Skills fields and
//! the VibeLife extensions. Parsing and validating the YAML into it is `meta_parse`.

use std::collections::BTreeMap;
use std::fmt;

use serde::Serialize;

/// The frontmatter of one SKILL.md.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SkillMeta {
    /// Equal to the folder name (see [`crate::check_name`]).
    pub name: String,
    /// What the skill does and when to use it (1–1024 characters).
    pub description: String,
    pub license: Option<String>,
    /// Environment requirements (1–500 characters).
    pub compatibility: Option<String>,
    /// Free key → value pairs for tools and authors.
    pub metadata: BTreeMap<String, String>,
    /// Tools the skill may use (space-separated in the file, or a list).
    #[serde(rename = "allowed-tools")]
    pub allowed_tools: Vec<String>,
    /// When true the model never activates the skill on its own.
    #[serde(rename = "disable-model-invocation")]
    pub disable_model_invocation: bool,
    /// When false the person cannot pick the skill directly (default true).
    #[serde(rename = "user-invocable")]
    pub user_invocable: bool,

    /// Profile paths this skill's prompt receives (`birth_info`, `skills.bazi`, `extracted`).
    pub profile_fields: Vec<String>,
    /// Ask for birth date/time/place before anything else.
    pub requires_birth_info: bool,
    /// A chart of `compute_type` must be computed before answering.
    pub requires_compute: bool,
    pub compute_type: Option<ComputeType>,
    /// The expert identity used as the phase-2 prompt title.
    pub expert_persona: Option<String>,
    /// Alternative voices of the skill (e.g. `future_self`, `coach`), in file order.
    pub personas: Vec<Persona>,
    /// Allowed voice modes; empty means all.
    pub voice_modes: Vec<VoiceMode>,
    /// Words that hint at this skill in the phase-1 catalog.
    pub triggers: Vec<String>,
    pub ethics: Ethics,
    /// Scenario (file stem under `scenarios/`) used when none is chosen.
    pub default_scenario: Option<String>,
    pub history: HistoryLimits,
    /// The skill's declared lists in its state (dotted path → declaration), e.g. a cap on
    /// `moods`. A list not declared here has no cap (issue 28).
    pub lists: BTreeMap<String, ListDecl>,
}

/// What a skill declares about one list of its state.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct ListDecl {
    /// Keep at most this many entries. An append at the cap still asks the person before it
    /// drops the oldest.
    pub max_items: Option<u32>,
}

/// A chart the app can compute from `birth_info`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ComputeType {
    /// Four pillars (八字).
    Bazi,
    /// Sun and moon signs.
    Zodiac,
}

impl ComputeType {
    pub const ALL: [ComputeType; 2] = [ComputeType::Bazi, ComputeType::Zodiac];

    pub fn as_str(self) -> &'static str {
        match self {
            Self::Bazi => "bazi",
            Self::Zodiac => "zodiac",
        }
    }

    pub fn parse(s: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|c| c.as_str() == s)
    }
}

impl fmt::Display for ComputeType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// How the coach sounds (the wire's kind, so a conversation's mode and a skill's list agree).
pub use vibe_wire::VoiceMode;

/// One persona of a skill.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Persona {
    /// `a-z`, `0-9`, `_`, `-` (e.g. `future_self`).
    pub id: String,
    pub description: String,
}

/// Ethical limits the prompt states.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Ethics {
    /// Things the skill must never do (e.g. medical diagnoses).
    pub forbidden: Vec<String>,
}

/// How much chat history the skill wants in phase 2.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct HistoryLimits {
    pub max_messages: Option<u32>,
    pub max_tokens: Option<u32>,
}
