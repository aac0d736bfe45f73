//! Where the app keeps its data ([`AppPaths`]), what a front end overrides at open
//! ([`Overrides`]: the person's command-line flags and the environment's `VIBE_LLM_*`,
//! `VIBE_DB_PASSPHRASE` and `VIBE_MODELS_CATALOG`), and what tests, evals and benchmarks put
//! in place of what the settings describe ([`Injections`]: a ready model, budgets, memory
//! triggers, a protocol clock), which front ends cannot set. Reading settings is
//! `settings.rs`'s; folding all of them into the value in force is `assembly.rs`'s.

use std::path::PathBuf;
use std::sync::Arc;

use vibe_llm::{ApiKey, ChatModel};

/// The desktop app's bundle identifier; its data dir is `<OS data dir>/<identifier>`.
pub const APP_IDENTIFIER: &str = "app.vibelife.desktop";
/// The database file inside the data dir.
pub const DB_FILE: &str = "vibe.db";
/// The database passphrase, for a data dir encrypted with one (read by front ends).
pub const DB_PASSPHRASE_ENV: &str = "VIBE_DB_PASSPHRASE";
/// The settings file inside the data dir.
pub const SETTINGS_FILE: &str = "settings.json";

/// The data dir: database, settings, runs and user skills.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AppPaths {
    pub data_dir: PathBuf,
}

impl AppPaths {
    pub fn new(data_dir: impl Into<PathBuf>) -> Self {
        Self { data_dir: data_dir.into() }
    }

    /// The desktop app's data dir for this OS user (shared by the CLI and the app).
    pub fn os_default() -> Self {
        Self::new(dirs::data_dir().unwrap_or_else(|| PathBuf::from(".")).join(APP_IDENTIFIER))
    }

    pub fn db(&self) -> PathBuf {
        self.data_dir.join(DB_FILE)
    }

    pub fn settings_file(&self) -> PathBuf {
        self.data_dir.join(SETTINGS_FILE)
    }
}

/// Which front end opened the app: the undo history records the changes it makes (without a
/// model's run) as this one's.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum FrontEnd {
    /// The desktop app (and tests, evals, benchmarks).
    #[default]
    App,
    /// The `vibe` command line.
    Cli,
}

/// What the person and the environment set over `settings.json`. `Overrides::default()`
/// overrides nothing and reads no environment (tests); front ends start from
/// [`Overrides::from_env`].
#[derive(Clone, Default)]
pub struct Overrides {
    /// The endpoint's base URL (its preset is then detected from it).
    pub base_url: Option<String>,
    /// The model name.
    pub model_name: Option<String>,
    /// An API key that wins over the keychain (`VIBE_LLM_API_KEY`).
    pub api_key: Option<ApiKey>,
    /// An extra skills folder with the highest precedence.
    pub skills_dir: Option<PathBuf>,
    /// Seed for random draws (tarot), for reproducible runs.
    pub seed: Option<u64>,
    /// A long-lived host (the desktop app, a REPL): run folders are made ahead of turns and
    /// skill folders are watched.
    pub long_lived: bool,
    /// The database passphrase (`VIBE_DB_PASSPHRASE`, or asked for by a front end): used when
    /// the data dir is encrypted with a passphrase, and chooses that mode for a new one.
    pub db_passphrase: Option<zeroize::Zeroizing<String>>,
    /// Create a new data dir's database without encryption (an explicit choice).
    pub no_encryption: bool,
    /// Who the changes made through this app are recorded as.
    pub front_end: FrontEnd,
    /// Where the model catalogue is read from (`VIBE_MODELS_CATALOG`: a path or URL), over
    /// the settings' `models.catalog`.
    pub models_catalog: Option<String>,
    /// The sync key as its recovery code (`VIBE_SYNC_CODE`), used instead of the keychain's
    /// (a machine without a keychain; tests); at `sync setup`, the key the new target gets.
    pub sync_code: Option<zeroize::Zeroizing<String>>,
    /// The sync target's password or secret key (`VIBE_SYNC_PASSWORD`, else
    /// `VIBE_SYNC_SECRET_KEY`), used instead of the keychain's; kept in the keychain at setup
    /// or join when there is one (a machine without a keychain gives it on every run).
    pub sync_secret: Option<zeroize::Zeroizing<String>>,
}

/// What tests, evals and benchmarks put in place of what the settings describe. No front end
/// can set it: an app opens with it only through the crate's own evals and benchmarks, and,
/// for test harnesses, through `App::open_injected` (the `test-support` feature).
#[derive(Clone, Default)]
pub struct Injections {
    /// A ready model instead of the one the settings describe.
    pub model: Option<Arc<dyn ChatModel>>,
    /// Budgets instead of the settings' `chat.budgets` (evals).
    pub budgets: Option<vibe_agent::agent::Budgets>,
    /// When memory extraction runs by itself, instead of the settings' `chat.memory`
    /// (benchmarks and tests whose scripts answer the turns only).
    pub memory: Option<vibe_agent::memory::MemorySettings>,
    /// The clock protocols (and protocol tools) read instead of the system's: tests and evals
    /// simulate idle gaps and times of day with it.
    pub protocol_clock: Option<vibe_protocol::Clock>,
    /// Limits of the MCP connections (timeouts, result cap) instead of the defaults: tests
    /// of a server that never answers do not wait a minute.
    pub mcp_limits: Option<vibe_mcp::Limits>,
    /// Wraps the embedded engine's model (before the structured-action adapter) when the
    /// settings choose the `local` preset: `vibe bench local` times and records each request
    /// the engine gets, the window and saved states staying the settings' own.
    pub local_wrap: Option<LocalWrap>,
}

/// See [`Injections::local_wrap`].
pub type LocalWrap = Arc<dyn Fn(Arc<dyn ChatModel>) -> Arc<dyn ChatModel> + Send + Sync>;

impl std::fmt::Debug for Injections {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Injections")
            .field("model", &self.model.as_ref().map(|m| m.model_name().to_string()))
            .field("budgets", &self.budgets)
            .field("memory", &self.memory)
            .field("protocol_clock", &self.protocol_clock.as_ref().map(|_| "injected"))
            .field("mcp_limits", &self.mcp_limits)
            .field("local_wrap", &self.local_wrap.as_ref().map(|_| "injected"))
            .finish()
    }
}

impl Overrides {
    /// `VIBE_LLM_BASE_URL`, `VIBE_LLM_MODEL` and `VIBE_LLM_API_KEY` from the process
    /// environment (empty values ignored).
    pub fn from_env() -> Self {
        Self::from_env_with(|k| std::env::var(k).ok())
    }

    /// As [`Overrides::from_env`], reading variables through `get`.
    pub fn from_env_with(get: impl Fn(&str) -> Option<String>) -> Self {
        let value = |k: &str| get(k).map(|v| v.trim().to_string()).filter(|v| !v.is_empty());
        Self {
            base_url: value(vibe_llm::BASE_URL_ENV),
            model_name: value(vibe_llm::MODEL_ENV),
            api_key: value(vibe_llm::API_KEY_ENV).map(ApiKey::new),
            // Not trimmed: spaces may be part of a passphrase.
            db_passphrase: get(DB_PASSPHRASE_ENV)
                .filter(|v| !v.is_empty())
                .map(zeroize::Zeroizing::new),
            models_catalog: value(vibe_models::CATALOG_ENV),
            sync_code: value(crate::app::sync::SYNC_CODE_ENV).map(zeroize::Zeroizing::new),
            // Not trimmed: spaces may be part of a password.
            sync_secret: crate::app::sync_target::SECRET_ENVS
                .iter()
                .find_map(|k| get(k).filter(|v| !v.is_empty()))
                .map(zeroize::Zeroizing::new),
            ..Self::default()
        }
    }
}

impl std::fmt::Debug for Overrides {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Overrides")
            .field("base_url", &self.base_url.as_deref().map(vibe_llm::redact_url))
            .field("model_name", &self.model_name)
            .field("api_key", &self.api_key)
            .field("skills_dir", &self.skills_dir)
            .field("seed", &self.seed)
            .field("long_lived", &self.long_lived)
            .field("db_passphrase", &self.db_passphrase.as_ref().map(|_| "***"))
            .field("no_encryption", &self.no_encryption)
            .field("front_end", &self.front_end)
            .field("models_catalog", &self.models_catalog.as_deref().map(vibe_llm::redact_url))
            .field("sync_code", &self.sync_code.as_ref().map(|_| "***"))
            .field("sync_secret", &self.sync_secret.as_ref().map(|_| "***"))
            .finish()
    }
}
