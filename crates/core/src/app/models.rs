//! Local model commands (docs/models.md) over `vibe_models`: `list_local_models` (catalogue,
//! installed models, free disk space), `pull_model` (progress as `model_download_*` events to
//! the caller's sink, outside any run), `cancel_model_download`, `remove_model`, `add_model`
//! and `use_model`, which selects the `local` preset with that model through the typed
//! settings. Files, downloads and checks are `vibe_models`'s; running a model is the engine's.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError};

use tokio_util::sync::CancellationToken;
use vibe_models::{Catalog, CatalogEntry, Installed, ModelsDir, ModelsError, Source};
use vibe_wire::command::{
    AddModelRequest, CatalogModelView, InstalledModelView, LocalModelRequest, LocalModels,
    ModelDownloadCancelled, ModelInUse, ModelOrigin, ModelPulled, ModelRemoved, SettingChange,
    UpdateSettingsRequest,
};
use vibe_wire::{ErrorInfo, Event};

use crate::app::{App, AppError};
use vibe_runlog::emit::{Emitter, EventSink};

/// The `llm.preset` that runs an installed model in-process.
pub const LOCAL_PRESET: &str = "local";

/// The downloads running in this app, by model id, with what cancels each.
#[derive(Default)]
pub struct Downloads {
    running: Mutex<HashMap<String, CancellationToken>>,
}

impl Downloads {
    fn start(&self, id: &str) -> Result<Running<'_>, AppError> {
        let mut running = self.running.lock().unwrap_or_else(PoisonError::into_inner);
        if running.contains_key(id) {
            return Err(ModelsError::Busy { id: id.into() }.into());
        }
        let token = CancellationToken::new();
        running.insert(id.to_string(), token.clone());
        Ok(Running { downloads: self, id: id.to_string(), token })
    }

    fn is_running(&self, id: &str) -> bool {
        self.running.lock().unwrap_or_else(PoisonError::into_inner).contains_key(id)
    }

    fn cancel(&self, id: &str) -> bool {
        let running = self.running.lock().unwrap_or_else(PoisonError::into_inner);
        running.get(id).map(CancellationToken::cancel).is_some()
    }
}

/// One running download; leaves the list when dropped.
struct Running<'a> {
    downloads: &'a Downloads,
    id: String,
    token: CancellationToken,
}

impl Drop for Running<'_> {
    fn drop(&mut self) {
        self.downloads.running.lock().unwrap_or_else(PoisonError::into_inner).remove(&self.id);
    }
}

impl App {
    /// The models folder of this data dir.
    pub fn models_dir(&self) -> ModelsDir {
        ModelsDir::new(&self.paths.data_dir)
    }

    /// The `.gguf` file of installed model `id` (what the `local` preset loads).
    pub fn installed_model_path(&self, id: &str) -> Result<PathBuf, AppError> {
        Ok(self.models_dir().get(id)?.path)
    }

    /// Where the catalogue is read from: `VIBE_MODELS_CATALOG`, else `models.catalog`, else
    /// `None` (the shipped one).
    fn catalog_location(&self) -> Option<String> {
        self.assembly().catalog.clone()
    }

    /// The catalogue in force.
    pub async fn model_catalog(&self) -> Result<Catalog, AppError> {
        let client = vibe_models::http_client();
        Ok(Catalog::load(self.catalog_location().as_deref(), &client).await?)
    }

    /// `list_local_models`. A catalogue that cannot be read is reported in `catalog_error`:
    /// the installed models are listed all the same.
    pub async fn list_local_models(&self) -> Result<LocalModels, AppError> {
        let (catalog, catalog_error) = match self.model_catalog().await {
            Ok(catalog) => (catalog, None),
            Err(e) => {
                let source = self
                    .catalog_location()
                    .map_or_else(|| "shipped".into(), |l| vibe_models::shown_url(&l));
                (Catalog { source, models: Vec::new() }, Some(e.to_error_info()))
            }
        };
        let dir = self.models_dir();
        let installed = dir.installed()?;
        let in_use = self.local_model_in_use();
        let catalog_views = catalog
            .models
            .iter()
            .map(|entry| catalog_view(entry, &dir, &installed, &self.downloads))
            .collect();
        Ok(LocalModels {
            catalog: catalog_views,
            installed: installed.iter().map(|m| installed_view(m, in_use.as_deref())).collect(),
            models_dir: dir.path().display().to_string(),
            free_bytes: vibe_models::free_space(dir.path()).ok(),
            catalog_source: catalog.source,
            catalog_error,
            in_use,
        })
    }

    /// `pull_model`: download catalogue model `id` (resuming a partial file), verify it and
    /// put it in place. Progress, the end and a failure go to `sink` as `model_download_*`
    /// events; the answer is the installed model. Cancelled by `cancel_model_download`.
    pub async fn pull_model(
        &self,
        request: &LocalModelRequest,
        sink: Arc<dyn EventSink>,
    ) -> Result<ModelPulled, AppError> {
        let catalog = self.model_catalog().await?;
        let entry = catalog.find(&request.id)?.clone();
        let running = self.downloads.start(&entry.id)?;
        let emitter = Emitter::new("", vec![sink]);
        let id = entry.id.clone();
        let client = vibe_models::http_client();
        let progress = |p: vibe_models::Progress| {
            emitter.emit(Event::ModelDownloadProgress {
                id: id.clone(),
                received: p.received,
                total: p.total,
            });
        };
        let dir = self.models_dir();
        let pulled = vibe_models::pull(&dir, &entry, &client, &running.token, &progress).await;
        drop(running);
        match pulled {
            Ok(pulled) => {
                let model = installed_view(&pulled.installed, self.local_model_in_use().as_deref());
                emitter.emit(Event::ModelDownloadFinished {
                    id: id.clone(),
                    size_bytes: model.size_bytes,
                    sha256: model.sha256.clone().unwrap_or_default(),
                });
                Ok(ModelPulled {
                    model,
                    resumed_from: pulled.resumed_from,
                    restarted: pulled.restarted,
                    already_installed: pulled.already_installed,
                })
            }
            Err(e) => {
                let e = AppError::from(e);
                emitter.emit(Event::ModelDownloadFailed {
                    id,
                    error: ErrorInfo::new(e.kind(), e.to_string()),
                });
                Err(e)
            }
        }
    }

    /// `cancel_model_download`: stop this app's download of `id` (the partial file is kept;
    /// pulling again resumes).
    pub fn cancel_model_download(&self, request: &LocalModelRequest) -> ModelDownloadCancelled {
        ModelDownloadCancelled {
            id: request.id.clone(),
            cancelled: self.downloads.cancel(&request.id),
        }
    }

    /// `remove_model`: delete model `id` and any partial download of it.
    pub fn remove_model(&self, request: &LocalModelRequest) -> Result<ModelRemoved, AppError> {
        if self.downloads.is_running(&request.id) {
            return Err(ModelsError::Busy { id: request.id.clone() }.into());
        }
        let removed = self.models_dir().remove(&request.id)?;
        Ok(ModelRemoved {
            id: request.id.clone(),
            freed_bytes: removed.bytes,
            was_installed: removed.installed,
            was_in_use: self.local_model_in_use().as_deref() == Some(request.id.as_str()),
        })
    }

    /// `add_model`: copy a GGUF file into the models folder (blocking: file IO).
    pub fn add_model(&self, request: &AddModelRequest) -> Result<InstalledModelView, AppError> {
        let path = Path::new(&request.path);
        let installed = vibe_models::add_file(&self.models_dir(), path, request.id.as_deref())?;
        Ok(installed_view(&installed, self.local_model_in_use().as_deref()))
    }

    /// `use_model`: select the `local` preset with installed model `id` (settings
    /// `llm.preset` and `llm.model`, validated and written like any settings change). The
    /// server address of the endpoint used before (`llm.base_url`) is removed: the model runs
    /// inside VibeLife and the `local` preset takes no base URL.
    pub fn use_model(&self, request: &LocalModelRequest) -> Result<ModelInUse, AppError> {
        let installed = self.models_dir().get(&request.id)?;
        let changes = vec![
            SettingChange { key: "llm.preset".into(), value: LOCAL_PRESET.into() },
            SettingChange { key: "llm.model".into(), value: request.id.clone().into() },
            SettingChange { key: "llm.base_url".into(), value: serde_json::Value::Null },
        ];
        let view = self.update_settings(UpdateSettingsRequest { changes })?;
        Ok(ModelInUse {
            model: installed_view(&installed, Some(&installed.id)),
            settings_file: view.file,
        })
    }

    /// The installed model the settings select, when the preset is `local`.
    fn local_model_in_use(&self) -> Option<String> {
        let llm = self.settings().llm;
        (llm.preset.as_deref() == Some(LOCAL_PRESET)).then_some(llm.model).flatten()
    }
}

fn catalog_view(
    entry: &CatalogEntry,
    dir: &ModelsDir,
    installed: &[Installed],
    downloads: &Downloads,
) -> CatalogModelView {
    CatalogModelView {
        id: entry.id.clone(),
        name: entry.name.clone(),
        parameters: entry.parameters.clone(),
        quantization: entry.quantization.clone(),
        url: vibe_models::shown_url(&entry.url),
        size_bytes: entry.size_bytes,
        sha256: entry.sha256.clone(),
        license: entry.license.clone(),
        license_url: entry.license_url.clone(),
        context_length: entry.context_length,
        ram_bytes: entry.ram_bytes,
        installed: installed.iter().any(|m| m.id == entry.id),
        partial_bytes: dir.partial_bytes(&entry.id),
        downloading: downloads.is_running(&entry.id),
    }
}

fn installed_view(model: &Installed, in_use: Option<&str>) -> InstalledModelView {
    let meta = model.meta.as_ref();
    let (origin, source) = match meta.map(|m| &m.source) {
        Some(Source::Catalog { url }) => (ModelOrigin::Catalog, Some(vibe_models::shown_url(url))),
        Some(Source::File { path }) => (ModelOrigin::File, Some(path.clone())),
        None => (ModelOrigin::Unknown, None),
    };
    InstalledModelView {
        id: model.id.clone(),
        name: meta.map_or_else(|| model.id.clone(), |m| m.name.clone()),
        path: model.path.display().to_string(),
        size_bytes: model.size_bytes,
        origin,
        source,
        sha256: meta.map(|m| m.sha256.clone()),
        added_at: meta.map(|m| m.added_at.clone()),
        in_use: in_use == Some(model.id.as_str()),
    }
}
