//! The app facade (docs/architecture.md, "The boundary"): [`App`] is the one way a front end
//! (the CLI, the desktop shell, evals, benchmarks, test harnesses) opens VibeLife. It owns the
//! settings (`settings.rs`) and what they resolve to with the overrides (`assembly.rs`), the
//! assembly of store, skills, model and chat service from it, recovery
//! at open, and implements the wire commands (`vibe_wire::command`) in one file per area. It
//! never prints, parses command lines or words a front end's hints (`AppError::hint` carries
//! the data; each front end says it its own way).

mod answers;
mod api_key;
mod assembly;
mod auto_backup;
mod backup;
mod chart;
mod commands;
mod conversations;
mod database;
mod dbkey;
mod dto;
mod endpoint;
mod erase;
mod error;
mod eval;
mod eval_run;
mod export;
mod history;
mod insights;
mod insights_series;
mod insights_words;
mod journal;
mod journal_safety;
mod local_model;
mod mcp;
mod mcp_agent;
mod mcp_config;
mod mcp_offers;
mod memory;
mod models;
mod paths;
mod place;
mod profile;
mod protocol;
mod run_key;
mod runs;
mod safety;
mod safety_model;
mod secrets;
mod settings;
mod skills;
mod state;
mod streak;
mod sync;
mod sync_runner;
mod sync_target;
mod today;
mod turns;
pub mod updates;
mod warm_up;

use std::sync::{Arc, Mutex, PoisonError, RwLock};

use vibe_context::ContextLimitsExt;
use vibe_llm::LlmSettingsExt;
use vibe_skills::Registry;
use vibe_store::{Recovery, Store};
use vibe_wire::command::{SettingChange, SettingsView, UpdateSettingsRequest};

use vibe_agent::agent::PendingApprovals;
use vibe_agent::chat::ChatService;

pub use assembly::Assembly;
pub use auto_backup::{AUTO_BACKUP_EVERY, BackupSettings};
pub use dbkey::{Encryption, StorageSettings, account as db_key_account, open_database};
pub use endpoint::check_probe_tools;
pub use error::{AppError, hint_of};
pub use local_model::{MODELS_DIR, local_model_file};
pub use models::LOCAL_PRESET;
pub use paths::{
    APP_IDENTIFIER, AppPaths, DB_FILE, DB_PASSPHRASE_ENV, FrontEnd, Injections, LocalWrap,
    Overrides, SETTINGS_FILE,
};
pub use secrets::{EphemeralKeys, KeyStore, OsKeychain};
pub use settings::{Language, Preferences, Settings, SettingsFile};
pub use sync::SYNC_CODE_ENV;
pub use sync_runner::{Schedule, SyncTiming, run_in_background as run_sync_in_background};
pub use turns::LiveRuns;
/// What opening the data folder upgraded (`App::upgraded`): the schema versions, the old file kept.
pub use vibe_store::Upgrade;

/// One open VibeLife: `Send + Sync`, shared behind an `Arc` by every task of a front end.
pub struct App {
    paths: AppPaths,
    overrides: Overrides,
    injections: Injections,
    store: Arc<Store>,
    keys: Arc<dyn KeyStore>,
    /// The settings, the document they were read from, and what they resolve to.
    settings: RwLock<Loaded>,
    /// The skill registry, reopened when the `skills` section changes.
    skills: RwLock<Arc<Registry>>,
    /// The chat service, built at the first turn from the assembly and dropped when settings
    /// or keys change.
    service: Mutex<Option<Arc<ChatService>>>,
    /// The connected MCP servers turns use, kept across services (`mcp_agent.rs`).
    mcp_hub: Mutex<mcp_agent::KeptHub>,
    /// Notices of the last model set-up (no key stored, no keychain service).
    notices: Mutex<Vec<String>>,
    approvals: Arc<PendingApprovals>,
    live: Arc<LiveRuns>,
    recovered: Recovery,
    /// Model downloads running in this app (`models.rs`).
    downloads: models::Downloads,
    /// This data folder's run folders with their key (none when encryption is off), passed
    /// down to every writer and reader of run folders.
    run_folders: vibe_runlog::RunFolders,
    /// Sync runs one at a time, and what the last one did (`sync_runner.rs`).
    sync_runs: sync_runner::SyncRuns,
    /// The embedded model's warm-up in progress (`warm_up.rs`).
    warm_ups: vibe_agent::chat::WarmUps,
}

/// Before the process ends: the embedded engine's prompt states still being written reach the
/// disk, so the next start resumes from them (docs/local-model.md#saved-states).
fn flush_prompt_states() {
    vibe_local_llm::flush_saved_states(std::time::Duration::from_secs(30));
}

impl Drop for App {
    fn drop(&mut self) {
        flush_prompt_states();
    }
}

struct Loaded {
    settings: Settings,
    doc: serde_json::Value,
    /// The settings with the overrides and injections folded in (`assembly.rs`).
    assembly: Arc<Assembly>,
}

impl Loaded {
    fn new(
        paths: &AppPaths,
        overrides: &Overrides,
        injections: &Injections,
        settings: Settings,
        doc: serde_json::Value,
    ) -> Self {
        let assembly =
            Arc::new(Assembly::resolve(&paths.data_dir, &settings, overrides, injections));
        Self { settings, doc, assembly }
    }
}

impl App {
    /// Open the app over `paths`: read and check the settings (an invalid file is an error
    /// naming the file and key), create the data dir (owner-only), find the database key
    /// (`dbkey`: keychain, passphrase or explicitly none; the mode is recorded in the settings
    /// at the first open), open the database with it (encrypting a clear one, migrating it),
    /// open the skill registry, and close runs a killed process left open. The model is not
    /// contacted; it is set up at the first turn.
    pub fn open(paths: AppPaths, overrides: Overrides) -> Result<App, AppError> {
        Self::open_with_keys(paths, overrides, Arc::new(OsKeychain))
    }

    /// As [`App::open`], with API keys and the database key kept in `keys` instead of the OS
    /// keychain.
    pub fn open_with_keys(
        paths: AppPaths,
        overrides: Overrides,
        keys: Arc<dyn KeyStore>,
    ) -> Result<App, AppError> {
        Self::open_with_injections(paths, overrides, keys, Injections::default())
    }

    /// As [`App::open_with_keys`], with `injections` in place of what the settings describe:
    /// for test harnesses (the `test-support` feature; front ends cannot set injections).
    #[cfg(any(test, feature = "test-support"))]
    pub fn open_injected(
        paths: AppPaths,
        overrides: Overrides,
        keys: Arc<dyn KeyStore>,
        injections: Injections,
    ) -> Result<App, AppError> {
        Self::open_with_injections(paths, overrides, keys, injections)
    }

    /// The one open (the crate's evals and benchmarks call it with their injections).
    pub(crate) fn open_with_injections(
        paths: AppPaths,
        overrides: Overrides,
        keys: Arc<dyn KeyStore>,
        injections: Injections,
    ) -> Result<App, AppError> {
        let (mut settings, mut doc) = Settings::load(&paths.settings_file())?;
        dbkey::private_data_dir(&paths)?;
        let key_lock = dbkey::creation_lock(&paths);
        if settings.storage.encryption.is_none() {
            // Another process may have recorded the mode while this one waited for the lock.
            (settings, doc) = Settings::load(&paths.settings_file())?;
        }
        let recorded = settings.storage.encryption;
        let (mode, key) = dbkey::resolve(&paths, &overrides, recorded, keys.as_ref())?;
        if recorded.is_none() {
            // Recorded before the database is made, so the next open uses the same mode.
            let file = paths.settings_file();
            let change = vibe_wire::command::SettingChange {
                key: "storage.encryption".into(),
                value: mode.as_str().into(),
            };
            doc = settings::apply_changes(&doc, &[change], &file)?;
            settings = Settings::from_document(&doc, &file)?;
            settings::write_atomically(&file, &doc)?;
        }
        crate::backup::finish_restore(&paths.data_dir);
        crate::backup::sweep_work_dirs(&paths.data_dir);
        crate::backup::sweep_partial_backups(&paths.data_dir.join(crate::backup::BACKUPS_DIR));
        let store = Arc::new(Store::open_with_key(&paths.db(), &key)?);
        let encrypted = !key.is_clear();
        drop((key, key_lock));
        let run_folders = run_key::open(&paths, &store, encrypted)?;
        store.set_front_end(match overrides.front_end {
            FrontEnd::App => vibe_store::ChangeBy::App,
            FrontEnd::Cli => vibe_store::ChangeBy::Cli,
        });
        let loaded = Loaded::new(&paths, &overrides, &injections, settings, doc);
        let skills = Arc::new(Registry::open(loaded.assembly.skills.clone()));
        if overrides.long_lived {
            vibe_agent::safety::warm_up();
        }
        if overrides.long_lived
            && let Err(e) = skills.watch()
        {
            tracing::warn!(error = %e, "skill folders are not watched; edits are checked on every message");
        }
        let recovered = vibe_agent::chat::recover_runs(&store, Some(&paths.data_dir))?;
        Ok(App {
            paths,
            overrides,
            injections,
            store,
            keys,
            settings: RwLock::new(loaded),
            skills: RwLock::new(skills),
            service: Mutex::new(None),
            mcp_hub: Mutex::new(None),
            notices: Mutex::new(Vec::new()),
            approvals: Arc::new(PendingApprovals::default()),
            live: Arc::new(LiveRuns::default()),
            recovered,
            downloads: models::Downloads::default(),
            run_folders,
            sync_runs: sync_runner::SyncRuns::default(),
            warm_ups: vibe_agent::chat::WarmUps::default(),
        })
    }

    /// This data folder's run folders with the key sealing them: for hosts that read recorded
    /// runs below the commands (test harnesses, evals, replays).
    pub fn run_folders(&self) -> &vibe_runlog::RunFolders {
        &self.run_folders
    }

    pub fn paths(&self) -> &AppPaths {
        &self.paths
    }

    pub fn overrides(&self) -> &Overrides {
        &self.overrides
    }

    /// The database, for test harnesses and benchmarks that set up data below the commands.
    /// Front ends use the commands.
    pub fn store(&self) -> &Arc<Store> {
        &self.store
    }

    /// The skill registry the next turn uses.
    pub fn skills(&self) -> Arc<Registry> {
        self.skills.read().unwrap_or_else(PoisonError::into_inner).clone()
    }

    /// The settings in force.
    pub fn settings(&self) -> Settings {
        self.settings.read().unwrap_or_else(PoisonError::into_inner).settings.clone()
    }

    /// The language the person chose for the app (`preferences.language`: `zh-CN`, `en`),
    /// `None` when it follows the system.
    pub(crate) fn chosen_language(&self) -> Option<String> {
        match self
            .settings
            .read()
            .unwrap_or_else(PoisonError::into_inner)
            .settings
            .preferences
            .language
        {
            Language::ZhCn => Some("zh-CN".into()),
            Language::En => Some("en".into()),
            Language::System => None,
        }
    }

    /// What the settings, overrides and injections resolve to now (rebuilt when the
    /// settings change).
    pub fn assembly(&self) -> Arc<Assembly> {
        self.settings.read().unwrap_or_else(PoisonError::into_inner).assembly.clone()
    }

    /// As the process quits while other threads still hold the app (the desktop app's exit):
    /// the database records a clean end, and later writes are refused
    /// ([`vibe_store::Store::close`]). Dropping the app does the same where a front end can.
    pub fn close(&self) {
        self.store.close();
        flush_prompt_states();
    }

    /// What recovery at open closed.
    pub fn recovered(&self) -> &Recovery {
        &self.recovered
    }

    /// How the database is encrypted (`none` is shown as a warning by front ends).
    pub fn encryption(&self) -> Encryption {
        self.settings().storage.encryption.unwrap_or(Encryption::Keychain)
    }

    /// The database upgrade done at open, if any.
    pub fn upgraded(&self) -> Option<&Upgrade> {
        self.store.upgraded()
    }

    /// One-line notices of the last model set-up (e.g. a hosted endpoint without a key).
    pub fn notices(&self) -> Vec<String> {
        self.notices.lock().unwrap_or_else(PoisonError::into_inner).clone()
    }

    /// `get_settings`.
    pub fn get_settings(&self) -> SettingsView {
        let settings = self.settings();
        SettingsView {
            file: self.paths.settings_file().display().to_string(),
            data_dir: self.paths.data_dir.display().to_string(),
            settings,
            presets: endpoint::presets(),
        }
    }

    /// `update_settings`: apply the changes to the file's document, check the result with
    /// the settings' types, and write it atomically. On any error nothing is written and the
    /// settings in force stay. The next turn uses the new settings.
    pub fn update_settings(
        &self,
        request: UpdateSettingsRequest,
    ) -> Result<SettingsView, AppError> {
        self.update_settings_with(|_| Ok(request.changes))
    }

    /// [`App::update_settings`] with changes computed from the settings in force while no
    /// other change can come between (a read-modify-write of a list, say, loses nothing).
    pub(crate) fn update_settings_with(
        &self,
        changes: impl FnOnce(&Settings) -> Result<Vec<SettingChange>, AppError>,
    ) -> Result<SettingsView, AppError> {
        let file = self.paths.settings_file();
        {
            let mut loaded = self.settings.write().unwrap_or_else(PoisonError::into_inner);
            let changes = changes(&loaded.settings)?;
            let doc = settings::apply_changes(&loaded.doc, &changes, &file)?;
            let settings = Settings::from_document(&doc, &file)?;
            if settings.storage != loaded.settings.storage {
                return Err(AppError::Settings {
                    file: file.clone(),
                    key: Some("storage.encryption".into()),
                    message: "the database's encryption is chosen when the data folder is \
                              created and cannot be changed (re-keying is not supported)"
                        .into(),
                });
            }
            let context = &settings.chat.context;
            context.fitted_to(context.max_context_tokens).map_err(|e| AppError::Settings {
                file: file.clone(),
                key: Some("chat.context".into()),
                message: e.to_string(),
            })?;
            if let Err(e) = settings.llm.resolve() {
                return Err(AppError::Settings {
                    file: file.clone(),
                    key: Some("llm".into()),
                    message: e.to_string(),
                });
            }
            settings::write_atomically(&file, &doc)?;
            let next = Loaded::new(&self.paths, &self.overrides, &self.injections, settings, doc);
            if next.assembly.skills != loaded.assembly.skills {
                let registry = Arc::new(Registry::open(next.assembly.skills.clone()));
                *self.skills.write().unwrap_or_else(PoisonError::into_inner) = registry;
            }
            *loaded = next;
        }
        self.reset_service();
        Ok(self.get_settings())
    }

    /// Drop the chat service, so the next turn builds it from the settings and keys in force.
    fn reset_service(&self) {
        *self.service.lock().unwrap_or_else(PoisonError::into_inner) = None;
        self.warm_ups.cancel();
    }
}
