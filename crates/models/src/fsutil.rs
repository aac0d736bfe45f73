//! Small file helpers of the models folder: owner-only permissions, atomic writes, free
//! space. Nothing here knows what a model is.

use std::io::Write as _;
use std::path::Path;

use crate::ModelsError;

/// Make `path` readable and writable by its owner only (0600; 0700 for a folder).
pub(crate) fn owner_only(path: &Path) -> Result<(), ModelsError> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt as _;
        let mode = if path.is_dir() { 0o700 } else { 0o600 };
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode))
            .map_err(|e| ModelsError::io("cannot restrict the permissions of", path, e))?;
    }
    #[cfg(not(unix))]
    let _ = path;
    Ok(())
}

/// Write `bytes` to `path` through a temporary file in the same folder, renamed over it.
pub(crate) fn write_atomically(path: &Path, bytes: &[u8]) -> Result<(), ModelsError> {
    let dir = path.parent().unwrap_or(Path::new("."));
    let io = |e| ModelsError::io("cannot write", path, e);
    let mut tmp =
        tempfile::Builder::new().prefix(".model-").suffix(".tmp").tempfile_in(dir).map_err(io)?;
    tmp.write_all(bytes).map_err(io)?;
    tmp.as_file().sync_all().map_err(io)?;
    tmp.persist(path).map_err(|e| io(e.error))?;
    Ok(())
}

/// Bytes free for this user on the disk holding `dir` (or its nearest existing parent).
pub fn free_space(dir: &Path) -> Result<u64, ModelsError> {
    let mut at = dir;
    while !at.exists() {
        match at.parent() {
            Some(parent) if !parent.as_os_str().is_empty() => at = parent,
            _ => break,
        }
    }
    fs4::available_space(at).map_err(|e| ModelsError::io("cannot read the free space of", at, e))
}

/// Refuse when the disk holding `dir` has less than `needed` bytes free.
pub(crate) fn ensure_space(dir: &Path, needed: u64) -> Result<(), ModelsError> {
    let available = free_space(dir)?;
    if available < needed {
        return Err(ModelsError::NoSpace { dir: dir.to_path_buf(), needed, available });
    }
    Ok(())
}

/// Whether a write error means the disk (or the quota) is full.
pub(crate) fn is_disk_full(err: &std::io::Error) -> bool {
    err.kind() == std::io::ErrorKind::StorageFull
        || err.kind() == std::io::ErrorKind::QuotaExceeded
        || matches!(err.raw_os_error(), Some(28 | 122))
}
