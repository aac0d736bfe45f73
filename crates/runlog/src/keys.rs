//! A data folder's run folders and the key that seals them, as one value ([`RunFolders`]):
//! the app builds it when it opens the data folder (the key from its encrypted database, or
//! none for a folder with encryption off) and passes it down to every writer and reader of run
//! folders (the chat service, memory passes, run listings, exports, the scripted model's
//! replay). There is no process-wide lookup: what was not handed the value cannot read or
//! write a sealed file. A folder whose runs were sealed carries the marker `runs/.sealed`;
//! opening it without its key ([`RunFolders::unkeyed`]) is refused instead of falling back to
//! clear text.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::{RUNS_DIR, RunAudit, RunFile, RunKey, RunLog, reader, run_dir};
use crate::RunLogError;

/// In `runs/`: the run folders of this data folder are sealed (all of them, once written).
pub const SEALED_MARKER: &str = ".sealed";

/// The run folders of one data folder (`<data_dir>/runs/`) with the key sealing their files
/// (`None`: encryption is off there). Cheap to clone.
#[derive(Clone)]
pub struct RunFolders {
    data_dir: PathBuf,
    key: Option<Arc<RunKey>>,
}

impl std::fmt::Debug for RunFolders {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RunFolders")
            .field("data_dir", &self.data_dir)
            .field("key", &self.key.as_ref().map(|k| k.id().to_string()))
            .finish()
    }
}

impl RunFolders {
    /// The run folders of `data_dir`, sealed with `key` (`None`: the app opened the folder
    /// with encryption off, and its files are written clear).
    pub fn new(data_dir: impl Into<PathBuf>, key: Option<RunKey>) -> Self {
        Self { data_dir: data_dir.into(), key: key.map(Arc::new) }
    }

    /// The run folders of `data_dir` without its key (tools and tests working below the app):
    /// clear files only. A folder marked sealed is refused, since its files would be written
    /// clear or could not be read.
    pub fn unkeyed(data_dir: impl Into<PathBuf>) -> Result<Self, RunLogError> {
        let data_dir = data_dir.into();
        let marker = data_dir.join(RUNS_DIR).join(SEALED_MARKER);
        if marker.exists() {
            return Err(RunLogError::RunSealed {
                path: data_dir.join(RUNS_DIR),
                reason: "the run folders there are encrypted and the key is not loaded; open \
                         the data folder with VibeLife (the app or `vibe --data-dir`) to read \
                         or write them"
                    .into(),
            });
        }
        Ok(Self { data_dir, key: None })
    }

    /// The data folder that holds `runs/`.
    pub fn data_dir(&self) -> &Path {
        &self.data_dir
    }

    /// The key sealing the run files (`None`: they are clear).
    pub fn key(&self) -> Option<&Arc<RunKey>> {
        self.key.as_ref()
    }

    /// The folder of one run, `<data_dir>/runs/<run_id>` (ids that could escape it fail).
    pub fn run_dir(&self, run_id: &str) -> Result<PathBuf, RunLogError> {
        run_dir(&self.data_dir, run_id)
    }

    /// Create (or reopen) a run's folder and open its log (see [`RunAudit::create`]), sealed
    /// with the folders' key when they have one.
    pub fn create(&self, run_id: &str) -> Result<RunAudit, RunLogError> {
        RunAudit::open_in(self.run_dir(run_id)?, run_id, self.key.clone())
    }

    /// A run's event log (see [`super::read_events`]), sealed or clear.
    pub fn read_events(&self, run_id: &str) -> Result<RunLog, RunLogError> {
        reader::read_events_keyed(self, run_id)
    }

    /// The files in a run's folder.
    pub fn run_files(&self, run_id: &str) -> Result<Vec<RunFile>, RunLogError> {
        reader::run_files(&self.data_dir, run_id)
    }

    /// The clear bytes of one file of a run's folder (see [`super::read_run_file`]).
    pub fn read_run_file(&self, run_id: &str, name: &str) -> Result<Vec<u8>, RunLogError> {
        reader::read_run_file_keyed(self, run_id, name)
    }

    /// Ids of the runs on disk, sorted.
    pub fn list(&self) -> Result<Vec<String>, RunLogError> {
        reader::list_runs_on_disk(&self.data_dir)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_folders_carry_the_key_they_were_built_with() {
        let dir = tempfile::tempdir().unwrap();
        assert!(RunFolders::unkeyed(dir.path()).unwrap().key().is_none());
        let id = RunKey::new(&[1; 32]).id().to_string();
        let sealed = RunFolders::new(dir.path(), Some(RunKey::new(&[1; 32])));
        assert_eq!(sealed.key().unwrap().id(), id);
        assert!(RunFolders::new(dir.path(), None).key().is_none());
    }

    #[test]
    fn a_sealed_folder_opened_without_its_key_is_refused_not_written_clear() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join(RUNS_DIR)).unwrap();
        std::fs::write(dir.path().join(RUNS_DIR).join(SEALED_MARKER), "").unwrap();
        let err = RunFolders::unkeyed(dir.path()).unwrap_err().to_string();
        assert!(err.contains("key is not loaded"), "{err}");
        // The app that opened the folder with encryption off writes clear there.
        assert!(RunFolders::new(dir.path(), None).key().is_none());
    }
}
