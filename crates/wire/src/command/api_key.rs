//! API key commands. The key goes to the OS keychain and never comes back across the
//! boundary: a front end can only learn whether one is set.

use serde::{Deserialize, Serialize};

/// `set_api_key`: store `key` for `base_url` (the settings' endpoint when absent).
#[derive(Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct SetApiKeyRequest {
    #[serde(default)]
    pub base_url: Option<String>,
    pub key: String,
}

impl std::fmt::Debug for SetApiKeyRequest {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SetApiKeyRequest")
            .field("base_url", &self.base_url)
            .field("key", &"***")
            .finish()
    }
}

/// `clear_api_key` and `api_key_status`: for `base_url` (the settings' endpoint when absent).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct ApiKeyRequest {
    #[serde(default)]
    pub base_url: Option<String>,
}

/// Whether a key is set for an endpoint; never the key.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct ApiKeyStatus {
    pub base_url: String,
    pub is_set: bool,
    /// Set by the environment (`VIBE_LLM_API_KEY`), which wins over the keychain.
    pub from_env: bool,
}
