//! The shell's one piece of state: the `App` (one per process, shared by every command), or the
//! error that kept it from opening — then every command answers that error and the window shows
//! it instead of going blank. A data dir the app could not open without the person (its
//! database locked with a passphrase, or no keychain for a new key) is opened again when the
//! person unlocks it (`commands::database::unlock_database`). Owns opening only; no product
//! logic.

use std::sync::{Arc, RwLock};

use vibe_core::app::{App, AppPaths, Overrides};
use vibe_wire::command::CommandError;

pub struct Shell {
    app: RwLock<Result<Arc<App>, CommandError>>,
    paths: AppPaths,
}

impl Shell {
    /// Opens the app over `VIBE_DATA_DIR` (when set and not empty) or the OS default data dir,
    /// with the `VIBE_*` overrides, exactly as the CLI does.
    pub fn open() -> Self {
        let paths = Self::paths_from_env();
        let app = open_app(paths.clone(), Self::overrides()).map(Arc::new);
        if let Ok(app) = &app {
            schedule_backups(app);
        }
        Self { app: RwLock::new(app), paths }
    }

    /// `VIBE_DATA_DIR` (when set and not empty), else the OS default data dir.
    pub fn paths_from_env() -> AppPaths {
        match std::env::var_os("VIBE_DATA_DIR").filter(|v| !v.is_empty()) {
            Some(dir) => AppPaths::new(dir),
            None => AppPaths::os_default(),
        }
    }

    /// The environment's overrides for a long-lived app.
    pub fn overrides() -> Overrides {
        Overrides { long_lived: true, ..Overrides::from_env() }
    }

    /// The open app, or why it did not open.
    pub fn app(&self) -> Result<Arc<App>, CommandError> {
        self.app.read().unwrap_or_else(|e| e.into_inner()).clone()
    }

    /// The app opened again (after an unlock) takes the place of the failed one.
    pub fn replace(&self, app: Arc<App>) {
        schedule_backups(&app);
        *self.app.write().unwrap_or_else(|e| e.into_inner()) = Ok(app);
    }

    pub fn paths(&self) -> &AppPaths {
        &self.paths
    }

    pub fn data_dir(&self) -> &std::path::Path {
        &self.paths.data_dir
    }
}

/// Ask the app for its automatic backup at start and then every hour, on a thread of its own,
/// for as long as the app is open (the app decides whether one is due; docs/privacy.md).
fn schedule_backups(app: &Arc<App>) {
    let app = Arc::downgrade(app);
    let spawned = std::thread::Builder::new().name("auto-backup".into()).spawn(move || {
        while let Some(open) = app.upgrade() {
            match open.backup_if_due(std::time::SystemTime::now()) {
                Ok(Some(made)) => tracing::info!(file = %made.file, "automatic backup written"),
                Ok(None) => {}
                Err(e) => tracing::warn!(kind = e.kind().as_str(), "automatic backup failed: {e}"),
            }
            drop(open);
            std::thread::sleep(std::time::Duration::from_secs(60 * 60));
        }
    });
    if let Err(e) = spawned {
        tracing::warn!("no automatic backups (cannot start their thread): {e}");
    }
}

/// `App::open` with the outcome logged (never a passphrase: `Overrides` hides it).
pub fn open_app(paths: AppPaths, overrides: Overrides) -> Result<App, CommandError> {
    let data_dir = paths.data_dir.clone();
    match App::open(paths, overrides) {
        Ok(app) => {
            let recovered = app.recovered();
            tracing::info!(data_dir = %data_dir.display(), ?recovered, "app opened");
            Ok(app)
        }
        Err(e) => {
            tracing::error!(data_dir = %data_dir.display(), kind = e.kind().as_str(), "the app did not open: {e}");
            Err(e.to_command_error())
        }
    }
}
