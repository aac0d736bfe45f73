//! File access for the crate: every read of a skill file goes through here so it is counted
//! ([`Reads`], used by tests and `Registry::stats` to prove what was re-read), and files are
//! recognised as unchanged by a [`Fingerprint`] (size, mtime, inode). Path scoping is not
//! here (see `resources`).

use std::fs::{File, Metadata};
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::SystemTime;

use crate::error::SkillsError;

/// Counts file reads (opens for reading).
#[derive(Debug, Default)]
pub(crate) struct Reads(AtomicU64);

impl Reads {
    pub fn count(&self) -> u64 {
        self.0.load(Ordering::Relaxed)
    }

    fn bump(&self) {
        self.0.fetch_add(1, Ordering::Relaxed);
    }
}

/// What identifies a version of a file without reading it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) struct Fingerprint {
    len: u64,
    modified: Option<SystemTime>,
    inode: u64,
}

impl Fingerprint {
    pub fn of(meta: &Metadata) -> Self {
        Self { len: meta.len(), modified: meta.modified().ok(), inode: inode(meta) }
    }
}

#[cfg(unix)]
fn inode(meta: &Metadata) -> u64 {
    use std::os::unix::fs::MetadataExt as _;
    meta.ino()
}

#[cfg(not(unix))]
fn inode(_meta: &Metadata) -> u64 {
    0
}

/// The fingerprint of a file, or `None` when it does not exist or is not a file.
pub(crate) fn fingerprint(path: &Path) -> Option<Fingerprint> {
    std::fs::metadata(path).ok().filter(Metadata::is_file).map(|m| Fingerprint::of(&m))
}

/// Open a file for reading (counted).
pub(crate) fn open(path: &Path, reads: &Reads) -> Result<File, SkillsError> {
    reads.bump();
    File::open(path).map_err(|e| SkillsError::io(path, e))
}

/// Read a whole text file (counted), refusing files over `limit` bytes and non-UTF-8 content.
pub(crate) fn read_text(path: &Path, limit: u64, reads: &Reads) -> Result<String, SkillsError> {
    let bytes = read_bytes(path, limit, reads)?;
    if bytes.len() as u64 > limit {
        return Err(SkillsError::TooLarge { path: path.to_path_buf(), limit });
    }
    String::from_utf8(bytes).map_err(|e| SkillsError::NotText {
        path: path.to_path_buf(),
        bytes: e.as_bytes().len() as u64,
    })
}

/// Read at most `limit + 1` bytes (counted), so callers can tell "exactly limit" from "more".
pub(crate) fn read_bytes(path: &Path, limit: u64, reads: &Reads) -> Result<Vec<u8>, SkillsError> {
    use std::io::Read as _;
    let mut buf = Vec::new();
    open(path, reads)?
        .take(limit.saturating_add(1))
        .read_to_end(&mut buf)
        .map_err(|e| SkillsError::io(path, e))?;
    Ok(buf)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_are_counted_and_limits_enforced() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("a.md");
        std::fs::write(&p, "hello").unwrap();
        let reads = Reads::default();
        assert_eq!(read_text(&p, 5, &reads).unwrap(), "hello");
        assert!(matches!(read_text(&p, 4, &reads), Err(SkillsError::TooLarge { .. })));
        assert_eq!(reads.count(), 2);
        std::fs::write(&p, [0xff, 0xfe]).unwrap();
        assert!(matches!(read_text(&p, 10, &reads), Err(SkillsError::NotText { .. })));
    }

    #[test]
    fn fingerprints_change_when_content_size_changes() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("a.md");
        std::fs::write(&p, "one").unwrap();
        let a = fingerprint(&p).unwrap();
        std::fs::write(&p, "three").unwrap();
        assert_ne!(Some(a), fingerprint(&p));
        assert_eq!(fingerprint(dir.path()), None, "folders have no fingerprint");
    }
}
