//! Which data folders seal their run files, and with which key. The app registers its data
//! folder when it opens it ([`register`]: the key from its encrypted database, or none for a
//! folder with encryption off) and every writer and reader of run folders in the process looks
//! the key up by data folder ([`key_for`]), so the chat service and memory passes need no key
//! of their own. A folder whose runs were sealed carries the marker `runs/.sealed`: when no
//! app has registered it, writing or reading a sealed file there is refused instead of
//! falling back to clear text.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, LazyLock, PoisonError, RwLock};

use super::{RUNS_DIR, RunKey};
use crate::CoreError;

/// In `runs/`: the run folders of this data folder are sealed (all of them, once written).
pub const SEALED_MARKER: &str = ".sealed";

/// The key of each registered data folder (`None`: encryption is off there). Entries stay for
/// the process's life: a chat service or memory pass may outlive the app that built it.
static REGISTRY: LazyLock<RwLock<HashMap<PathBuf, Option<Arc<RunKey>>>>> =
    LazyLock::new(Default::default);

/// Register `data_dir` as sealing its run files with `key` (`None`: encryption is off there).
/// A later open of the same folder replaces it: the same database holds the same key, and a
/// restored one the key of the restored run folders.
pub fn register(data_dir: &Path, key: Option<RunKey>) {
    let mut map = REGISTRY.write().unwrap_or_else(PoisonError::into_inner);
    map.insert(data_dir.to_path_buf(), key.map(Arc::new));
}

/// The key that seals `data_dir`'s run files: `None` for a folder that keeps them clear. A
/// folder marked sealed that no app registered is refused (its files would be written clear,
/// or cannot be read).
pub fn key_for(data_dir: &Path) -> Result<Option<Arc<RunKey>>, CoreError> {
    if let Some(key) = REGISTRY.read().unwrap_or_else(PoisonError::into_inner).get(data_dir) {
        return Ok(key.clone());
    }
    let marker = data_dir.join(RUNS_DIR).join(SEALED_MARKER);
    if marker.exists() {
        return Err(CoreError::RunSealed {
            path: data_dir.join(RUNS_DIR),
            reason: "the run folders there are encrypted and the key is not loaded; open the \
                     data folder with VibeLife (the app or `vibe --data-dir`) to read or write them"
                .into(),
        });
    }
    Ok(None)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_registered_folder_has_its_key_and_a_later_open_replaces_it() {
        let dir = tempfile::tempdir().unwrap();
        assert!(key_for(dir.path()).unwrap().is_none());
        register(dir.path(), Some(RunKey::new(&[1; 32])));
        let id = RunKey::new(&[1; 32]).id().to_string();
        assert_eq!(key_for(dir.path()).unwrap().unwrap().id(), id);
        register(dir.path(), None);
        assert!(key_for(dir.path()).unwrap().is_none());
    }

    #[test]
    fn a_sealed_folder_nobody_opened_is_refused_not_written_clear() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join(RUNS_DIR)).unwrap();
        std::fs::write(dir.path().join(RUNS_DIR).join(SEALED_MARKER), "").unwrap();
        let err = key_for(dir.path()).unwrap_err().to_string();
        assert!(err.contains("key is not loaded"), "{err}");
        register(dir.path(), None);
        assert!(key_for(dir.path()).unwrap().is_none());
    }
}
