//! Keeping a model loaded across turns: the app builds its `ChatModel` for every turn, but
//! loading a GGUF model takes seconds and much memory, so the last model opened is kept here
//! and handed out again while its config is unchanged. One model at a time: opening another
//! config releases the previous one (once no turn still holds it).

use std::sync::{Arc, Mutex};

use vibe_llm::LlmError;

use crate::config::LocalConfig;
use crate::model::LocalModel;

static LAST: Mutex<Option<(LocalConfig, Arc<LocalModel>)>> = Mutex::new(None);

/// The loaded model for `config`, opening it when it is not the one kept.
pub fn shared_model(config: &LocalConfig) -> Result<Arc<LocalModel>, LlmError> {
    let mut last = LAST.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    if let Some((kept, model)) = last.as_ref()
        && kept == config
    {
        return Ok(model.clone());
    }
    // Release the previous model before loading the next: two at once may not fit in memory.
    *last = None;
    let model = Arc::new(LocalModel::open(config.clone())?);
    *last = Some((config.clone(), model.clone()));
    Ok(model)
}

/// The counters of the model kept here, if one is: a benchmark reads them before and after
/// each request the app makes (`vibe bench local`) without holding the model itself.
pub fn shared_model_stats() -> Option<crate::stats::EngineStats> {
    let last = LAST.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    last.as_ref().map(|(_, model)| model.stats())
}

/// What the kept model loaded, once it has (`None`: no model is kept): a benchmark waits for
/// the load before timing a turn.
pub fn shared_model_info()
-> Option<impl std::future::Future<Output = Result<crate::stats::LoadedInfo, LlmError>>> {
    let last = LAST.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    let model = last.as_ref().map(|(_, model)| model.clone())?;
    Some(async move { model.info().await })
}
