//! One sync run against a target: opening the key check (`keyring`), writing this device's
//! sealed batches (`devices/<device id>/<number>.vlsync`, immutable, written only by that
//! device; another copy of this data folder writing under the same id gives this one a new
//! id), then reading every other device's new batches in order and handing them to the store
//! to apply. A refused file stops the reading of that device's files (later ones wait for it)
//! and is reported; nothing of it is merged. It owns the order of steps, not the merge rules
//! (`vibe_store`'s `sync_apply`), the file format (`batch`) nor the keys (`keyring`).

use vibe_store::{Store, SyncApplied};

use crate::compact::{self, COMPACT_AFTER};
use crate::content::{Content, open_content, seal_content};
use crate::error::{Result, SyncError};
use crate::files::{DEVICES, Folder, batch_path, snapshot_path};
use crate::key::SyncKey;
use crate::keyring::{self, Keyring};
use crate::target::Target;

/// What one run did.
#[derive(Debug, Default)]
pub struct SyncReport {
    /// This device's batches written to the target.
    pub sent: u64,
    /// Other devices' batches applied here.
    pub received: u64,
    /// Entries added or changed here, and deleted here.
    pub put: usize,
    pub deleted: usize,
    /// Operations that could not be applied here, and why.
    pub skipped: Vec<String>,
    /// Files refused (wrong key, tampered, truncated, replayed): nothing of them was merged.
    pub refused: Vec<SyncError>,
    /// Another copy of this data folder (a backup restored elsewhere) was syncing as this
    /// device: this one took this new id, and reads the other as a device of its own.
    pub new_device_id: Option<String>,
    /// This device's files were compacted into a snapshot through this batch.
    pub compacted: Option<u64>,
}

/// Whether `key` opens `target` ([`SyncError::WrongKey`] when not, `NotSetUp` when the target
/// holds no sync data).
pub async fn check_key(target: &impl Target, key: &SyncKey) -> Result<()> {
    keyring::open(target, key).await.map(|_| ())
}

/// One run: check the key, write this device's sealed batches, apply every other device's
/// new ones, compact this device's files once [`COMPACT_AFTER`] batches follow its last
/// snapshot. `device_name` travels inside this device's batches.
pub async fn sync_now(
    store: &Store,
    target: &impl Target,
    key: &SyncKey,
    device_name: Option<&str>,
) -> Result<SyncReport> {
    sync_now_with(store, target, key, device_name, COMPACT_AFTER).await
}

/// [`sync_now`], compacting once `compact_after` batches follow the last snapshot.
pub async fn sync_now_with(
    store: &Store,
    target: &impl Target,
    key: &SyncKey,
    device_name: Option<&str>,
    compact_after: u64,
) -> Result<SyncReport> {
    let keys = keyring::open(target, key).await?;
    if store.sync_device()?.is_none() {
        return Err(SyncError::NotSetUp("sync is not set up on this device".into()));
    }
    for removed in keys.removed() {
        store.sync_peer_removed(removed)?;
    }
    let mut report = SyncReport::default();
    let me = match send(store, target, &keys, device_name, &mut report).await {
        Err(SyncError::Twin { device }) => {
            // Another copy of this data folder (a restored backup) writes as this device: this
            // copy becomes a new device, and the other one's files are read as a peer's.
            let new = uuid::Uuid::new_v4().simple().to_string()[..16].to_string();
            tracing::warn!(old = device, new, "another copy syncs as this device; new device id");
            store.sync_new_device_id(&new)?;
            report.new_device_id = Some(new);
            send(store, target, &keys, device_name, &mut report).await?
        }
        other => other?,
    };
    for device in target.list(DEVICES).await? {
        if device == me {
            continue;
        }
        if let Err(e) = receive(store, target, &keys, &device, &mut report).await {
            if !e.is_refusal() {
                return Err(e);
            }
            tracing::warn!(device, "sync file refused: {e}");
            report.refused.push(e);
        }
    }
    let uploaded = store.sync_device()?.map_or(0, |d| d.uploaded);
    report.compacted =
        compact::compact(target, &keys, &me, uploaded, device_name, compact_after).await?;
    store.sync_finished()?;
    Ok(report)
}

/// Write this device's sealed batches; answers its id. A file already at a batch's place is
/// this device's own (a run killed before it marked it written) when it holds the same
/// operations; otherwise, or when the target has a file past this device's last, another copy
/// of this data folder writes as this device ([`SyncError::Twin`]) and nothing more is sent.
async fn send(
    store: &Store,
    target: &impl Target,
    keys: &Keyring,
    device_name: Option<&str>,
    report: &mut SyncReport,
) -> Result<String> {
    let me = store
        .sync_device()?
        .ok_or_else(|| SyncError::NotSetUp("sync is not set up on this device".into()))?
        .device_id;
    let twin = || SyncError::Twin { device: me.clone() };
    let mine = Folder::list(target, &me).await?;
    // What a run of this device killed while writing left (files under a temporary name); no
    // other device writes there.
    for part in &mine.parts {
        target.delete(&format!("{DEVICES}/{me}/{part}")).await?;
    }
    // A snapshot past what this copy wrote: another copy wrote, then compacted, as this device.
    let uploaded = store.sync_device()?.map_or(0, |d| d.uploaded);
    if mine.snapshots.last().is_some_and(|&s| s > uploaded) {
        return Err(twin());
    }
    for sealed in store.sync_seal()? {
        let path = batch_path(&me, sealed.number);
        let there = match target.read(&path).await? {
            Some(bytes) => Some(open_content(keys, &path, &me, sealed.number, false, &bytes)),
            None => None,
        };
        // A file cut short at this place is this device's own write, interrupted: written again.
        let whole = there.filter(|opened| !matches!(opened, Err(SyncError::Truncated { .. })));
        if let Some(opened) = whole {
            if !opened.is_ok_and(|c| c.ops == sealed.ops) {
                return Err(twin());
            }
        } else {
            let name = device_name.map(str::to_string);
            let content = Content { device_name: name, ops: sealed.ops, through: None };
            let bytes = seal_content(keys, &me, sealed.number, &content)?;
            target.write(&path, bytes).await?;
        }
        store.sync_uploaded(sealed.number)?;
        report.sent += 1;
    }
    let written = store.sync_device()?.map_or(0, |d| d.uploaded);
    if target.read(&batch_path(&me, written + 1)).await?.is_some() {
        return Err(twin());
    }
    Ok(me)
}

/// Apply the new batches of `device`, in order, until one is missing or refused. A missing
/// batch that a snapshot of the device covers (it compacted its files) is read from the
/// snapshot, and the batches after it from there on.
async fn receive(
    store: &Store,
    target: &impl Target,
    keys: &Keyring,
    device: &str,
    report: &mut SyncReport,
) -> Result<()> {
    let mut number = store.sync_peer_cursor(device)?;
    let mut listed = false;
    loop {
        let path = batch_path(device, number);
        let (done, next) = if let Some(bytes) = target.read(&path).await? {
            let content = open_content(keys, &path, device, number, false, &bytes)?;
            let name = content.device_name.as_deref();
            (store.sync_apply(device, number, name, &content.ops)?, number + 1)
        } else {
            if listed {
                return Ok(());
            }
            listed = true;
            let folder = Folder::list(target, device).await?;
            let Some(&through) = folder.snapshots.range(number..).last() else { return Ok(()) };
            let path = snapshot_path(device, through);
            let Some(bytes) = target.read(&path).await? else { return Ok(()) };
            let content = open_content(keys, &path, device, through, true, &bytes)?;
            let name = content.device_name.as_deref();
            (store.sync_apply_snapshot(device, through, name, &content.ops)?, through + 1)
        };
        if let Some(SyncApplied { put, deleted, skipped, .. }) = done {
            report.put += put;
            report.deleted += deleted;
            report.skipped.extend(skipped);
            report.received += 1;
        }
        number = next;
    }
}

/// The ids of the devices that wrote to `target` (opened with `key`) and were not removed.
pub async fn devices(target: &impl Target, key: &SyncKey) -> Result<Vec<String>> {
    let keys = keyring::open(target, key).await?;
    let all = target.list(DEVICES).await?;
    Ok(all.into_iter().filter(|d| !keys.removed().contains(d)).collect())
}
