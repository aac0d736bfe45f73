//! Assembly of the embedded engine for the `local` preset: which file `llm.model` names
//! (an installed model id → `<data dir>/models/<id>.gguf`, or the absolute path of a `.gguf`
//! file), the engine's knobs from `llm.local` (the context window capped by
//! `chat.context.max_context_tokens` unless `llm.local.context_tokens` says otherwise; the
//! same window, read from the file's metadata, fits the prompt budgets), and
//! the structured-action adapter around it, and where it saves prompt states (sealed with the
//! run folders' key). The engine is `vibe-local-llm`, compiled in only
//! with the `local-llm` cargo feature; without it choosing `local` is a config error that
//! says so. Downloading and listing models belongs to `vibe-models`.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use vibe_llm::{ChatModel, Endpoint, LlmError, LlmSettingsExt as _};
use vibe_local_llm::{DEFAULT_STATES_CAP_BYTES, SavedStates, StateSeal};

use crate::app::{App, AppError, LocalWrap};

/// The folder of installed models inside the data dir (the models crate's layout).
pub use vibe_models::MODELS_DIR;

/// The file `llm.model` names: an absolute path to an existing `.gguf` file as it is, else
/// the installed model `<data_dir>/models/<id>.gguf`. An id must be a plain file name. A
/// model that is not installed is [`vibe_models::ModelsError::NotInstalled`] (its hint names the model, and
/// each front end says where models are installed).
pub fn local_model_file(data_dir: &Path, model: &str) -> Result<PathBuf, AppError> {
    let model = model.trim();
    let as_path = Path::new(model);
    let is_gguf = as_path.extension().is_some_and(|e| e.eq_ignore_ascii_case("gguf"));
    if as_path.is_absolute() && is_gguf && as_path.is_file() {
        return Ok(as_path.to_path_buf());
    }
    let plain = !model.is_empty()
        && !model.starts_with('.')
        && !model.contains(['/', '\\', ':', '\0'])
        && !as_path.is_absolute();
    if !plain {
        return Err(LlmError::config(format!(
            "llm.model {model:?} is neither an installed model id nor the absolute path of an existing .gguf file"
        ))
        .into());
    }
    Ok(vibe_models::ModelsDir::new(data_dir).get(model)?.path)
}

impl App {
    /// The context window of the embedded engine when the `local` preset is in force (and no
    /// model is injected): the model file's trained length (GGUF metadata) capped by
    /// `llm.local.context_tokens`, else `chat.context.max_context_tokens` — what the engine
    /// allocates. A file whose metadata cannot be read gives the cap (loading it reports the
    /// problem). `None` for any other endpoint: its window is the settings'.
    pub(crate) fn local_window(&self) -> Result<Option<u32>, AppError> {
        if self.assembly().ready_model.is_some() {
            return Ok(None);
        }
        let endpoint = self.llm_settings(None, None).resolve()?;
        if endpoint.preset.id != vibe_llm::LOCAL_PRESET {
            return Ok(None);
        }
        let Some(model) = endpoint.model.as_deref() else { return Ok(None) };
        let file = local_model_file(&self.paths().data_dir, model)?;
        let cap = endpoint
            .local
            .context_tokens
            .unwrap_or(self.settings().chat.context.max_context_tokens);
        let trained = vibe_models::gguf_context_length(&file).unwrap_or_else(|e| {
            tracing::warn!(error = %e, "cannot read the model's context length; using the cap");
            None
        });
        Ok(Some(trained.map_or(cap, |t| t.min(cap))))
    }

    /// The model of a `local` endpoint, loaded once and kept across turns.
    pub(crate) fn local_model(&self, endpoint: &Endpoint) -> Result<Arc<dyn ChatModel>, AppError> {
        engine::available()?;
        let model = endpoint.model.as_deref().ok_or_else(|| {
            LlmError::config(
                "llm.preset \"local\" needs llm.model: an installed model id or the absolute path of a .gguf file",
            )
        })?;
        let file = local_model_file(&self.paths().data_dir, model)?;
        let cap = endpoint
            .local
            .context_tokens
            .unwrap_or(self.settings().chat.context.max_context_tokens);
        let wrap = self.assembly().local_wrap.clone();
        Ok(engine::open(file, model, cap, endpoint, self.saved_states(), wrap.as_ref())?)
    }

    /// Where the engine saves conversations' prompt states: `<data dir>/kv-states/`, sealed
    /// with the run folders' key (docs/local-model.md#saved-states). None in a data folder
    /// without encryption: a clear state would put the conversation on disk in the clear.
    fn saved_states(&self) -> Option<SavedStates> {
        let key = self.run_folders().key()?.clone();
        Some(SavedStates::new(
            &self.paths().data_dir,
            Arc::new(RunKeySeal(key)),
            DEFAULT_STATES_CAP_BYTES,
        ))
    }
}

/// The engine's saved states sealed with the data folder's run key (its AEAD, as run logs).
struct RunKeySeal(Arc<vibe_runlog::RunKey>);

impl StateSeal for RunKeySeal {
    fn key_id(&self) -> &str {
        self.0.id()
    }

    fn seal(&self, aad: &[u8], plain: &[u8]) -> Option<Vec<u8>> {
        self.0.seal_blob(aad, plain)
    }

    fn open(&self, aad: &[u8], sealed: &[u8]) -> Option<Vec<u8>> {
        self.0.open_blob(aad, sealed)
    }
}

#[cfg(feature = "local-llm")]
mod engine {
    use super::*;
    use vibe_llm::StructuredModel;
    use vibe_local_llm::{LocalConfig, shared_model};

    pub(super) fn available() -> Result<(), LlmError> {
        Ok(())
    }

    pub(super) fn open(
        file: PathBuf,
        name: &str,
        context_cap: u32,
        endpoint: &Endpoint,
        saved_states: Option<SavedStates>,
        wrap: Option<&LocalWrap>,
    ) -> Result<Arc<dyn ChatModel>, LlmError> {
        let config = LocalConfig {
            path: file,
            name: name.to_string(),
            context_cap,
            threads: endpoint.local.threads,
            mmap: endpoint.local.mmap,
            temperature: endpoint.temperature,
            max_tokens: endpoint.max_tokens,
            saved_states,
        };
        let mut local: Arc<dyn ChatModel> = shared_model(&config)?;
        if let Some(wrap) = wrap {
            local = wrap(local);
        }
        // Tools always go through the JSON action protocol (docs/local-model.md#tools).
        Ok(Arc::new(StructuredModel::new(local)))
    }
}

#[cfg(not(feature = "local-llm"))]
mod engine {
    use super::*;

    pub(super) fn available() -> Result<(), LlmError> {
        Err(LlmError::config(vibe_llm::NO_EMBEDDED_ENGINE))
    }

    pub(super) fn open(
        _file: PathBuf,
        _name: &str,
        _context_cap: u32,
        _endpoint: &Endpoint,
        _saved_states: Option<SavedStates>,
        _wrap: Option<&LocalWrap>,
    ) -> Result<Arc<dyn ChatModel>, LlmError> {
        Err(LlmError::config(vibe_llm::NO_EMBEDDED_ENGINE))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_installed_id_names_a_file_in_the_models_folder() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join(MODELS_DIR)).unwrap();
        let file = dir.path().join(MODELS_DIR).join("qwen2.5-0.5b-instruct-q4_k_m.gguf");
        std::fs::write(&file, b"GGUF").unwrap();
        assert_eq!(local_model_file(dir.path(), "qwen2.5-0.5b-instruct-q4_k_m").unwrap(), file);
        assert_eq!(local_model_file(dir.path(), file.to_str().unwrap()).unwrap(), file);
    }

    #[test]
    fn a_missing_model_or_a_path_like_id_says_how_to_fix_it() {
        let dir = tempfile::tempdir().unwrap();
        let err = local_model_file(dir.path(), "llama-3.2-1b").unwrap_err();
        assert_eq!(err.kind(), vibe_wire::ErrorKind::NotFound);
        assert!(err.to_string().contains("no installed model \"llama-3.2-1b\""), "{err}");
        assert_eq!(
            err.hint(),
            Some(vibe_wire::command::Hint::LocalModel { id: "llama-3.2-1b".into() })
        );
        for bad in ["../x", "a/b", "", "/nowhere/model.gguf"] {
            let err = local_model_file(dir.path(), bad).unwrap_err();
            assert_eq!(err.kind().as_str(), "config", "{bad}");
            assert!(!err.to_string().contains("vibe "), "no CLI command in a library error: {err}");
        }
    }
}
