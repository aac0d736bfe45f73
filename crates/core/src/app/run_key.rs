//! The run folders and their key at open (docs/privacy.md#run-folders): the key read from the
//! encrypted database (made the first time), the clear run folders left from before sealed
//! with it, and both handed back as one [`RunFolders`] value the app passes down to every
//! writer and reader of run folders. Sealing files and the format are `vibe_runlog`'s.

use vibe_store::Store;

use vibe_runlog::RunFolders;

use crate::app::{AppError, AppPaths};

/// The run folders of this data folder with their key (docs/privacy.md#run-folders): in an
/// encrypted database, the one stored there (a new random one the first time), and the clear
/// run folders left from before sealed with it; none when encryption is off. A failure to seal some is logged and tried
/// again at the next open; those files stay readable.
pub(super) fn open(
    paths: &AppPaths,
    store: &Store,
    encrypted: bool,
) -> Result<RunFolders, AppError> {
    let key = if encrypted {
        let mut candidate = zeroize::Zeroizing::new([0u8; vibe_store::RAW_KEY_LEN]);
        getrandom::fill(candidate.as_mut()).map_err(|e| vibe_runlog::RunLogError::AuditIo {
            action: "make the key of the run folders (the OS gave no random bytes) for",
            path: paths.data_dir.join(vibe_runlog::RUNS_DIR),
            err: std::io::Error::other(e.to_string()),
        })?;
        Some(vibe_runlog::RunKey::new(&*store.run_file_key(&candidate)?))
    } else {
        None
    };
    let folders = RunFolders::new(&paths.data_dir, key);
    if let Some(key) = folders.key() {
        let report = vibe_runlog::seal_clear_runs(&paths.data_dir, key);
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
    Ok(folders)
}
