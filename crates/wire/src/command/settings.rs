//! Settings commands: read the effective settings, change some keys. The settings' types
//! and their validation live in the core (`vibe_core::app::Settings`); across the boundary
//! the document travels as JSON, the shape of `settings.json`.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::command::PresetView;

/// `get_settings` (and the answer of `update_settings`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct SettingsView {
    /// The settings file (absolute path).
    pub file: String,
    /// The data folder (database, runs, user skills).
    pub data_dir: String,
    /// Every section with every key, defaults filled in (`llm`, `skills`, `tools`, `chat`,
    /// `preferences`). Never holds an API key.
    pub settings: Value,
    /// The provider presets the `llm.preset` key accepts.
    pub presets: Vec<PresetView>,
}

/// One change: `key` is dotted (`llm.model`, `chat.budgets.max_rounds`); a `null` value
/// removes the key, so its default applies.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct SettingChange {
    pub key: String,
    pub value: Value,
}

/// `update_settings`: every change is validated together; on an error nothing is written.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct UpdateSettingsRequest {
    pub changes: Vec<SettingChange>,
}
