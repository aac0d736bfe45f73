//! The `models` section: where the local-model catalogue comes from. Which model is in use is
//! the `llm` section's (`llm.preset = "local"`, `llm.model = <id>`); reading the catalogue is
//! `vibe_models`'.

use serde::{Deserialize, Serialize};

/// The `models` section; an unknown key is refused.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(default, deny_unknown_fields)]
pub struct ModelsSettings {
    /// Where the catalogue is read from (a path or an http(s) URL) instead of the shipped
    /// one; `VIBE_MODELS_CATALOG` wins over it.
    pub catalog: Option<String>,
}
