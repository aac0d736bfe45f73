//! The app's log: `tracing` to a daily-rotated file in the app's log dir (7 files kept).
//! Owns the subscriber set-up only. At the default level (`info`) nothing logs message text,
//! API keys or settings values; `VIBE_LOG` (an `EnvFilter`) raises or lowers it.

use std::path::Path;

use anyhow::Context as _;
use tracing_appender::non_blocking::WorkerGuard;
use tracing_appender::rolling::{Builder, Rotation};

/// Files kept before the oldest is removed.
const KEPT_FILES: usize = 7;

/// The log's writer thread, kept for the app's lifetime and stopped at exit ([`Guard::flush`]):
/// the process ends without dropping managed state, and the lines logged just before it (why
/// the app quit) would be lost.
pub struct Guard(std::sync::Mutex<Option<WorkerGuard>>);

impl Guard {
    /// Writes what waits and stops the writer; later lines are not written.
    pub fn flush(&self) {
        drop(self.0.lock().unwrap_or_else(|e| e.into_inner()).take());
    }
}

/// Starts logging into `dir/vibelife.<date>.log`. Keep the guard for the app's lifetime.
pub fn init(dir: &Path) -> anyhow::Result<Guard> {
    std::fs::create_dir_all(dir)
        .with_context(|| format!("cannot create log dir {}", dir.display()))?;
    // Owner-only (docs/privacy.md#what-is-stored-where): the appender makes its files with
    // the process umask, so the folder is what keeps other users out.
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt as _;
        std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o700))
            .with_context(|| format!("cannot make log dir {} private", dir.display()))?;
    }
    let appender = Builder::new()
        .rotation(Rotation::DAILY)
        .filename_prefix("vibelife")
        .filename_suffix("log")
        .max_log_files(KEPT_FILES)
        .build(dir)
        .with_context(|| format!("cannot open a log file in {}", dir.display()))?;
    let (writer, guard) = tracing_appender::non_blocking(appender);
    let filter = tracing_subscriber::EnvFilter::try_from_env("VIBE_LOG")
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info"));
    tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(writer)
        .with_ansi(false)
        .try_init()
        .map_err(|e| anyhow::anyhow!("cannot install the log subscriber: {e}"))?;
    Ok(Guard(std::sync::Mutex::new(Some(guard))))
}
