//! The shell's one piece of state: the `App` (one per process, shared by every command), or the
//! error that kept it from opening — then every command answers that error and the window shows
//! it instead of going blank. The app opens on a thread of its own while the window starts (key
//! derivation, integrity check, migrations and skills overlap WebKit's start-up); a command
//! that arrives first waits for the outcome. A data dir the app could not open without the
//! person (its database locked with a passphrase, or no keychain for a new key) is opened again
//! when the person unlocks it (`commands::database::unlock_database`). At exit the database's
//! session is closed, so the next start knows the last one ended cleanly. Owns opening and
//! closing only; no product logic.

use std::sync::Arc;

use tokio::sync::watch;
use vibe_core::app::{App, AppPaths, Overrides};
use vibe_wire::command::CommandError;

/// The app, once the opening thread has an outcome (`None` while it is still opening).
type Opened = Option<Result<Arc<App>, CommandError>>;

pub struct Shell {
    app: Arc<watch::Sender<Opened>>,
    paths: AppPaths,
}

impl Shell {
    /// Starts opening the app over `VIBE_DATA_DIR` (when set and not empty) or the OS default
    /// data dir, with the `VIBE_*` overrides, exactly as the CLI does, on a thread of its own;
    /// `opened` runs on that thread once the outcome is known (the tray re-words its menu).
    pub fn open(opened: impl FnOnce() + Send + 'static) -> Self {
        let paths = Self::paths_from_env();
        let (app, _) = watch::channel(None);
        let app = Arc::new(app);
        let (slot, at) = (Arc::clone(&app), paths.clone());
        let spawned = std::thread::Builder::new().name("open-app".into()).spawn(move || {
            let outcome = open_app(at, Self::overrides()).map(Arc::new);
            if let Ok(app) = &outcome {
                on_opened(app);
            }
            slot.send_replace(Some(outcome));
            opened();
        });
        if let Err(e) = spawned {
            let failed = internal(format!("cannot start opening the app: {e}"));
            app.send_replace(Some(Err(failed)));
        }
        Self { app, paths }
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

    /// The open app, or why it did not open (waits while it is still opening).
    pub async fn app(&self) -> Result<Arc<App>, CommandError> {
        let mut seen = self.app.subscribe();
        let outcome = seen.wait_for(Option::is_some).await.map(|v| v.clone());
        match outcome {
            Ok(Some(outcome)) => outcome,
            // The sender lives as long as the shell; kept for completeness.
            _ => Err(internal("the app stopped opening".into())),
        }
    }

    /// The open app, if it has opened (never waits: the tray, the window's close button and
    /// the background clocks, which do without it until then).
    pub fn opened(&self) -> Option<Arc<App>> {
        self.app.borrow().as_ref().and_then(|o| o.as_ref().ok()).cloned()
    }

    /// The app opened again (after an unlock) takes the place of the failed one.
    pub fn replace(&self, app: Arc<App>) {
        on_opened(&app);
        self.app.send_replace(Some(Ok(app)));
    }

    /// At exit: end the database's session (nothing is written after it), so the next start
    /// does not take this one for a crash.
    pub fn close(&self) {
        if let Some(app) = self.opened() {
            app.close();
        }
    }

    pub fn paths(&self) -> &AppPaths {
        &self.paths
    }

    pub fn data_dir(&self) -> &std::path::Path {
        &self.paths.data_dir
    }
}

/// What starts once an app is open: its automatic backups, its MCP servers connecting in
/// the background (so the first turn finds them ready), and sync in the background (the core
/// decides when; it ends with the app).
fn on_opened(app: &Arc<App>) {
    schedule_backups(app);
    app.start_connections(tauri::async_runtime::handle().inner());
    // The window opens on a new conversation: with the embedded model, its prompt is read now.
    app.warm_up_at_start(None);
    let timing = vibe_core::app::SyncTiming::default();
    tauri::async_runtime::spawn(vibe_core::app::run_sync_in_background(
        Arc::downgrade(app),
        timing,
    ));
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

/// An error of the shell itself (not the core's), in the command errors' shape.
pub fn internal(message: String) -> CommandError {
    tracing::error!("{message}");
    CommandError {
        error: vibe_wire::ErrorInfo::new(vibe_wire::ErrorKind::Internal, message),
        hint: None,
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
