//! What the `models` section of settings.json means: the section itself ([`ModelsSettings`])
//! is a wire type (`vibe_wire::settings`); here is where the catalogue is read from
//! ([`ModelsSettingsExt`]). Which model is in use is the `llm` section's (`llm.preset =
//! "local"`, `llm.model = <id>`), not this one's.

pub use vibe_wire::settings::ModelsSettings;

/// The catalogue location the `models` section gives.
pub trait ModelsSettingsExt {
    /// The catalogue location in force: `VIBE_MODELS_CATALOG` (read through `get`), else the
    /// setting, else `None` (the shipped catalogue).
    fn catalog_location(&self, get: impl Fn(&str) -> Option<String>) -> Option<String>;
}

impl ModelsSettingsExt for ModelsSettings {
    fn catalog_location(&self, get: impl Fn(&str) -> Option<String>) -> Option<String> {
        get(crate::CATALOG_ENV)
            .map(|v| v.trim().to_string())
            .filter(|v| !v.is_empty())
            .or_else(|| self.catalog.clone().filter(|v| !v.trim().is_empty()))
    }
}
