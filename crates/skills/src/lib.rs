//! VibeLife skills: folders holding a `SKILL.md` (YAML frontmatter + Markdown), found in roots
//! of descending precedence (project > user > built-in), indexed by frontmatter only, with
//! bodies, rules, scenarios, cases, tools and resources loaded on demand (scoped to the skill
//! folder, size-capped, cached until the file changes), validated with `path:line:col`
//! findings, watched for changes, and searched for matching cases. Prompt building, tool
//! execution and protocol semantics do not belong here (agent and protocol crates).

mod error;
mod frontmatter;
mod fsio;
mod meta;
mod meta_parse;
mod name;
mod parts;
mod problem;
mod yaml;
mod yaml_read;
mod yaml_repair;

pub use error::{Result, SkillsError};
pub use meta::{ComputeType, Ethics, HistoryLimits, Persona, SkillMeta, VoiceMode};
pub use name::{MAX_NAME_LEN, check_name};
pub use parts::PartKind;
pub use parts::cases::Case;
pub use parts::protocols::ProtocolSource;
pub use parts::rules::Rule;
pub use parts::scenarios::Scenario;
pub use parts::tools::{BUILTIN_TOOLS, DeclaredTool, ToolRef, ToolsSpec};
pub use problem::{Pos, Problem, Severity, has_errors};
