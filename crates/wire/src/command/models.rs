//! Local model commands (docs/models.md): the catalogue with what is installed and the free
//! disk space, downloading a catalogue model (progress as `model_download_*` events),
//! cancelling it, removing a model, adding a GGUF file by path, and using a model (the `local`
//! preset with that model).

use serde::{Deserialize, Serialize};

use crate::ErrorInfo;

/// One downloadable model of the catalogue, and its state here.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct CatalogModelView {
    pub id: String,
    pub name: String,
    /// Parameter count as published (`1.5B`).
    pub parameters: String,
    pub quantization: String,
    pub url: String,
    pub size_bytes: u64,
    pub sha256: String,
    pub license: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub license_url: Option<String>,
    /// Trained context, in tokens.
    pub context_length: u32,
    /// Memory needed to run it.
    pub ram_bytes: u64,
    /// Whether `<id>.gguf` is installed.
    pub installed: bool,
    /// Bytes of an interrupted download (pulling again resumes from there).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub partial_bytes: Option<u64>,
    /// Whether a download of it runs in this app now.
    pub downloading: bool,
}

/// Where an installed model came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum ModelOrigin {
    /// Downloaded from the catalogue.
    Catalog,
    /// Added from a file the person had.
    File,
    /// Its metadata file is missing (copied in by hand).
    Unknown,
}

/// An installed model.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct InstalledModelView {
    pub id: String,
    pub name: String,
    /// The `.gguf` file (absolute path).
    pub path: String,
    pub size_bytes: u64,
    pub origin: ModelOrigin,
    /// The URL or the file it came from.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sha256: Option<String>,
    /// RFC 3339 UTC.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub added_at: Option<String>,
    /// Whether the settings use it (`llm.preset = "local"`, `llm.model = id`).
    pub in_use: bool,
}

/// `list_local_models`: the catalogue, what is installed, and room left.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct LocalModels {
    pub catalog: Vec<CatalogModelView>,
    pub installed: Vec<InstalledModelView>,
    /// The models folder (absolute path).
    pub models_dir: String,
    /// Bytes free on its disk (absent when the system does not say).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub free_bytes: Option<u64>,
    /// Where the catalogue came from: `shipped`, a path or a URL.
    pub catalog_source: String,
    /// Why the catalogue could not be read (then `catalog` is empty; installed models are
    /// still listed and can be used or removed).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub catalog_error: Option<ErrorInfo>,
    /// The installed model the settings use, if the `local` preset is chosen.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub in_use: Option<String>,
}

/// `pull_model`, `cancel_model_download`, `remove_model`, `use_model`: one model by id.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct LocalModelRequest {
    pub id: String,
}

/// `pull_model`: the installed model once it is verified and in place.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct ModelPulled {
    pub model: InstalledModelView,
    /// Bytes kept from an interrupted download (0 for a fresh one).
    pub resumed_from: u64,
    /// The server ignored the resume request, so the file came again from the start.
    pub restarted: bool,
    /// It was installed already; nothing was downloaded.
    pub already_installed: bool,
}

/// `cancel_model_download`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct ModelDownloadCancelled {
    pub id: String,
    /// Whether a download of it was running in this app.
    pub cancelled: bool,
}

/// `remove_model`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct ModelRemoved {
    pub id: String,
    /// Bytes freed (the model and any partial download).
    pub freed_bytes: u64,
    /// Whether an installed model was removed (else only a partial download was).
    pub was_installed: bool,
    /// The settings used it; they still name it until another model or endpoint is chosen.
    pub was_in_use: bool,
}

/// `add_model`: copy a GGUF file into the models folder.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct AddModelRequest {
    /// The file (absolute, or relative to the front end's working folder).
    pub path: String,
    /// The id to give it (made from the file name when absent).
    #[serde(default)]
    pub id: Option<String>,
}

/// `use_model`: the settings now select the `local` preset with this model.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct ModelInUse {
    pub model: InstalledModelView,
    /// The settings file written.
    pub settings_file: String,
}
