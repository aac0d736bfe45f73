//! Settings commands: read the effective settings, change some keys. The document's types are
//! [`crate::settings`]; reading, checking and writing the file is the core's
//! (`vibe_core::app::settings`).

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::command::PresetView;
use crate::settings::Settings;

/// `get_settings` (and the answer of `update_settings`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct SettingsView {
    /// The settings file (absolute path).
    pub file: String,
    /// The data folder (database, runs, user skills).
    pub data_dir: String,
    /// Every section with every key, defaults filled in. Never holds an API key.
    pub settings: Settings,
    /// The provider presets the `llm.preset` key accepts.
    pub presets: Vec<PresetView>,
}

/// One change: `key` is dotted (`llm.model`, `chat.budgets.max_rounds`); a `null` value
/// removes the key, so its default applies. The core checks the changed document with the
/// [`Settings`] types; in TypeScript this type is generated from them too (`ts_bindings`): a
/// union of every dotted key of [`Settings`] with the type of its value, so a misspelt key or a
/// value of the wrong type does not type-check.
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
