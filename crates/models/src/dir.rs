//! The models folder, `<data_dir>/models` (owner-only): installed models are `<id>.gguf`
//! with their metadata in `<id>.json`; a download in progress or interrupted is
//! `<id>.gguf.part` (never loaded). Listing, finding and removing installed models. Writing
//! a model into place is `download.rs`'s and `add.rs`'s.

use std::fs::File;
use std::path::{Path, PathBuf};

use crate::ModelsError;
use crate::fsutil::owner_only;
use crate::id::check_id;
use crate::sidecar::Sidecar;

/// The folder inside the data dir.
pub const MODELS_DIR: &str = "models";

/// An installed model.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Installed {
    pub id: String,
    /// The `.gguf` file the engine loads.
    pub path: PathBuf,
    pub size_bytes: u64,
    /// Its metadata, when `<id>.json` is there and readable.
    pub meta: Option<Sidecar>,
}

/// What removing a model deleted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Removed {
    /// Bytes freed (the model and any partial download).
    pub bytes: u64,
    /// Whether an installed model was removed (else only a partial download was).
    pub installed: bool,
}

/// The models folder of one data dir.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ModelsDir {
    dir: PathBuf,
}

impl ModelsDir {
    pub fn new(data_dir: &Path) -> Self {
        Self { dir: data_dir.join(MODELS_DIR) }
    }

    pub fn path(&self) -> &Path {
        &self.dir
    }

    /// `<id>.gguf`: what the engine loads.
    pub fn model_file(&self, id: &str) -> PathBuf {
        self.dir.join(format!("{id}.gguf"))
    }

    /// `<id>.gguf.part`: a download not yet verified.
    pub fn part_file(&self, id: &str) -> PathBuf {
        self.dir.join(format!("{id}.gguf.part"))
    }

    /// `<id>.json`: the model's metadata.
    pub fn sidecar_file(&self, id: &str) -> PathBuf {
        self.dir.join(format!("{id}.json"))
    }

    /// Create the folder (owner-only) if needed.
    pub fn ensure(&self) -> Result<(), ModelsError> {
        if !self.dir.is_dir() {
            std::fs::create_dir_all(&self.dir)
                .map_err(|e| ModelsError::io("cannot create the models folder", &self.dir, e))?;
            owner_only(&self.dir)?;
        }
        Ok(())
    }

    /// Every installed model, by id.
    pub fn installed(&self) -> Result<Vec<Installed>, ModelsError> {
        let entries = match std::fs::read_dir(&self.dir) {
            Ok(entries) => entries,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
            Err(e) => return Err(ModelsError::io("cannot list the models folder", &self.dir, e)),
        };
        let mut models = Vec::new();
        for entry in entries.flatten() {
            let name = entry.file_name();
            let Some(id) = name.to_str().and_then(|n| n.strip_suffix(".gguf")) else { continue };
            if check_id(id).is_err() {
                continue;
            }
            if let Ok(found) = self.get(id) {
                models.push(found);
            }
        }
        models.sort_by(|a, b| a.id.cmp(&b.id));
        Ok(models)
    }

    /// The installed model `id`.
    pub fn get(&self, id: &str) -> Result<Installed, ModelsError> {
        check_id(id)?;
        let path = self.model_file(id);
        let not_installed = || ModelsError::NotInstalled { id: id.into(), dir: self.dir.clone() };
        let meta = std::fs::metadata(&path).map_err(|_| not_installed())?;
        if !meta.is_file() {
            return Err(not_installed());
        }
        Ok(Installed {
            id: id.to_string(),
            size_bytes: meta.len(),
            meta: Sidecar::read(&self.sidecar_file(id)),
            path,
        })
    }

    /// Bytes of an interrupted download of `id`, if there is one.
    pub fn partial_bytes(&self, id: &str) -> Option<u64> {
        std::fs::metadata(self.part_file(id)).ok().map(|m| m.len())
    }

    /// Remove model `id`: its file, its metadata and any partial download. Refused while it
    /// is being downloaded.
    pub fn remove(&self, id: &str) -> Result<Removed, ModelsError> {
        check_id(id)?;
        let part = self.part_file(id);
        let mut bytes = 0;
        let had_part = part.exists();
        if let Ok(file) = File::open(&part) {
            // A running download holds the lock; removing under it would lose its work.
            file.try_lock().map_err(|_| ModelsError::Busy { id: id.into() })?;
            bytes += file.metadata().map(|m| m.len()).unwrap_or(0);
            remove_file(&part)?;
        }
        let model = self.model_file(id);
        let installed = model.is_file();
        if installed {
            bytes += std::fs::metadata(&model).map(|m| m.len()).unwrap_or(0);
            remove_file(&model)?;
        }
        let sidecar = self.sidecar_file(id);
        if sidecar.exists() {
            remove_file(&sidecar)?;
        }
        if !installed && !had_part {
            return Err(ModelsError::NotInstalled { id: id.into(), dir: self.dir.clone() });
        }
        Ok(Removed { bytes, installed })
    }
}

fn remove_file(path: &Path) -> Result<(), ModelsError> {
    match std::fs::remove_file(path) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
        Err(e) => Err(ModelsError::io("cannot remove", path, e)),
    }
}
