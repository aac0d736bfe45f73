//! What every command needs: the resolved data dir, the output mode, and the app
//! (`vibe_core::app::App`, the one way in: settings, store, skills, model). Resolution order of
//! the data dir: `--data-dir`, `VIBE_DATA_DIR`, the desktop app's data dir.

use std::path::PathBuf;

use vibe_core::app::{App, AppError, AppPaths, FrontEnd, Overrides};

use crate::global::GlobalArgs;

pub struct Ctx {
    pub data_dir: PathBuf,
    pub json: bool,
    /// `--no-encryption`: a new data dir's database is made in the clear.
    pub no_encryption: bool,
}

impl Ctx {
    pub fn new(global: &GlobalArgs) -> Self {
        let data_dir = global.data_dir.clone().unwrap_or_else(|| AppPaths::os_default().data_dir);
        Self { data_dir, json: global.json, no_encryption: global.no_encryption }
    }

    /// Open the app with `overrides` (the environment's, plus a command's flags). An upgrade
    /// of an existing database is told on stderr in one line, with its backup.
    pub fn open_app(&self, overrides: Overrides) -> anyhow::Result<App> {
        // Changes made from here are the CLI's in the undo history (a model's name themselves).
        let overrides = Overrides { front_end: FrontEnd::Cli, ..overrides };
        let app =
            self.with_passphrase(overrides, |o| App::open(AppPaths::new(&self.data_dir), o))?;
        if let Some(up) = app.upgraded() {
            eprintln!("{}", upgrade_line(&app.paths().db(), up));
        }
        Ok(app)
    }

    /// Run `open` with `overrides` (plus `--no-encryption`); when the database needs its
    /// passphrase and none was given, ask for it on the terminal (never echoed) and try once
    /// more; when a new data dir has no keychain for its key, let the person choose a
    /// passphrase there. Without a terminal the error stands, with its hint
    /// (VIBE_DB_PASSPHRASE).
    pub fn with_passphrase<T>(
        &self,
        mut overrides: Overrides,
        open: impl Fn(Overrides) -> Result<T, AppError>,
    ) -> anyhow::Result<T> {
        overrides.no_encryption |= self.no_encryption;
        match open(overrides.clone()) {
            Err(AppError::PassphraseNeeded { data_dir }) if overrides.db_passphrase.is_none() => {
                let Some(passphrase) = crate::passphrase::ask(&data_dir)? else {
                    return Err(AppError::PassphraseNeeded { data_dir }.into());
                };
                overrides.db_passphrase = Some(passphrase);
                Ok(open(overrides)?)
            }
            // A new data dir and no keychain for a random key: a person at a terminal chooses
            // a passphrase instead (never a silent fall back to clear text).
            Err(AppError::NoDatabaseKey { data_dir, why })
                if overrides.db_passphrase.is_none()
                    && !overrides.no_encryption
                    && !AppPaths::new(&data_dir).db().exists() =>
            {
                let Some(passphrase) = crate::passphrase::choose(&data_dir, &why)? else {
                    return Err(AppError::NoDatabaseKey { data_dir, why }.into());
                };
                overrides.db_passphrase = Some(passphrase);
                Ok(open(overrides)?)
            }
            other => Ok(other?),
        }
    }

    /// The app with the environment's overrides only.
    pub fn app(&self) -> anyhow::Result<App> {
        self.open_app(Overrides::from_env())
    }
}

/// The one line telling a CLI user their database was upgraded.
fn upgrade_line(db: &std::path::Path, up: &vibe_core::app::Upgrade) -> String {
    let backup = match &up.backup {
        Some(b) => format!("; the old file is kept as {}", b.display()),
        None => String::new(),
    };
    format!("note: upgraded {} from schema v{} to v{}{backup}", db.display(), up.from, up.to)
}
