//! VibeLife skills: folders holding a `SKILL.md` (YAML frontmatter + Markdown), found in roots
//! of descending precedence (project > user > built-in), indexed by frontmatter only, with
//! bodies, rules, scenarios, cases, tools, prompts and resources loaded on demand (scoped to the skill
//! folder, size-capped, cached until the file changes), validated with `path:line:col`
//! findings, watched for changes, and searched for matching cases. Prompt building, tool
//! execution and protocol semantics do not belong here (agent and protocol crates).
//!
//! Start with [`Registry::open`]; authors' checks are [`check_path`].

mod cache;
mod cases;
mod check;
mod discover;
mod error;
mod frontmatter;
mod fsio;
mod index;
mod meta;
mod meta_parse;
mod name;
mod parts;
mod problem;
mod protocol;
mod refresh;
mod registry;
mod registry_parts;
mod resources;
mod roots;
mod scaffold;
mod scan;
mod watch;
mod yaml;
mod yaml_read;
mod yaml_repair;

pub use cases::CaseMatch;
pub use check::{CheckReport, CheckedSkill, check_path};
pub use discover::SKILL_FILE;
pub use error::{Result, SkillsError};
pub use index::{BrokenSkill, Shadowed, SkillEntry};
pub use meta::{ComputeType, Ethics, HistoryLimits, ListDecl, Persona, SkillMeta, VoiceMode};
pub use meta_parse::{MAX_COMPATIBILITY, MAX_DESCRIPTION, PROFILE_ROOTS};
pub use name::{MAX_NAME_LEN, check_name};
pub use parts::PartKind;
pub use parts::cases::Case;
pub use parts::prompts::{LocalText, MAX_PROMPT_CHARS, MAX_STARTERS, PromptsSpec};
pub use parts::protocols::ProtocolSource;
pub use parts::rules::Rule;
pub use parts::scenarios::Scenario;
pub use parts::tools::{
    BUILTIN_TOOLS, DeclaredTool, McpToolRef, ToolRef, ToolsSpec, declared_mcp_tools,
};
pub use problem::{Pos, Problem, Severity, has_errors};
pub use protocol::{
    CompletionTarget, Field, FieldLabel, FieldType, PROTOCOL_SCHEMA, Protocol, Reminder,
    ReportSection, ReportTemplate, Step, parse_protocol_def,
};
pub use registry::{Registry, RegistryStats};
pub use registry_parts::PartsPresent;
pub use resources::{Resource, ResourceInfo, ResourceKind};
pub use roots::{
    BUILTIN_DIR_ENV, DEFAULT_MAX_RESOURCE_BYTES, RegistryConfig, Root, RootKind, SkillsSettings,
    builtin_dir,
};
pub use scaffold::new_skill;
pub use vibe_wire::{Event, SkillsChange, SkillsChangeKind};
pub use watch::DEBOUNCE;
