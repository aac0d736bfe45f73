//! The key of the run folders at open (docs/privacy.md#run-folders): read from the encrypted
//! database (made the first time), registered for the process so every writer and reader of
//! run folders finds it (`crate::audit::register`), and the clear run folders left from
//! before sealed with it. Sealing files and the format are `crate::audit`'s.

use std::sync::Arc;

use vibe_store::Store;

use crate::app::{AppError, AppPaths};

/// The key of the run folders (docs/privacy.md#run-folders): in an encrypted database, the one
/// stored there (a new random one the first time); registered for the process, and the clear
/// run folders left from before sealed with it. A failure to seal some is logged and tried
/// again at the next open; those files stay readable.
pub(super) fn open(
    paths: &AppPaths,
    store: &Store,
    encrypted: bool,
) -> Result<Option<crate::audit::RunKey>, AppError> {
    let key = if encrypted {
        let mut candidate = zeroize::Zeroizing::new([0u8; vibe_store::RAW_KEY_LEN]);
        getrandom::fill(candidate.as_mut()).map_err(|e| crate::CoreError::AuditIo {
            action: "make the key of the run folders (the OS gave no random bytes) for",
            path: paths.data_dir.join(crate::audit::RUNS_DIR),
            err: std::io::Error::other(e.to_string()),
        })?;
        Some(crate::audit::RunKey::new(&*store.run_file_key(&candidate)?))
    } else {
        None
    };
    crate::audit::register(&paths.data_dir, key.clone());
    if let Some(key) = &key {
        let report = crate::audit::seal_clear_runs(&paths.data_dir, &Arc::new(key.clone()));
        if report.files > 0 {
            tracing::info!(
                files = report.files,
                "encrypted the clear files of earlier run folders"
            );
        }
        for left in &report.left {
            tracing::warn!("run folder left unencrypted for now: {left}");
        }
    }
    Ok(key)
}
