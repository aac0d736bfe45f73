//! What every command needs: the resolved data dir, the output mode, and a way to open the
//! store. Resolution order: `--data-dir`, `VIBE_DATA_DIR`, the desktop app's data dir.

use std::path::PathBuf;

use anyhow::Context as _;
use serde::de::DeserializeOwned;
use vibe_store::Store;

use crate::cli::GlobalArgs;

/// The desktop app's bundle identifier; Tauri's app data dir is `<OS data dir>/<identifier>`.
pub const APP_IDENTIFIER: &str = "app.vibelife.desktop";
/// The database file inside the data dir.
pub const DB_FILE: &str = "vibe.db";
/// The settings file inside the data dir.
pub const SETTINGS_FILE: &str = "settings.json";

pub struct Ctx {
    pub data_dir: PathBuf,
    pub json: bool,
}

impl Ctx {
    pub fn new(global: &GlobalArgs) -> Self {
        let data_dir = global.data_dir.clone().unwrap_or_else(default_data_dir);
        Self { data_dir, json: global.json }
    }

    pub fn db_path(&self) -> PathBuf {
        self.data_dir.join(DB_FILE)
    }

    /// Open (creating if needed) the database in the data dir, applying migrations. An
    /// upgrade of an existing file is told on stderr in one line, with its backup.
    pub fn open_store(&self) -> anyhow::Result<Store> {
        std::fs::create_dir_all(&self.data_dir).with_context(|| {
            format!(
                "cannot create data dir {} (pass --data-dir or set VIBE_DATA_DIR to a writable folder)",
                self.data_dir.display()
            )
        })?;
        let store = Store::open(&self.db_path())?;
        if let Some(up) = store.upgraded() {
            eprintln!("{}", upgrade_line(&self.db_path(), up));
        }
        Ok(store)
    }
}

impl Ctx {
    /// The settings document (`settings.json` in the data dir, the file the desktop app's
    /// settings store writes). A missing file is an empty object; each crate reads its own
    /// section (`llm`, `skills`, ...) into its own typed struct with `serde(default)`.
    pub fn settings(&self) -> anyhow::Result<serde_json::Value> {
        let path = self.data_dir.join(SETTINGS_FILE);
        let text = match std::fs::read_to_string(&path) {
            Ok(text) => text,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(serde_json::json!({})),
            Err(e) => return Err(e).with_context(|| format!("cannot read {}", path.display())),
        };
        serde_json::from_str(&text).map_err(|e| {
            anyhow::anyhow!(
                "{}:{}:{}: invalid JSON in settings: {e} (fix the file or delete it to use defaults)",
                path.display(),
                e.line(),
                e.column()
            )
        })
    }

    /// One section of the settings document, or `null` when absent.
    pub fn settings_section(&self, name: &str) -> anyhow::Result<serde_json::Value> {
        Ok(self.settings()?.get(name).cloned().unwrap_or(serde_json::Value::Null))
    }

    /// Section `name` read into its typed struct (absent or `null`: the defaults). A key the
    /// struct does not know is refused, named with its place in the section and the file, so
    /// a typo never silently does nothing; so is a value of the wrong type.
    pub fn section<T: DeserializeOwned + Default>(&self, name: &str) -> anyhow::Result<T> {
        let value = self.settings_section(name)?;
        if value.is_null() {
            return Ok(T::default());
        }
        let file = self.data_dir.join(SETTINGS_FILE);
        let mut unknown = Vec::new();
        let parsed: T = serde_ignored::deserialize(value, |path| unknown.push(path.to_string()))
            .map_err(|e| {
                anyhow::anyhow!(
                    "{}: the \"{name}\" section is invalid: {e} (fix or remove it; the keys are in docs/architecture.md, \"Settings\")",
                    file.display()
                )
            })?;
        if let Some(key) = unknown.first() {
            anyhow::bail!(
                "{}: unknown key \"{name}.{key}\" (check its spelling, or remove it; the keys are in docs/architecture.md, \"Settings\")",
                file.display()
            );
        }
        Ok(parsed)
    }
}

/// The one line telling a CLI user their database was upgraded.
fn upgrade_line(db: &std::path::Path, up: &vibe_store::Upgrade) -> String {
    let backup = match &up.backup {
        Some(b) => format!("; the old file is kept as {}", b.display()),
        None => String::new(),
    };
    format!("note: upgraded {} from schema v{} to v{}{backup}", db.display(), up.from, up.to)
}

fn default_data_dir() -> PathBuf {
    dirs::data_dir().unwrap_or_else(|| PathBuf::from(".")).join(APP_IDENTIFIER)
}
