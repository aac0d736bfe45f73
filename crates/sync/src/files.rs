//! Where a device's files are on the target: `devices/<id>/<number>.vlsync` (its batches) and
//! `devices/<id>/snapshot-<number>.vlsync` (its compacted batches 1 to `number`), and what a
//! device's folder holds. It knows nothing of what files contain.

use std::collections::BTreeSet;

use crate::error::Result;
use crate::target::{PART, Target};

/// The folder of the devices' batch files.
pub const DEVICES: &str = "devices";

const EXT: &str = ".vlsync";

/// The path of batch `number` of `device` on the target.
pub fn batch_path(device: &str, number: u64) -> String {
    format!("{DEVICES}/{device}/{number:012}{EXT}")
}

const SNAPSHOT: &str = "snapshot-";

/// The path of the snapshot of `device` that covers its batches 1 to `through`.
pub fn snapshot_path(device: &str, through: u64) -> String {
    format!("{DEVICES}/{device}/{SNAPSHOT}{through:012}{EXT}")
}

/// What a device's folder holds: the numbers of its batch files and of its snapshots, and the
/// names of files left under a temporary name (`target::PART`) by a writer that was stopped.
#[derive(Debug, Default)]
pub(crate) struct Folder {
    pub batches: BTreeSet<u64>,
    pub snapshots: BTreeSet<u64>,
    pub parts: Vec<String>,
}

impl Folder {
    pub(crate) async fn list(target: &impl Target, device: &str) -> Result<Self> {
        let mut folder = Self::default();
        for name in target.list(&format!("{DEVICES}/{device}")).await? {
            if name.contains(PART) {
                folder.parts.push(name);
                continue;
            }
            let Some(stem) = name.strip_suffix(EXT) else { continue };
            if let Some(n) = stem.strip_prefix(SNAPSHOT).and_then(|n| n.parse().ok()) {
                folder.snapshots.insert(n);
            } else if let Ok(n) = stem.parse() {
                folder.batches.insert(n);
            }
        }
        Ok(folder)
    }

    /// The highest number of any of its files.
    pub(crate) fn last(&self) -> u64 {
        let last = |s: &BTreeSet<u64>| s.last().copied().unwrap_or(0);
        last(&self.batches).max(last(&self.snapshots))
    }
}
