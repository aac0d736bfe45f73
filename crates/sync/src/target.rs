//! Where batch files go: the [`Target`] trait (read, write, list one folder) and its one
//! implementation over Apache OpenDAL ([`DalTarget`]): a local folder (which the person syncs
//! with Syncthing, Nextcloud, Dropbox or iCloud Drive), a WebDAV folder or an S3-compatible
//! bucket (`remote`). It knows nothing of what the files hold, and never shows a credential:
//! `shown` and every error name the target by its URL without them. A file appears whole or not
//! at all: in a folder it is written under a temporary name ([`PART`]) beside its place and
//! renamed (OpenDAL's fs backend writes in place), an S3 object appears when its upload ends,
//! and a WebDAV server keeps a cut-short upload under its name at worst, which the reader
//! refuses as truncated and its writer writes again (`run`).

use std::path::Path;

use opendal::{ErrorKind, Operator};

use crate::error::{Result, SyncError};

/// Storage a sync run reads and writes. Paths are relative, `/`-separated.
pub trait Target: Send + Sync {
    /// How the target is shown to the person (a folder's path, a URL without credentials).
    fn shown(&self) -> &str;
    /// The file at `path`, `None` when there is none.
    fn read(&self, path: &str) -> impl Future<Output = Result<Option<Vec<u8>>>> + Send;
    /// Write the file at `path` (whole; made with its folders).
    fn write(&self, path: &str, bytes: Vec<u8>) -> impl Future<Output = Result<()>> + Send;
    /// The names of the entries of folder `dir` (without a trailing `/`); none when it is missing.
    fn list(&self, dir: &str) -> impl Future<Output = Result<Vec<String>>> + Send;
    /// Remove the file at `path` (none there is fine).
    fn delete(&self, path: &str) -> impl Future<Output = Result<()>> + Send;
}

/// What a file's temporary name holds (`<name><PART><random>`) while it is being written to a
/// folder; a writer killed before the rename leaves it, and its device removes it later.
pub const PART: &str = ".part-";

/// A target through OpenDAL.
#[derive(Clone, Debug)]
pub struct DalTarget {
    op: Operator,
    shown: String,
    /// Write under a temporary name, then rename (a local folder).
    rename: bool,
}

impl DalTarget {
    /// A local folder (made when missing).
    pub fn folder(dir: &Path) -> Result<Self> {
        let shown = dir.display().to_string();
        let unreachable = |why: String| SyncError::Unreachable { target: shown.clone(), why };
        std::fs::create_dir_all(dir).map_err(|e| unreachable(e.to_string()))?;
        // Already installed (by an earlier target or the process) is fine.
        let _ = rustls::crypto::ring::default_provider().install_default();
        let root = dir.to_str().ok_or_else(|| unreachable("the path is not UTF-8".into()))?;
        let op = Operator::new(opendal::services::Fs::default().root(root))
            .map_err(|e| unreachable(e.to_string()))?
            .finish();
        Ok(Self { op, shown, rename: true })
    }

    /// A target over a built operator (`remote`).
    pub(crate) fn new(op: Operator, shown: String) -> Self {
        Self { op, shown, rename: false }
    }

    fn unreachable(&self, e: &opendal::Error) -> SyncError {
        crate::dal_error::failure(&self.shown, e)
    }

    /// Whether the target answers (its top folder is listed): a refused login, a missing bucket or
    /// folder, an unreachable server is an error before anything is written anywhere.
    pub async fn probe(&self) -> Result<()> {
        self.op.list("/").await.map(|_| ()).map_err(|e| self.unreachable(&e))
    }
}

impl Target for DalTarget {
    fn shown(&self) -> &str {
        &self.shown
    }

    async fn read(&self, path: &str) -> Result<Option<Vec<u8>>> {
        match self.op.read(path).await {
            Ok(buffer) => Ok(Some(buffer.to_vec())),
            Err(e) if e.kind() == ErrorKind::NotFound => Ok(None),
            Err(e) => Err(self.unreachable(&e)),
        }
    }

    async fn write(&self, path: &str, bytes: Vec<u8>) -> Result<()> {
        if !self.rename {
            return self.op.write(path, bytes).await.map(|_| ()).map_err(|e| self.unreachable(&e));
        }
        let part = format!("{path}{PART}{}", uuid::Uuid::new_v4().simple());
        let written = match self.op.write(&part, bytes).await {
            Ok(_) => self.op.rename(&part, path).await,
            Err(e) => Err(e),
        };
        if let Err(e) = written {
            let _ = self.op.delete(&part).await;
            return Err(self.unreachable(&e));
        }
        Ok(())
    }

    async fn delete(&self, path: &str) -> Result<()> {
        self.op.delete(path).await.map_err(|e| self.unreachable(&e))
    }

    async fn list(&self, dir: &str) -> Result<Vec<String>> {
        let dir = format!("{}/", dir.trim_end_matches('/'));
        let entries = match self.op.list(&dir).await {
            Ok(entries) => entries,
            Err(e) if e.kind() == ErrorKind::NotFound => return Ok(Vec::new()),
            Err(e) => return Err(self.unreachable(&e)),
        };
        let mut names: Vec<String> = entries
            .iter()
            .filter(|e| e.path() != dir)
            .map(|e| e.name().trim_end_matches('/').to_string())
            .filter(|n| !n.is_empty())
            .collect();
        names.sort();
        Ok(names)
    }
}
