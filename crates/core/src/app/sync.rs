//! Sync of this data folder (docs/sync.md): setting a target up (a new key, its
//! recovery code answered once), joining one with the code, a sync run, the status and the
//! devices. The key is kept in the key store (the OS keychain) under this data folder's sync
//! account, or given as `VIBE_SYNC_CODE`; never in the settings, the database, logs or events.
//! The settings' `sync` section holds the target and this device's id (the target's own
//! password is `sync_target`'s). What syncs and how it
//! merges is `vibe-store`'s; the files and the run are `vibe-sync`'s.

use vibe_sync::SyncKey;
use vibe_wire::command::{
    SettingChange, SyncDeviceList, SyncDeviceView, SyncJoinRequest, SyncPauseRequest,
    SyncRemoveDeviceRequest, SyncRunView, SyncSetupRequest, SyncSetupResponse, SyncStatusView,
    UpdateSettingsRequest,
};
use vibe_wire::settings::SyncTarget;
use zeroize::Zeroizing;

use crate::app::{App, AppError};

/// The environment variable holding the sync key as its recovery code.
pub const SYNC_CODE_ENV: &str = "VIBE_SYNC_CODE";

/// The key store account of a data dir's sync key.
fn account(app: &App) -> String {
    format!("sync-{}", crate::app::db_key_account(&app.paths().data_dir))
}

/// This machine's name, sent (encrypted) to the other devices for their device list.
fn host_name() -> Option<String> {
    let name = std::fs::read_to_string("/etc/hostname")
        .ok()
        .or_else(|| std::env::var("HOSTNAME").ok())
        .or_else(|| std::env::var("COMPUTERNAME").ok())?;
    let name = name.trim();
    (!name.is_empty()).then(|| name.chars().take(64).collect())
}

impl App {
    fn sync_key(&self) -> Result<SyncKey, AppError> {
        if let Some(code) = &self.overrides().sync_code {
            return Ok(SyncKey::from_code(code)?);
        }
        match self.keys.get_db_key(&account(self))? {
            Some(code) => Ok(SyncKey::from_code(&code)?),
            None => Err(AppError::Keychain(format!(
                "no sync key is kept for this data folder: join the target again with its code \
                 (`vibe sync join`), or set {SYNC_CODE_ENV}"
            ))),
        }
    }

    fn not_set_up() -> AppError {
        AppError::InvalidInput(
            "sync is not set up on this data folder: `vibe sync setup --folder DIR` (or --webdav \
             URL, --s3 URL) on the first device, `vibe sync join … --code CODE` on the others"
                .into(),
        )
    }

    /// Refuses when sync is already set up here (its key and target stay).
    fn ensure_no_sync(&self) -> Result<(), AppError> {
        match self.settings().sync.effective_target() {
            Some(set) => Err(AppError::InvalidInput(format!(
                "sync is already set up on this data folder, with {}",
                crate::app::sync_target::shown(&set)
            ))),
            None => Ok(()),
        }
    }

    /// Keep `key` in the key store (unless `VIBE_SYNC_CODE` gives it), before anything is
    /// written to a target, so a target is never set up with a key this device lost.
    fn keep_sync_key(&self, key: &SyncKey) -> Result<(), AppError> {
        if self.overrides().sync_code.is_some() {
            return Ok(());
        }
        self.keys.set_db_key(&account(self), &key.code()).map_err(|e| match e {
            AppError::Keychain(why) => AppError::Keychain(format!(
                "{why}; the sync key cannot be kept on this device: set {SYNC_CODE_ENV} to its \
                 recovery code instead"
            )),
            other => other,
        })
    }

    /// Start the op log as a new device and record the target in the settings.
    fn sync_begin(&self, target: &SyncTarget) -> Result<SyncStatusView, AppError> {
        self.ensure_no_sync()?;
        let device = match self.store().sync_device()? {
            Some(d) => d.device_id,
            None => uuid::Uuid::new_v4().simple().to_string()[..16].to_string(),
        };
        self.store().sync_enable(&device)?;
        let target = serde_json::to_value(target)
            .map_err(|e| AppError::InvalidInput(format!("the sync target does not encode: {e}")))?;
        let change = |key: &str, value: serde_json::Value| SettingChange { key: key.into(), value };
        let changes = vec![
            change("sync.target", target),
            change("sync.folder", serde_json::Value::Null),
            change("sync.device_id", device.into()),
        ];
        self.update_settings(UpdateSettingsRequest { changes })?;
        self.sync_runs.notify();
        self.sync_status()
    }

    /// `sync_setup`: make `request.target` the target with a new key (or `VIBE_SYNC_CODE`'s).
    /// An unreachable target or a refused login changes nothing, here or there.
    pub async fn sync_setup(
        &self,
        request: &SyncSetupRequest,
    ) -> Result<SyncSetupResponse, AppError> {
        self.ensure_no_sync()?;
        let key = match &self.overrides().sync_code {
            Some(code) => SyncKey::from_code(code)?,
            None => SyncKey::generate()?,
        };
        let secret = request.secret.as_deref();
        let target = self.given_target(&request.target, secret).await?;
        match vibe_sync::check_key(&target, &key).await {
            Ok(()) | Err(vibe_sync::SyncError::NotSetUp(_)) => {}
            Err(vibe_sync::SyncError::WrongKey { target }) => {
                return Err(vibe_sync::SyncError::TargetInUse(target).into());
            }
            Err(e) => return Err(e.into()),
        }
        self.keep_sync_key(&key)?;
        self.keep_target_secret(&request.target, secret)?;
        if let Err(e) = vibe_sync::setup(&target, &key).await {
            self.drop_target_secret();
            return Err(e.into());
        }
        let status = self.sync_begin(&request.target)?;
        let code: Zeroizing<String> = key.code();
        Ok(SyncSetupResponse { code: code.to_string(), status })
    }

    /// `sync_join`: sync through `request.target`, whose key `code` must open. Joining the
    /// target this data folder already syncs through takes the code as its new key (after a
    /// device was removed elsewhere) and the secret as its new one, and keeps this device's id.
    pub async fn sync_join(&self, request: &SyncJoinRequest) -> Result<SyncStatusView, AppError> {
        let key = SyncKey::from_code(&request.code)?;
        let secret = request.secret.as_deref();
        let target = self.given_target(&request.target, secret).await?;
        vibe_sync::check_key(&target, &key).await?;
        if self.settings().sync.effective_target().as_ref() == Some(&request.target) {
            self.keep_sync_key(&key)?;
            self.keep_target_secret(&request.target, secret)?;
            return self.sync_status();
        }
        self.ensure_no_sync()?;
        self.keep_sync_key(&key)?;
        self.keep_target_secret(&request.target, secret)?;
        self.sync_begin(&request.target)
    }

    /// One run (`sync_runner.rs` keeps them one at a time). Refused files are in the answer;
    /// the rest was merged.
    pub(crate) async fn sync_run(&self) -> Result<SyncRunView, AppError> {
        let (target, _) = self.sync_target()?.ok_or_else(Self::not_set_up)?;
        let key = self.sync_key()?;
        let name = host_name();
        let after = self.settings().sync.compact_after.map_or(vibe_sync::COMPACT_AFTER, u64::from);
        let report =
            vibe_sync::sync_now_with(self.store(), &target, &key, name.as_deref(), after).await?;
        if let Some(id) = &report.new_device_id {
            let change = SettingChange { key: "sync.device_id".into(), value: id.as_str().into() };
            self.update_settings(UpdateSettingsRequest { changes: vec![change] })?;
        }
        Ok(SyncRunView {
            sent: report.sent,
            received: report.received,
            changed: report.put as u64,
            deleted: report.deleted as u64,
            skipped: report.skipped,
            refused: report.refused.iter().map(ToString::to_string).collect(),
            new_device_id: report.new_device_id,
        })
    }

    /// `sync_status`: set up or not, the target, what waits to be sent, the devices read from.
    pub fn sync_status(&self) -> Result<SyncStatusView, AppError> {
        let target = self.settings().sync.effective_target();
        let device = self.store().sync_device()?;
        let devices = self.known_devices()?;
        Ok(SyncStatusView {
            enabled: target.is_some() && device.is_some(),
            target: target.as_ref().map(crate::app::sync_target::shown),
            target_settings: target,
            pending_changes: device.as_ref().map_or(0, |d| d.pending_ops),
            last_sync: device.as_ref().and_then(|d| d.last_run.clone()),
            device_id: device.map(|d| d.device_id),
            devices,
            paused: self.settings().sync.paused,
            activity: self.sync_runs.activity(),
        })
    }

    /// `sync_pause`: pause or resume background syncing (a run asked for still runs).
    pub fn sync_pause(&self, request: &SyncPauseRequest) -> Result<SyncStatusView, AppError> {
        if self.settings().sync.effective_target().is_none() {
            return Err(Self::not_set_up());
        }
        let change = SettingChange { key: "sync.paused".into(), value: request.paused.into() };
        self.update_settings(UpdateSettingsRequest { changes: vec![change] })?;
        self.sync_runs.notify();
        self.sync_status()
    }

    /// This device, then every other one this store has read from.
    fn known_devices(&self) -> Result<Vec<SyncDeviceView>, AppError> {
        let Some(me) = self.store().sync_device()? else { return Ok(Vec::new()) };
        let mut out = vec![SyncDeviceView {
            device_id: me.device_id.clone(),
            name: host_name(),
            this_device: true,
            batches: me.uploaded,
            last_seen: me.last_run.clone(),
        }];
        for peer in self.store().sync_peers()? {
            out.push(SyncDeviceView {
                device_id: peer.device_id,
                name: peer.name,
                this_device: false,
                batches: peer.applied,
                last_seen: peer.seen_at,
            });
        }
        Ok(out)
    }

    /// `sync_devices`: the known devices, and those on the target not read from yet.
    pub async fn sync_devices(&self) -> Result<SyncDeviceList, AppError> {
        let (target, _) = self.sync_target()?.ok_or_else(Self::not_set_up)?;
        let mut devices = self.known_devices()?;
        let key = self.sync_key()?;
        for id in vibe_sync::devices(&target, &key).await? {
            if !devices.iter().any(|d| d.device_id == id) {
                devices.push(SyncDeviceView {
                    device_id: id,
                    name: None,
                    this_device: false,
                    batches: 0,
                    last_seen: None,
                });
            }
        }
        Ok(SyncDeviceList { devices })
    }

    /// `sync_remove_device`: stop syncing with `device_id` and replace the key. The new key is
    /// kept here before the target changes (the old one is put back if the target cannot be
    /// written); its recovery code is answered once, for the devices that stay to join again.
    pub async fn sync_remove_device(
        &self,
        request: &SyncRemoveDeviceRequest,
    ) -> Result<SyncSetupResponse, AppError> {
        let (target, me) = self.sync_target()?.ok_or_else(Self::not_set_up)?;
        if request.device_id == me {
            return Err(AppError::InvalidInput(format!(
                "{me} is this device: remove it from another device (`vibe sync remove-device {me}` there)"
            )));
        }
        let old = self.sync_key()?;
        vibe_sync::check_key(&target, &old).await?;
        let new = SyncKey::generate()?;
        self.keep_sync_key(&new)?;
        if let Err(e) = vibe_sync::remove_device(&target, &old, &new, &request.device_id).await {
            self.keep_sync_key(&old)?;
            return Err(e.into());
        }
        self.store().sync_peer_removed(&request.device_id)?;
        self.sync_runs.notify();
        let code: Zeroizing<String> = new.code();
        Ok(SyncSetupResponse { code: code.to_string(), status: self.sync_status()? })
    }
}
