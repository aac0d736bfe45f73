//! [`AppError`]: every error a command of the app can end in, with a typed kind and the
//! data a hint needs ([`vibe_wire::command::Hint`]). Messages say what is wrong and where;
//! they never name a front end's flag, command or screen — each front end words its hint
//! from [`AppError::hint`].

use std::path::PathBuf;

use vibe_llm::LlmError;
use vibe_protocol::ProtocolError;
use vibe_skills::SkillsError;
use vibe_store::StoreError;
use vibe_wire::command::{CommandError, Hint};
use vibe_wire::{ErrorInfo, ErrorKind};

use crate::CoreError;
use vibe_runlog::RunLogError;

#[derive(Debug, thiserror::Error)]
pub enum AppError {
    /// A settings key is unknown, of the wrong type, or out of range.
    #[error("{}: {message}", file.display())]
    Settings { file: PathBuf, key: Option<String>, message: String },
    /// The settings file is not valid JSON.
    #[error("{}:{line}:{column}: invalid JSON in settings: {message} (fix the file or delete it to use the defaults)", file.display())]
    SettingsJson { file: PathBuf, line: usize, column: usize, message: String },
    /// Reading or writing the settings file failed.
    #[error("cannot read or write {}: {err}", path.display())]
    SettingsIo { path: PathBuf, err: std::io::Error },
    /// The data dir cannot be created.
    #[error("cannot create the data folder {}: {err}", path.display())]
    DataDir { path: PathBuf, err: std::io::Error },
    /// The endpoint's base URL cannot be used.
    #[error(
        "the model endpoint {base_url:?} {problem}; set llm.base_url to the server's address, e.g. http://127.0.0.1:11434/v1"
    )]
    BadEndpoint { base_url: String, problem: String },
    /// The endpoint needs a model name and none is set.
    #[error("no model is set for {preset} ({base_url}); set llm.model to one the server offers")]
    NoModel { base_url: String, preset: String },
    /// A retry was asked for without a conversation.
    #[error("a retry needs the conversation whose last message to answer again")]
    NeedsConversation,
    /// The database is encrypted with a passphrase and none was given.
    #[error(
        "the database in {} is encrypted with a passphrase; give the passphrase to open it",
        data_dir.display()
    )]
    PassphraseNeeded { data_dir: PathBuf },
    /// No key can be had for the database, and encryption was not turned off explicitly.
    #[error(
        "no key for the database in {}: {why}. Make an OS keychain available, give a \
         passphrase, or turn encryption off explicitly for a new data folder (nothing was \
         written)",
        data_dir.display()
    )]
    NoDatabaseKey { data_dir: PathBuf, why: String },
    /// The keychain could not store or remove a key.
    #[error("{0}")]
    Keychain(String),
    /// A chart cannot be computed from the profile's `birth_info` (`field` is dotted).
    #[error("{err}")]
    BirthInfo { field: String, err: CoreError },
    /// A report cannot be written (no CJK font for a PDF, a font that cannot be used).
    #[error("{0}")]
    Report(String),
    /// Memory is off, so a pass would read nothing.
    #[error("memory is off, so nothing is extracted")]
    MemoryOff,
    /// A request the app refuses; the message says what to change.
    #[error("{0}")]
    InvalidInput(String),
    #[error(transparent)]
    Llm(#[from] LlmError),
    /// A call to the endpoint at `base_url` failed.
    #[error("{err}")]
    Model { base_url: String, err: LlmError },
    #[error(transparent)]
    Core(#[from] CoreError),
    /// The shipped safety rules cannot be used (a broken build, not the person's input).
    #[error(transparent)]
    Safety(#[from] vibe_agent::safety::SafetyError),
    /// A file or folder of the data dir (or an export or backup) cannot be read, written or
    /// removed; `what` says which and what was (not) done.
    #[error("{what}: {err}")]
    Files { what: String, err: std::io::Error },
    /// A backup cannot be made, checked or restored.
    #[error(transparent)]
    Backup(#[from] crate::backup::BackupError),
    /// A local model cannot be listed, downloaded, added, removed or used.
    #[error(transparent)]
    Models(#[from] vibe_models::ModelsError),
    /// Sync cannot be set up, joined or run (docs/sync.md).
    #[error(transparent)]
    Sync(#[from] vibe_sync::SyncError),
    /// An MCP server cannot be started, reached or used (docs/mcp.md, "Troubleshooting").
    #[error(transparent)]
    Mcp(#[from] vibe_mcp::McpError),
}

impl From<StoreError> for AppError {
    fn from(e: StoreError) -> Self {
        Self::Core(CoreError::Store(e))
    }
}

impl From<SkillsError> for AppError {
    fn from(e: SkillsError) -> Self {
        Self::Core(CoreError::Skills(e))
    }
}

impl From<vibe_context::ContextError> for AppError {
    fn from(e: vibe_context::ContextError) -> Self {
        Self::Core(CoreError::from(e))
    }
}

impl From<RunLogError> for AppError {
    fn from(e: RunLogError) -> Self {
        Self::Core(CoreError::from(e))
    }
}

impl AppError {
    /// Stable snake_case kind (as `ErrorInfo.kind`).
    pub fn kind(&self) -> ErrorKind {
        match self {
            Self::Settings { .. } | Self::SettingsJson { .. } => ErrorKind::Settings,
            Self::SettingsIo { .. } | Self::DataDir { .. } => ErrorKind::Io,
            Self::BadEndpoint { .. } | Self::NoModel { .. } => ErrorKind::Config,
            Self::NeedsConversation | Self::InvalidInput(_) | Self::MemoryOff => {
                ErrorKind::InvalidInput
            }
            Self::Keychain(_) => ErrorKind::Keychain,
            Self::PassphraseNeeded { .. } => ErrorKind::PassphraseNeeded,
            Self::NoDatabaseKey { .. } => ErrorKind::NoDatabaseKey,
            Self::Llm(e) | Self::Model { err: e, .. } => e.kind(),
            Self::Core(e) | Self::BirthInfo { err: e, .. } => e.kind(),
            Self::Safety(_) => ErrorKind::Internal,
            Self::Report(_) | Self::Files { .. } => ErrorKind::Io,
            Self::Backup(e) => e.kind(),
            Self::Models(e) => models_kind(e),
            Self::Sync(e) => sync_kind(e),
            Self::Mcp(e) => mcp_kind(e),
        }
    }

    /// The data a front end's hint needs, when a fix exists.
    pub fn hint(&self) -> Option<Hint> {
        let file = |f: &PathBuf| f.display().to_string();
        match self {
            Self::Settings { file: f, key: Some(key), .. } => {
                Some(Hint::Setting { key: key.clone(), file: file(f) })
            }
            Self::Settings { file: f, key: None, .. } | Self::SettingsJson { file: f, .. } => {
                Some(Hint::SettingsFile { file: file(f) })
            }
            Self::SettingsIo { .. } => None,
            Self::DataDir { path, .. } => Some(Hint::DataDir { path: file(path) }),
            Self::BadEndpoint { base_url, .. } => {
                Some(Hint::Endpoint { base_url: base_url.clone() })
            }
            Self::NoModel { base_url, .. } => {
                Some(Hint::ChooseModel { base_url: base_url.clone() })
            }
            Self::NeedsConversation => Some(Hint::NeedsConversation),
            Self::Keychain(_) => Some(Hint::Keychain),
            Self::PassphraseNeeded { data_dir } => {
                Some(Hint::DbPassphrase { data_dir: file(data_dir) })
            }
            Self::NoDatabaseKey { data_dir, .. } => Some(Hint::DbKey { data_dir: file(data_dir) }),
            Self::InvalidInput(_) => None,
            Self::MemoryOff => Some(Hint::MemoryOff),
            Self::BirthInfo { field, .. } => Some(Hint::BirthInfo { field: field.clone() }),
            Self::Llm(_) => None,
            Self::Model { base_url, err } => match err {
                LlmError::Auth { .. } => Some(Hint::ApiKey { base_url: base_url.clone() }),
                LlmError::Network { .. } | LlmError::Timeout { .. } => {
                    Some(Hint::Endpoint { base_url: base_url.clone() })
                }
                _ => None,
            },
            Self::Core(e) => core_hint(e),
            Self::Safety(_) | Self::Report(_) | Self::Files { .. } => None,
            Self::Backup(crate::backup::BackupError::Store(e)) => store_hint(e),
            Self::Backup(_) => None,
            Self::Models(
                vibe_models::ModelsError::UnknownModel { id, .. }
                | vibe_models::ModelsError::NotInstalled { id, .. },
            ) => Some(Hint::LocalModel { id: id.clone() }),
            Self::Models(_) => None,
            Self::Sync(vibe_sync::SyncError::Store(e)) => store_hint(e),
            Self::Sync(_) => None,
            Self::Mcp(_) => None,
        }
    }

    pub fn to_error_info(&self) -> ErrorInfo {
        ErrorInfo::new(self.kind(), self.to_string())
    }

    /// The error as it crosses to a front end.
    pub fn to_command_error(&self) -> CommandError {
        CommandError { error: self.to_error_info(), hint: self.hint() }
    }
}

fn mcp_kind(e: &vibe_mcp::McpError) -> ErrorKind {
    use vibe_mcp::McpError as E;
    match e {
        E::Config { .. } | E::CommandNotFound { .. } | E::OldSse { .. } => ErrorKind::Config,
        E::TimedOut { .. } => ErrorKind::Timeout,
        E::Malformed { .. } | E::TooManyTools { .. } => ErrorKind::Protocol,
        E::Server { .. } => ErrorKind::Server,
        E::Http { .. } => ErrorKind::Network,
        E::Start { .. } | E::Crashed { .. } | E::ResultTooLarge { .. } | E::Cancelled { .. } => {
            ErrorKind::ToolFailed
        }
    }
}

fn models_kind(e: &vibe_models::ModelsError) -> ErrorKind {
    use vibe_models::ModelsError as E;
    match e {
        E::Catalog { .. } => ErrorKind::Config,
        E::UnknownModel { .. } | E::NotInstalled { .. } => ErrorKind::NotFound,
        E::BadId { .. } | E::AlreadyInstalled { .. } | E::NotGguf { .. } | E::BadGguf { .. } => {
            ErrorKind::InvalidInput
        }
        E::NoSpace { .. } | E::DiskFull { .. } => ErrorKind::NoSpace,
        E::ChecksumMismatch { .. } | E::SizeMismatch { .. } => ErrorKind::ChecksumMismatch,
        E::HttpStatus { .. } => ErrorKind::Server,
        E::Network { .. } => ErrorKind::Network,
        E::Cancelled { .. } => ErrorKind::Cancelled,
        E::Busy { .. } => ErrorKind::Busy,
        E::Io { .. } => ErrorKind::Io,
    }
}

fn core_hint(e: &CoreError) -> Option<Hint> {
    match e {
        CoreError::RunLog(RunLogError::RunNotFound { run_id, .. }) => {
            Some(Hint::Run { id: run_id.clone() })
        }
        CoreError::Store(e) => store_hint(e),
        CoreError::Skills(e) => skills_hint(e),
        CoreError::Protocol(e) => protocol_hint(e),
        _ => None,
    }
}

fn store_hint(e: &StoreError) -> Option<Hint> {
    match e {
        StoreError::NoSuchConversation(id) => Some(Hint::Conversation { id: id.clone() }),
        StoreError::NoSuchProtocolRun(id) => Some(Hint::ProtocolRun { id: id.clone() }),
        StoreError::NoSuchMemoryItem(id) => Some(Hint::MemoryItem { id: id.clone() }),
        StoreError::NewerSchema { path, .. } | StoreError::Storage { path, .. } => {
            Some(Hint::DataDir { path: path.display().to_string() })
        }
        _ => None,
    }
}

fn skills_hint(e: &SkillsError) -> Option<Hint> {
    match e {
        SkillsError::UnknownSkill { name } => Some(Hint::Skill { name: name.clone() }),
        SkillsError::ResourceNotFound { skill, .. } => {
            Some(Hint::SkillResource { skill: skill.clone() })
        }
        _ => None,
    }
}

fn protocol_hint(e: &ProtocolError) -> Option<Hint> {
    match e {
        ProtocolError::UnknownProtocol { id } => Some(Hint::Protocol { id: id.clone() }),
        ProtocolError::Ambiguous { id, .. } => Some(Hint::ProtocolSkill { id: id.clone() }),
        ProtocolError::NoActiveRun { skill } => Some(Hint::ProtocolStart { skill: skill.clone() }),
        ProtocolError::Store(e) => store_hint(e),
        ProtocolError::Skills(e) => skills_hint(e),
        ProtocolError::UnknownReminder { .. } => None,
    }
}

/// The hint of any error of the layers below the app (or of the app itself), found by type:
/// for front ends that reach the store, skills or protocol engine without a wire command.
pub fn hint_of(e: &(dyn std::error::Error + 'static)) -> Option<Hint> {
    if let Some(e) = e.downcast_ref::<AppError>() {
        return e.hint();
    }
    if let Some(e) = e.downcast_ref::<CoreError>() {
        return core_hint(e);
    }
    if let Some(e) = e.downcast_ref::<ProtocolError>() {
        return protocol_hint(e);
    }
    if let Some(e) = e.downcast_ref::<StoreError>() {
        return store_hint(e);
    }
    e.downcast_ref::<SkillsError>().and_then(skills_hint)
}

impl From<AppError> for CommandError {
    fn from(e: AppError) -> Self {
        e.to_command_error()
    }
}

fn sync_kind(e: &vibe_sync::SyncError) -> ErrorKind {
    use vibe_sync::SyncError as E;
    match e {
        E::BadCode { .. }
        | E::WrongKey { .. }
        | E::NotSetUp(_)
        | E::TargetInUse(_)
        | E::BadTarget { .. }
        | E::Twin { .. } => ErrorKind::InvalidInput,
        E::Denied { .. } => ErrorKind::Auth,
        E::Tampered { .. } | E::Truncated { .. } | E::Replayed { .. } | E::Removed { .. } => {
            ErrorKind::CorruptData
        }
        E::Unreachable { .. } | E::Local(_) => ErrorKind::Io,
        E::Store(e) => e.kind(),
    }
}
