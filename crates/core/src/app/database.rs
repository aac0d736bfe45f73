//! Database commands: `database_info` (where it is, schema, size, rows, backups) and
//! `check_database` (SQLite's full integrity check). The check opens the database alone,
//! without the app: a broken settings file must not stop it, and recovery must not write
//! into a file being checked.

use std::collections::BTreeMap;

use vibe_wire::command::{DatabaseCheck, DatabaseInfo};

use crate::app::{App, AppError, AppPaths, KeyStore, Overrides, open_database};

impl App {
    /// `database_info`.
    pub fn database_info(&self) -> Result<DatabaseInfo, AppError> {
        let path = self.paths.db();
        let size_bytes = ["", "-wal", "-shm"]
            .iter()
            .filter_map(|suffix| {
                std::fs::metadata(format!("{}{suffix}", path.display())).ok().map(|m| m.len())
            })
            .sum();
        let counts: BTreeMap<String, i64> =
            self.store.counts()?.into_iter().map(|(table, n)| (table.to_string(), n)).collect();
        Ok(DatabaseInfo {
            path: path.display().to_string(),
            encryption: self.encryption(),
            schema_version: self.store.schema_version()?,
            latest_schema_version: vibe_store::latest_version(),
            size_bytes,
            counts,
            backups: vibe_store::list_backups(&path)
                .iter()
                .map(|p| p.display().to_string())
                .collect(),
        })
    }

    /// `check_database` over the database of `paths` (not an open app; see the header), opened
    /// with its key (`keys` and the passphrase in `overrides`, as the app would).
    pub fn check_database(
        paths: &AppPaths,
        overrides: &Overrides,
        keys: &dyn KeyStore,
    ) -> Result<DatabaseCheck, AppError> {
        let path = paths.db();
        let store = open_database(paths, overrides, keys)?;
        let problems = store.integrity_check()?;
        let ok = problems.is_empty();
        Ok(DatabaseCheck {
            path: path.display().to_string(),
            ok,
            advice: if ok { None } else { store.restore_advice() },
            problems,
        })
    }
}
