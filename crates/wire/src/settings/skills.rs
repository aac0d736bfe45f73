//! The `skills` section: where the person's extra skill folder is and how much of a resource is
//! read. Turning it into roots is `vibe_skills`' (`RegistryConfig::for_data_dir`).

use std::path::PathBuf;

use serde::{Deserialize, Serialize};

/// The `skills` section of `settings.json`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(default)]
pub struct SkillsSettings {
    /// The project root; a relative path is relative to the data dir.
    pub extra_dir: Option<PathBuf>,
    /// Resource size cap in bytes (default 65536).
    pub max_resource_bytes: Option<u64>,
}
