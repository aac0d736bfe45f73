//! Local models on disk (docs/models.md): the catalogue of downloadable GGUF models (shipped,
//! or overridden by a path or URL), the resumable, verified downloader, adding a GGUF file the
//! person has, and listing and removing installed models in `<data_dir>/models`. No inference
//! (that is `crates/local-llm`'s), no settings writes and no events (the core's `App` turns
//! progress into wire events and selects a model).

mod add;
mod catalog;
mod dir;
mod download;
mod error;
mod fsutil;
mod gguf;
mod gguf_meta;
mod id;
mod settings;
mod shown;
mod sidecar;

pub use add::add_file;
pub use catalog::{CATALOG_ENV, Catalog, CatalogEntry};
pub use dir::{Installed, MODELS_DIR, ModelsDir, Removed};
pub use download::{Progress, Pulled, http_client, pull};
pub use error::ModelsError;
pub use fsutil::free_space;
pub use gguf::{GGUF_MAGIC, check_gguf};
pub use gguf_meta::gguf_context_length;
pub use id::{check_id, id_from_file_name};
pub use settings::{ModelsSettings, ModelsSettingsExt};
pub use shown::shown_url;
pub use sidecar::{Sidecar, Source};

/// Now, as RFC 3339 UTC (seconds).
pub(crate) fn now_rfc3339() -> String {
    chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Secs, true)
}
