//! `erase_data` (docs/privacy.md#erasing): remove everything VibeLife keeps for one data
//! folder — the database with its side files and upgrade backups, `backups/`, `runs/`, the
//! settings, the person's own skills, unfinished restores — and the database key of this
//! folder in the key store. API keys stay: they belong to an endpoint and every data folder
//! shares them. Without `confirm` nothing is removed and the answer says what would be.
//! Refused while another process has the database open.

use std::path::Path;

use vibe_llm::KEYCHAIN_SERVICE;
use vibe_wire::command::{EraseReport, EraseRequest};

use crate::app::{
    App, AppError, AppPaths, DB_FILE, Encryption, KeyStore, SETTINGS_FILE, db_key_account, dbkey,
};
use crate::backup::{BACKUPS_DIR, STAGING_DIR, WORK_PREFIXES};
use vibe_runlog::RUNS_DIR;

/// The entries of a data folder that are VibeLife's, besides `vibe.db*` and working folders.
const OWNED: &[&str] = &[
    SETTINGS_FILE,
    RUNS_DIR,
    BACKUPS_DIR,
    STAGING_DIR,
    "restore.lock",
    "skills",
    vibe_local_llm::STATES_DIR,
];

impl App {
    /// `erase_data` over the data folder of `paths` (no app may be open on it).
    pub fn erase_data(
        paths: &AppPaths,
        keys: &dyn KeyStore,
        request: EraseRequest,
    ) -> Result<EraseReport, AppError> {
        let dir = &paths.data_dir;
        let account = db_key_account(dir);
        let mut report = EraseReport {
            erased: request.confirm,
            data_dir: dir.display().to_string(),
            files: Vec::new(),
            keychain_entries: Vec::new(),
            notes: vec![
                "API keys stay in the keychain: they belong to an endpoint and every data \
                 folder shares them (they are removed per endpoint)"
                    .into(),
            ],
        };
        // Only a keychain folder (or one whose mode cannot be read) has a key to remove.
        let keychain =
            !matches!(dbkey::recorded_mode(paths), Some(Encryption::Passphrase | Encryption::None));
        let (owned, others) = entries(dir)?;
        let key_entry = format!("{KEYCHAIN_SERVICE} / {account}");
        let held = if dir.exists() { Some(vibe_store::hold_exclusive(&paths.db())?) } else { None };
        if !request.confirm {
            report.files = owned.iter().map(|p| p.display().to_string()).collect();
            match keys.get_db_key(&account) {
                Ok(Some(_)) => report.keychain_entries.push(key_entry),
                Ok(None) => {}
                Err(e) if keychain => {
                    report.notes.push(format!("the keychain cannot be read ({e})"))
                }
                Err(_) => {}
            }
            report.notes.extend(others.iter().map(|p| keep_note(p)));
            return Ok(report);
        }
        for path in &owned {
            let removed = if path.is_dir() {
                std::fs::remove_dir_all(path)
            } else {
                std::fs::remove_file(path)
            };
            match removed {
                Ok(()) => report.files.push(path.display().to_string()),
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
                Err(err) => {
                    return Err(AppError::Files {
                        what: format!(
                            "erasing stopped at {} (removed before it: {}); nothing else was \
                             removed, and the database key was kept",
                            path.display(),
                            if report.files.is_empty() {
                                "nothing".into()
                            } else {
                                report.files.join(", ")
                            }
                        ),
                        err,
                    });
                }
            }
        }
        drop(held);
        // The lock files the hold made again.
        for name in [".lock", ".inuse"] {
            let _ = std::fs::remove_file(dir.join(format!("{DB_FILE}{name}")));
        }
        match keys.delete_db_key(&account) {
            Ok(true) => report.keychain_entries.push(key_entry),
            Ok(false) => {}
            Err(e) if keychain => {
                report.notes.push(format!("the database key could not be removed ({e})"));
            }
            Err(_) => {}
        }
        if others.is_empty() {
            match std::fs::remove_dir(dir) {
                Ok(()) => report.files.push(dir.display().to_string()),
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
                Err(e) => {
                    report.notes.push(format!("the empty folder {} stays ({e})", dir.display()))
                }
            }
        } else {
            report.notes.extend(others.iter().map(|p| keep_note(p)));
        }
        Ok(report)
    }
}

fn keep_note(path: &Path) -> String {
    format!("{} was not made by VibeLife and stays", path.display())
}

/// The data folder's entries, sorted: VibeLife's, and the others.
fn entries(dir: &Path) -> Result<(Vec<std::path::PathBuf>, Vec<std::path::PathBuf>), AppError> {
    let read = match std::fs::read_dir(dir) {
        Ok(read) => read,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok((Vec::new(), Vec::new())),
        Err(err) => {
            return Err(AppError::Files { what: format!("cannot read {}", dir.display()), err });
        }
    };
    let mut names: Vec<String> =
        read.filter_map(Result::ok).map(|e| e.file_name().to_string_lossy().into_owned()).collect();
    names.sort();
    let (owned, others): (Vec<String>, Vec<String>) = names.into_iter().partition(|name| {
        name.starts_with(DB_FILE)
            || WORK_PREFIXES.iter().any(|p| name.starts_with(p))
            || OWNED.contains(&name.as_str())
    });
    Ok((owned.iter().map(|n| dir.join(n)).collect(), others.iter().map(|n| dir.join(n)).collect()))
}
