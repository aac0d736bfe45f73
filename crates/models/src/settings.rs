//! [`ModelsSettings`]: the `models` section of settings.json. Which model is in use is the
//! `llm` section's (`llm.preset = "local"`, `llm.model = <id>`), not this one's.

use serde::{Deserialize, Serialize};

/// The `models` section.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ModelsSettings {
    /// Where the catalogue is read from (a path or an http(s) URL) instead of the shipped
    /// one; `VIBE_MODELS_CATALOG` wins over it.
    pub catalog: Option<String>,
}

impl ModelsSettings {
    /// The catalogue location in force: `VIBE_MODELS_CATALOG` (read through `get`), else the
    /// setting, else `None` (the shipped catalogue).
    pub fn catalog_location(&self, get: impl Fn(&str) -> Option<String>) -> Option<String> {
        get(crate::CATALOG_ENV)
            .map(|v| v.trim().to_string())
            .filter(|v| !v.is_empty())
            .or_else(|| self.catalog.clone().filter(|v| !v.trim().is_empty()))
    }
}
