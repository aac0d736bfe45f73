//! Automatic backups (docs/privacy.md#automatic-backups): what the `backups` settings section
//! (a wire type) asks for, and `backup_if_due`, which a long-lived host (the desktop app)
//! calls at start and then hourly: a backup file `backups/auto-<time>.tar` when the newest is a day old (or there is none),
//! keeping the newest `keep`. The host only schedules; what is due is decided here.

use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use vibe_wire::command::{BackupCreated, CreateBackupRequest};
/// The `backups` section of the settings (a wire type, with its defaults).
pub use vibe_wire::settings::BackupSettings;

use crate::app::{App, AppError};
use crate::backup::BACKUPS_DIR;

/// How often an automatic backup is made.
pub const AUTO_BACKUP_EVERY: Duration = Duration::from_secs(24 * 60 * 60);
const PREFIX: &str = "auto-";

impl App {
    /// Make an automatic backup when one is due at `now` (see the header); `None` when not due
    /// or turned off.
    pub fn backup_if_due(&self, now: SystemTime) -> Result<Option<BackupCreated>, AppError> {
        let settings = self.settings().backups;
        if !settings.daily {
            return Ok(None);
        }
        let dir = self.paths.data_dir.join(BACKUPS_DIR);
        let existing = auto_backups(&dir);
        let newest_age = existing
            .last()
            .and_then(|p| p.metadata().ok()?.modified().ok())
            .map(|t| now.duration_since(t).unwrap_or_default());
        if newest_age.is_some_and(|age| age < AUTO_BACKUP_EVERY) {
            return Ok(None);
        }
        let stamp = chrono::DateTime::<chrono::Utc>::from(now).format("%Y%m%dT%H%M%S%.3fZ");
        crate::backup::private_dir(&dir)?;
        let out = dir.join(format!("{PREFIX}{stamp}.tar"));
        let created =
            self.create_backup(&CreateBackupRequest { out: Some(out.display().to_string()) })?;
        let all = auto_backups(&dir);
        let excess = all.len().saturating_sub(settings.keep.max(1) as usize);
        for old in &all[..excess] {
            if let Err(e) = std::fs::remove_file(old) {
                tracing::warn!(file = %old.display(), "cannot remove an old automatic backup: {e}");
            }
        }
        Ok(Some(created))
    }
}

/// The automatic backups in `dir`, oldest first (their names sort by time).
fn auto_backups(dir: &Path) -> Vec<PathBuf> {
    let mut found: Vec<PathBuf> = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path())
        .filter(|p| {
            p.file_name()
                .map(|n| n.to_string_lossy())
                .is_some_and(|n| n.starts_with(PREFIX) && n.ends_with(".tar"))
        })
        .collect();
    found.sort();
    found
}
