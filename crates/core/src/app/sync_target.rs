//! The sync target of a data folder as OpenDAL storage: built from the settings' `sync.target`
//! (or the older `sync.folder`) and, for WebDAV and S3, the password or secret key kept in the
//! key store (the OS keychain) under the data folder's sync-target account. It owns that
//! account and the checks of a target given to setup or join; not the key nor the run
//! (`app::sync`). A secret never goes to the settings, an error, a log or a view.

use vibe_sync::{DalTarget, S3Place};
use vibe_wire::settings::SyncTarget;
use zeroize::Zeroizing;

use crate::app::{App, AppError};

/// The environment variables that give the target's password or secret key (WebDAV, S3).
pub const SECRET_ENVS: [&str; 2] = ["VIBE_SYNC_PASSWORD", "VIBE_SYNC_SECRET_KEY"];

/// The key store account of a data dir's sync target secret.
fn account(app: &App) -> String {
    format!("sync-target-{}", crate::app::db_key_account(&app.paths().data_dir))
}

/// `target` as storage, logging in with `secret` where it needs one.
pub(super) fn open(target: &SyncTarget, secret: &str) -> Result<DalTarget, AppError> {
    Ok(match target {
        SyncTarget::Folder { path } => DalTarget::folder(std::path::Path::new(path))?,
        SyncTarget::Webdav { url, user } => DalTarget::webdav(url, user, secret)?,
        SyncTarget::S3 { endpoint, bucket, region, access_key_id, root } => {
            DalTarget::s3(&S3Place {
                endpoint,
                bucket,
                region,
                access_key_id,
                secret_access_key: secret,
                root,
            })?
        }
    })
}

/// How `target` is shown (no credential).
pub(super) fn shown(target: &SyncTarget) -> String {
    match target {
        SyncTarget::Folder { path } => path.clone(),
        SyncTarget::Webdav { url, .. } => url.trim_end_matches('/').to_string(),
        SyncTarget::S3 { endpoint, bucket, root, .. } => {
            vibe_sync::shown_s3(endpoint, bucket, root)
        }
    }
}

impl App {
    /// A target given to setup or join, with its secret, checked: it answers and accepts the
    /// login. Nothing is kept or written anywhere yet.
    pub(super) async fn given_target(
        &self,
        target: &SyncTarget,
        secret: Option<&str>,
    ) -> Result<DalTarget, AppError> {
        let secret = secret.unwrap_or_default();
        // The URL is checked first: one holding a password is refused without echoing it.
        let storage = open(target, secret)?;
        if target.needs_secret() && secret.is_empty() {
            let what = match target {
                SyncTarget::S3 { .. } => "the secret access key (VIBE_SYNC_SECRET_KEY)",
                _ => "the password (VIBE_SYNC_PASSWORD)",
            };
            return Err(AppError::InvalidInput(format!(
                "{} needs {what}: give it, it is kept in the keychain",
                shown(target)
            )));
        }
        storage.probe().await?;
        Ok(storage)
    }

    /// Keep a target's secret in the key store (none for a folder, which also clears an older one).
    pub(super) fn keep_target_secret(
        &self,
        target: &SyncTarget,
        secret: Option<&str>,
    ) -> Result<(), AppError> {
        match secret.filter(|s| target.needs_secret() && !s.is_empty()) {
            Some(secret) => match self.keys.set_secret(&account(self), secret) {
                // Without a keychain, the environment gives it on every run.
                Err(AppError::Keychain(_)) if self.overrides().sync_secret.is_some() => Ok(()),
                Err(AppError::Keychain(why)) => Err(AppError::Keychain(format!(
                    "{why}; the password of the sync target cannot be kept on this device: set \
                     {} (or {}) on every run instead",
                    SECRET_ENVS[0], SECRET_ENVS[1]
                ))),
                other => other,
            },
            None => {
                if target.needs_secret() {
                    return Ok(());
                }
                // A store without a place for secrets has none to clear.
                let _ = self.keys.delete_secret(&account(self));
                Ok(())
            }
        }
    }

    /// Forget the target's secret (a setup or join that failed after keeping it).
    pub(super) fn drop_target_secret(&self) {
        let _ = self.keys.delete_secret(&account(self));
    }

    /// The target in the settings, as storage with its kept secret, and this device's id.
    pub(super) fn sync_target(&self) -> Result<Option<(DalTarget, String)>, AppError> {
        let settings = self.settings().sync;
        let (Some(target), Some(device)) = (settings.effective_target(), settings.device_id) else {
            return Ok(None);
        };
        let secret: Zeroizing<String> = if let Some(given) = &self.overrides().sync_secret {
            given.clone()
        } else if target.needs_secret() {
            self.keys.get_secret(&account(self))?.ok_or_else(|| {
                AppError::Keychain(format!(
                    "no password is kept for the sync target {}: join it again with its password \
                     and the recovery code (`vibe sync join`), or set {}",
                    shown(&target),
                    SECRET_ENVS[0]
                ))
            })?
        } else {
            Zeroizing::new(String::new())
        };
        Ok(Some((open(&target, &secret)?, device)))
    }
}
