//! API key commands: set, clear, and whether one is set, for an endpoint (the settings'
//! unless named). The key goes to the [`KeyStore`](crate::app::KeyStore) and is never
//! returned; the chat service is rebuilt at the next turn so it uses the new key.

use vibe_llm::ApiKey;
use vibe_wire::command::{ApiKeyRequest, ApiKeyStatus, SetApiKeyRequest};

use crate::app::{App, AppError};

impl App {
    /// `set_api_key`.
    pub fn set_api_key(&self, request: &SetApiKeyRequest) -> Result<ApiKeyStatus, AppError> {
        let key = request.key.trim();
        if key.is_empty() {
            return Err(AppError::InvalidInput(
                "the API key is empty; paste the key your provider gave you".into(),
            ));
        }
        if key.chars().any(char::is_control) {
            return Err(AppError::InvalidInput(
                "the API key holds a line break or another control character; paste the key alone"
                    .into(),
            ));
        }
        let base_url = self.key_base_url(request.base_url.as_deref())?;
        self.keys.set(&base_url, &ApiKey::new(key))?;
        self.reset_service();
        Ok(self.key_status(base_url))
    }

    /// `clear_api_key`.
    pub fn clear_api_key(&self, request: &ApiKeyRequest) -> Result<ApiKeyStatus, AppError> {
        let base_url = self.key_base_url(request.base_url.as_deref())?;
        self.keys.clear(&base_url)?;
        self.reset_service();
        Ok(self.key_status(base_url))
    }

    /// `api_key_status`: whether a key is set (never the key).
    pub fn api_key_status(&self, request: &ApiKeyRequest) -> Result<ApiKeyStatus, AppError> {
        let base_url = self.key_base_url(request.base_url.as_deref())?;
        Ok(self.key_status(base_url))
    }

    fn key_status(&self, base_url: String) -> ApiKeyStatus {
        let from_env = self.overrides.api_key.is_some();
        let is_set = from_env || self.keys.get(&base_url).is_some();
        ApiKeyStatus { base_url: vibe_llm::redact_url(&base_url), is_set, from_env }
    }

    fn key_base_url(&self, base_url: Option<&str>) -> Result<String, AppError> {
        let endpoint = self.endpoint(base_url, None)?;
        if endpoint.base_url.starts_with("scripted:") {
            return Err(AppError::InvalidInput(format!(
                "{} is a scripted model; it takes no API key",
                endpoint.base_url
            )));
        }
        Ok(endpoint.base_url)
    }
}
