//! Backup commands (docs/privacy.md#backups-and-moving-to-a-new-machine): `create_backup` on
//! the open app; `verify_backup` and `restore_backup` over a data folder's paths, without an
//! open app (a restore replaces the database, so no store of it may stay open). The archive
//! format and the crash-safe swap are `crate::backup`'s.

use std::path::PathBuf;

use vibe_store::Store;
use vibe_wire::command::{
    BackupCreated, BackupFileRequest, BackupRestored, BackupVerified, CreateBackupRequest,
};

use crate::app::{App, AppError, AppPaths, KeyStore, Overrides, dbkey};
use crate::backup::{self, BACKUPS_DIR, BackupError};

impl App {
    /// `create_backup`: a consistent copy of the database (with this data folder's key) and
    /// the run folders, in one new file: `request.out`, or `backups/vibelife-<time>.tar` in
    /// the data folder.
    pub fn create_backup(&self, request: &CreateBackupRequest) -> Result<BackupCreated, AppError> {
        let (mode, key) = dbkey::database_key(&self.paths, &self.overrides, self.keys.as_ref())?;
        let out = match &request.out {
            Some(out) => PathBuf::from(out),
            None => default_file(&self.paths, "vibelife")?,
        };
        let manifest = backup::create(&self.store, &key, mode, &self.paths.data_dir, &out)?;
        Ok(BackupCreated { file: out.display().to_string(), manifest })
    }

    /// `verify_backup`: read the backup into a private working folder in the data folder (in
    /// the system's temporary folder when the data folder does not exist) and check
    /// everything (`backup::read_into`), with this data folder's key, and name the run logs in
    /// it that are damaged or unclosed (`backup::check_run_logs`). Nothing else is touched
    /// or created (no data folder, no keychain key) and the working folder is removed.
    pub fn verify_backup(
        paths: &AppPaths,
        overrides: &Overrides,
        keys: &dyn KeyStore,
        request: &BackupFileRequest,
    ) -> Result<BackupVerified, AppError> {
        let (_, key) = dbkey::existing_key(paths, overrides, keys)?;
        let file = PathBuf::from(&request.file);
        let work = if paths.data_dir.is_dir() {
            backup::WorkDir::new(&paths.data_dir, ".verify-")?
        } else {
            backup::WorkDir::new(&std::env::temp_dir(), ".vibelife-verify-")?
        };
        let manifest = backup::read_into(&file, &key, &work.path().join("backup"))?;
        let restorable = manifest.schema_version <= vibe_store::latest_version();
        let notices = backup::check_run_logs(&work.path().join("backup"), &key)?;
        Ok(BackupVerified { file: request.file.clone(), manifest, restorable, notices })
    }

    /// `restore_backup`: check the backup completely (as `verify_backup`) and refuse one of a
    /// newer schema, or while another process has the database open; then back up the data
    /// as it is (`backups/pre-restore-<time>.tar`; a database too damaged for that is kept
    /// file by file in `backups/pre-restore-<time>/`) and swap the backup in, crash-safe
    /// (`backup::swap_in`). On any refusal nothing is changed.
    pub fn restore_backup(
        paths: &AppPaths,
        overrides: &Overrides,
        keys: &dyn KeyStore,
        request: &BackupFileRequest,
    ) -> Result<BackupRestored, AppError> {
        let (mode, key) = dbkey::existing_key(paths, overrides, keys)?;
        dbkey::private_data_dir(paths)?;
        let file = PathBuf::from(&request.file);
        backup::finish_restore(&paths.data_dir);
        let _lock = backup::restore_lock(&paths.data_dir)?;
        let staging = Staging(backup::staging_dir(&paths.data_dir));
        staging.clear()?;
        let manifest = backup::read_into(&file, &key, &staging.0)?;
        let supported = vibe_store::latest_version();
        if manifest.schema_version > supported {
            return Err(BackupError::NewerSchema {
                file,
                found: manifest.schema_version,
                supported,
            }
            .into());
        }
        let db = paths.db();
        drop(vibe_store::hold_exclusive(&db)?);
        let previous = if db.exists() {
            let out = default_file(paths, "pre-restore")?;
            let snapshot = Store::open_with_key(&db, &key)
                .map_err(BackupError::from)
                .and_then(|store| backup::create(&store, &key, mode, &paths.data_dir, &out));
            match snapshot {
                Ok(_) => Some(out),
                Err(e) => {
                    // A damaged database (the usual reason to restore) cannot be snapshotted:
                    // its files are kept as they are instead.
                    tracing::warn!("keeping the database as it is; it cannot be backed up: {e}");
                    let _ = std::fs::remove_file(&out);
                    let kept = out.with_extension("");
                    backup::keep_as_is(&paths.data_dir, &kept)?;
                    Some(kept)
                }
            }
            .map(|p| p.display().to_string())
        } else {
            None
        };
        let _held = vibe_store::hold_exclusive(&db)?;
        // From here the staging folder is the restore's record: a failed swap is finished by
        // the next open, so it must not be removed.
        let staging = std::mem::ManuallyDrop::new(staging);
        backup::swap_in(&paths.data_dir, &staging.0)?;
        Ok(BackupRestored { file: request.file.clone(), manifest, previous })
    }
}

/// The restore's staging folder, removed when the restore stops before the swap.
struct Staging(PathBuf);

impl Staging {
    fn clear(&self) -> Result<(), AppError> {
        match std::fs::remove_dir_all(&self.0) {
            Ok(()) => Ok(()),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
            Err(err) => Err(AppError::Files {
                what: format!("cannot remove the unfinished restore {}", self.0.display()),
                err,
            }),
        }
    }
}

impl Drop for Staging {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// A new file name in the data folder's `backups/` (made 0700): `<prefix>-<UTC time>.tar`.
fn default_file(paths: &AppPaths, prefix: &str) -> Result<PathBuf, AppError> {
    let dir = paths.data_dir.join(BACKUPS_DIR);
    backup::private_dir(&dir)?;
    let stamp = chrono::Utc::now().format("%Y%m%dT%H%M%S%.3fZ");
    Ok(dir.join(format!("{prefix}-{stamp}.tar")))
}
