//! The error of every command: the error itself ([`ErrorInfo`]: a kind and one line) and,
//! when a fix exists, the data a front end needs to word its own hint ([`Hint`]). The core
//! never words a hint for a particular front end: the CLI names a flag or a command, the
//! desktop app names a screen.

use serde::{Deserialize, Serialize};

use crate::ErrorInfo;

/// What failed, and what the fix is about.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct CommandError {
    pub error: ErrorInfo,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hint: Option<Hint>,
}

/// The data a hint needs. Each front end decides how to say it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Hint {
    /// A setting is wrong or missing: `key` is dotted (`llm.model`), `file` the settings file.
    Setting { key: String, file: String },
    /// The settings file cannot be read as JSON.
    SettingsFile { file: String },
    /// No model answers at `base_url` (down, unreachable, wrong address).
    Endpoint { base_url: String },
    /// The endpoint needs a model name; `base_url` can list them.
    ChooseModel { base_url: String },
    /// The endpoint refused the API key (or none is stored for it).
    ApiKey { base_url: String },
    /// The OS keychain cannot be used on this machine.
    Keychain,
    /// A retry needs a conversation to retry in.
    NeedsConversation,
    /// The turn can be retried in this conversation (the message is saved).
    RetryTurn { conversation_id: String },
    /// No such conversation.
    Conversation { id: String },
    /// No such run (or no recorded events for it).
    Run { id: String },
    /// No such skill.
    Skill { name: String },
    /// The data folder cannot be created or written, or is of a newer VibeLife.
    DataDir { path: String },
    /// A skill has no such resource file.
    SkillResource { skill: String },
    /// No protocol of this id (or it is disabled by errors in its skill's files).
    Protocol { id: String },
    /// Several skills define this protocol: the skill must be named.
    ProtocolSkill { id: String },
    /// The skill has no active protocol run: start or resume one.
    ProtocolStart { skill: String },
    /// No such protocol run.
    ProtocolRun { id: String },
    /// No memory item has this id (or it was forgotten).
    MemoryItem { id: String },
    /// Memory is off, so nothing is extracted: turn it on first.
    MemoryOff,
    /// The profile's `birth_info` (or `field` in it, dotted) is missing or wrong: set it.
    BirthInfo { field: String },
    /// The database needs its passphrase (ask for it, or give `VIBE_DB_PASSPHRASE`).
    DbPassphrase { data_dir: String },
    /// The database has no usable key: use the keychain, give a passphrase, or turn encryption
    /// off explicitly for this data folder.
    DbKey { data_dir: String },
    /// No local model of this id (in the catalogue, or installed): list them.
    LocalModel { id: String },
}
