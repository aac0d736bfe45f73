//! What a device's files hold once opened (`Content`: its name, its operations, for a snapshot
//! the last batch it covers) and sealing or opening it with the right key (`keyring`) in the
//! file format (`batch`). It owns the content's shape and its checks, not where files go
//! (`files`) nor when they are written (`run`, `compact`).

use serde::{Deserialize, Serialize};
use vibe_store::LoggedOp;

use crate::batch::{self, Place};
use crate::error::{Result, SyncError};
use crate::keyring::Keyring;

/// What a batch file or a snapshot holds, once opened.
#[derive(Debug, Serialize, Deserialize)]
pub(crate) struct Content {
    /// The name the writing device gave itself (its host name), for the device list.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub device_name: Option<String>,
    pub ops: Vec<LoggedOp>,
    /// A snapshot's last batch covered (`compact`); absent in a batch. Inside the authenticated
    /// content, so a batch renamed to a snapshot's name, or back, is refused as replayed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub through: Option<u64>,
}

/// `content` sealed as file `number` of `device` with the current key.
pub(crate) fn seal_content(
    keys: &Keyring,
    device: &str,
    number: u64,
    content: &Content,
) -> Result<Vec<u8>> {
    let plain = serde_json::to_vec(content).map_err(|e| SyncError::Local(e.to_string()))?;
    batch::seal(keys.current(), &Place { device, number }, &plain)
}

/// Open file `number` of `device` at `path`: a batch, or a snapshot through `number` (tried
/// with each key that may have written it).
pub(crate) fn open_content(
    keys: &Keyring,
    path: &str,
    device: &str,
    number: u64,
    snapshot: bool,
    bytes: &[u8],
) -> Result<Content> {
    let place = Place { device, number };
    let plain = if snapshot {
        let mut opened = Err(SyncError::Tampered { file: path.into() });
        for key in keys.snapshot_keys(path, device, number)? {
            opened = batch::open(key, path, &place, bytes);
            if !matches!(opened, Err(SyncError::Tampered { .. })) {
                break;
            }
        }
        opened?
    } else {
        batch::open(keys.key_for(path, device, number)?, path, &place, bytes)?
    };
    let content: Content =
        serde_json::from_slice(&plain).map_err(|_| SyncError::Tampered { file: path.into() })?;
    let expected = snapshot.then_some(number);
    if content.through != expected {
        let claims = match content.through {
            Some(n) => format!("the snapshot through batch {n} of device {device}"),
            None => format!("batch {number} of device {device}"),
        };
        return Err(SyncError::Replayed { file: path.into(), claims });
    }
    Ok(content)
}
