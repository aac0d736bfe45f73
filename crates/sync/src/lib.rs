//! `vibe-sync`: end-to-end encrypted sync of VibeLife's data through storage the person already
//! has (docs/sync.md). It owns the sync key and its recovery code (`key`), the encrypted file
//! format (`batch`), the key check with the key history and removed devices (`keyring`), the
//! targets (`target`, through Apache OpenDAL; WebDAV and S3 in `remote`), one sync run (`run`)
//! and the compaction of a device's files into a snapshot (`compact`).
//! What is recorded and how operations merge belong to `vibe-store` (its op log, written in
//! the same transaction as each write); where the key is kept and which target is set belong
//! to the app (`vibe-core`). Nothing here sees the database key or an API key.

mod batch;
mod compact;
mod content;
mod dal_error;
mod error;
mod files;
mod key;
mod keyring;
mod remote;
mod run;
mod target;

pub use batch::{Place, open, seal};
pub use compact::{COMPACT_AFTER, compact_ops};
pub use error::{Result, SyncError};
pub use files::{DEVICES, batch_path, snapshot_path};
pub use key::SyncKey;
pub use keyring::{KEY_CHECK, Keyring, remove_device, setup};
pub use remote::{S3Place, shown_s3};
pub use run::{SyncReport, check_key, devices, sync_now, sync_now_with};
pub use target::{DalTarget, Target};
