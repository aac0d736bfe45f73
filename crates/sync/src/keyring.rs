//! The keys of a target over time and the devices removed from it (docs/sync.md, "Removing a
//! device"): what `key-check.vlsync` holds, encrypted with the current key. Removing a device
//! makes a new random key; the key check is written again under it, carrying the earlier keys
//! and, per device, the last file number each of them covers. A device with the new key reads
//! every earlier file with the key it was written with; the removed device has only the old
//! key, so it can read nothing new, and its files past its last number are refused. Files are
//! never rewritten: the removed device had their content already. It owns the key check's
//! content and the choice of key per file, not the run (`run`) nor the file format (`batch`).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use zeroize::Zeroizing;

use crate::batch::{self, Place};
use crate::error::{Result, SyncError};
use crate::files::{DEVICES, Folder};
use crate::key::SyncKey;
use crate::target::Target;

/// The file that proves a code opens a target, and holds its key history.
pub const KEY_CHECK: &str = "key-check.vlsync";

/// A key the target used before, and the files written with it.
#[derive(Debug, Clone, Serialize, Deserialize)]
struct OldKey {
    /// Its recovery code.
    code: String,
    /// Per device, the last file number written with this key (or an earlier one).
    through: BTreeMap<String, u64>,
}

/// What `key-check.vlsync` holds.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
struct Content {
    format: u32,
    /// Earlier keys, oldest first.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    previous: Vec<OldKey>,
    /// Devices removed from sync.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    removed: Vec<String>,
}

/// The keys a run reads with.
#[derive(Debug)]
pub struct Keyring {
    current: SyncKey,
    previous: Vec<(SyncKey, BTreeMap<String, u64>)>,
    removed: Vec<String>,
}

impl Keyring {
    /// The key file `number` of `device` must be opened with; a removed device's file past
    /// its last number is refused.
    pub fn key_for(&self, path: &str, device: &str, number: u64) -> Result<&SyncKey> {
        for (key, through) in &self.previous {
            if through.get(device).is_some_and(|&last| number <= last) {
                return Ok(key);
            }
        }
        if self.removed.iter().any(|r| r == device) {
            return Err(SyncError::Removed { file: path.to_string(), device: device.to_string() });
        }
        Ok(&self.current)
    }

    /// The keys a snapshot through `number` of `device` may have been written with, to try in
    /// order: the current one (unless the device was removed), then each earlier key whose
    /// files of the device reach `number`, newest first. None is [`SyncError::Removed`].
    pub fn snapshot_keys(&self, path: &str, device: &str, number: u64) -> Result<Vec<&SyncKey>> {
        let mut keys = Vec::new();
        if !self.removed.iter().any(|r| r == device) {
            keys.push(&self.current);
        }
        for (key, through) in self.previous.iter().rev() {
            if through.get(device).is_some_and(|&last| number <= last) {
                keys.push(key);
            }
        }
        if keys.is_empty() {
            return Err(SyncError::Removed { file: path.to_string(), device: device.to_string() });
        }
        Ok(keys)
    }

    /// The key new files are written with.
    pub fn current(&self) -> &SyncKey {
        &self.current
    }

    /// The devices removed from sync.
    pub fn removed(&self) -> &[String] {
        &self.removed
    }
}

fn place() -> Place<'static> {
    Place { device: "", number: 0 }
}

fn seal_content(key: &SyncKey, content: &Content) -> Result<Vec<u8>> {
    let plain =
        Zeroizing::new(serde_json::to_vec(content).map_err(|e| SyncError::Local(e.to_string()))?);
    batch::seal(key, &place(), &plain)
}

/// Make `target` a sync target for `key`: write its key check, unless it already has one that
/// `key` opens (setting up again is harmless). A target holding another key's data is refused.
pub async fn setup(target: &impl Target, key: &SyncKey) -> Result<()> {
    match open(target, key).await {
        Ok(_) => Ok(()),
        Err(SyncError::NotSetUp(_)) => {
            let bytes = seal_content(key, &Content { format: 1, ..Content::default() })?;
            target.write(KEY_CHECK, bytes).await
        }
        Err(SyncError::WrongKey { .. }) => Err(SyncError::TargetInUse(target.shown().to_string())),
        Err(e) => Err(e),
    }
}

async fn read_content(target: &impl Target, key: &SyncKey) -> Result<Content> {
    let Some(bytes) = target.read(KEY_CHECK).await? else {
        return Err(SyncError::NotSetUp(format!(
            "{} holds no VibeLife sync data: set sync up on the first device with `vibe sync setup`",
            target.shown()
        )));
    };
    let plain = match batch::open(key, KEY_CHECK, &place(), &bytes) {
        Ok(plain) => Zeroizing::new(plain),
        Err(
            SyncError::Tampered { .. } | SyncError::Truncated { .. } | SyncError::Replayed { .. },
        ) => return Err(SyncError::WrongKey { target: target.shown().to_string() }),
        Err(e) => return Err(e),
    };
    serde_json::from_slice(&plain).map_err(|_| SyncError::Tampered { file: KEY_CHECK.into() })
}

/// Open `target`'s key check with `key` ([`SyncError::WrongKey`] when it does not open it,
/// `NotSetUp` when the target holds no sync data): the keys to read its files with.
pub async fn open(target: &impl Target, key: &SyncKey) -> Result<Keyring> {
    let content = read_content(target, key).await?;
    let mut previous = Vec::new();
    for old in &content.previous {
        previous.push((SyncKey::from_code(&old.code)?, old.through.clone()));
    }
    Ok(Keyring { current: key.clone(), previous, removed: content.removed })
}

/// The highest file number (batch or snapshot) of every device on `target`.
async fn last_numbers(target: &impl Target) -> Result<BTreeMap<String, u64>> {
    let mut out = BTreeMap::new();
    for device in target.list(DEVICES).await? {
        let last = Folder::list(target, &device).await?.last();
        out.insert(device, last);
    }
    Ok(out)
}

/// Remove `device` from `target` (opened with `key`): the key check is written again under
/// `new` (a new random key, kept by the caller first), holding `key`, every earlier key and
/// the devices' last file numbers. The devices that stay join again with `new`'s code.
pub async fn remove_device(
    target: &impl Target,
    key: &SyncKey,
    new: &SyncKey,
    device: &str,
) -> Result<()> {
    let mut content = read_content(target, key).await?;
    if content.removed.iter().any(|d| d == device) {
        return Err(SyncError::NotSetUp(format!("device {device} was already removed")));
    }
    let through = last_numbers(target).await?;
    if !through.contains_key(device) {
        return Err(SyncError::NotSetUp(format!(
            "no device {device} syncs through {}: `vibe sync devices` lists their ids",
            target.shown()
        )));
    }
    content.previous.push(OldKey { code: key.code().to_string(), through });
    content.removed.push(device.to_string());
    let bytes = seal_content(new, &content)?;
    target.write(KEY_CHECK, bytes).await
}
