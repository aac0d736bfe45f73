//! The JSON file beside each installed model (`<id>.json`): where it came from, its SHA-256
//! and size, when it was added, and the catalogue entry it was downloaded from. Written
//! atomically (a temporary file renamed into place), owner-only. The engine never needs it:
//! it loads `<id>.gguf`.

use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::ModelsError;
use crate::catalog::CatalogEntry;
use crate::fsutil::{owner_only, write_atomically};

/// Where an installed model came from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Source {
    /// Downloaded from a catalogue entry.
    Catalog { url: String },
    /// Copied from a file the person had.
    File { path: String },
}

/// What `<id>.json` holds.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Sidecar {
    pub id: String,
    /// A name for people (the catalogue's, or the file's name).
    pub name: String,
    pub source: Source,
    pub sha256: String,
    pub size_bytes: u64,
    /// RFC 3339 UTC.
    pub added_at: String,
    /// The catalogue entry it was downloaded from.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub catalog: Option<CatalogEntry>,
}

impl Sidecar {
    /// Read `path`; `None` when it is missing or unreadable (the model is listed without it).
    pub fn read(path: &Path) -> Option<Sidecar> {
        let text = std::fs::read_to_string(path).ok()?;
        match serde_json::from_str(&text) {
            Ok(sidecar) => Some(sidecar),
            Err(e) => {
                tracing::warn!(file = %path.display(), "model metadata unreadable, ignored: {e}");
                None
            }
        }
    }

    /// Write it to `path` atomically, owner-only.
    pub fn write(&self, path: &Path) -> Result<(), ModelsError> {
        let mut text = serde_json::to_string_pretty(self)
            .map_err(|e| ModelsError::io("cannot encode", path, std::io::Error::other(e)))?;
        text.push('\n');
        write_atomically(path, text.as_bytes())?;
        owner_only(path)
    }
}
