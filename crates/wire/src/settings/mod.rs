//! The settings document (`settings.json` in the data folder) and every one of its sections, as
//! plain serde types with their defaults: what `get_settings` shows and what the file holds, in
//! one shape for the core, the CLI and the UI (whose TypeScript types are generated from
//! these). Reading the file, refusing unknown keys with the file and key named, applying
//! changes and writing atomically belong to the core (`vibe_core::app::settings`); what a
//! section means (resolving the endpoint, the script limits, the skill roots, validation
//! beyond types) belongs to the crate that uses it. Secrets are never here: the API key lives
//! in the keychain or the environment.

mod backups;
mod chat;
mod context;
mod llm;
mod mcp;
mod models;
mod preferences;
mod skills;
mod storage;
mod sync;
mod time_of_day;
mod tools;

use serde::{Deserialize, Serialize};

pub use backups::BackupSettings;
pub use chat::{Budgets, ChatSettings, MemorySettings, ProtocolSettings};
pub use context::{ContextLimits, HistoryMode};
pub use llm::{LlmSettings, LocalSettings};
pub use mcp::{McpSandbox, McpServer, McpSettings};
pub use models::ModelsSettings;
pub use preferences::{Language, OnClose, Preferences, QuietHours, ReminderSettings, UpdateChecks};
pub use skills::SkillsSettings;
pub use storage::StorageSettings;
pub use sync::{SyncSettings, SyncTarget};
pub use time_of_day::TimeOfDay;
pub use tools::ToolsSettings;

/// Everything `settings.json` holds, every section optional in the file (absent: its
/// defaults). The API key is never here (keychain or environment).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(default)]
pub struct Settings {
    /// The model endpoint (docs/llm.md, "Settings").
    pub llm: LlmSettings,
    /// Skill folders (docs/skills.md).
    pub skills: SkillsSettings,
    /// Limits of skill scripts (docs/tools.md).
    pub tools: ToolsSettings,
    /// Budgets, context limits, protocol rules, memory extraction.
    pub chat: ChatSettings,
    /// How the front ends look and speak, and how reminders reach the person.
    pub preferences: Preferences,
    /// How the database is encrypted (docs/privacy.md).
    pub storage: StorageSettings,
    /// Automatic backups (docs/privacy.md, "Automatic backups").
    pub backups: BackupSettings,
    /// Local models: where the catalogue comes from (docs/models.md).
    pub models: ModelsSettings,
    /// Sync through storage the person already has (docs/sync.md).
    pub sync: SyncSettings,
    /// Connected MCP servers (docs/mcp.md); secret values are in the keychain.
    pub mcp: McpSettings,
}

impl Settings {
    /// The sections, in the file's order.
    pub const SECTIONS: [&'static str; 10] = [
        "llm",
        "skills",
        "tools",
        "chat",
        "preferences",
        "storage",
        "backups",
        "models",
        "sync",
        "mcp",
    ];
}

#[cfg(test)]
#[path = "settings_tests.rs"]
mod tests;
