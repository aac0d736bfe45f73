//! First-run detection of a local model server: asks the default ports of Ollama
//! (127.0.0.1:11434) and LM Studio (127.0.0.1:1234) for their model list, with a short
//! timeout, and reports which answered. Owns the probing only; it never writes settings and
//! never contacts anything but the loopback addresses of the presets.

use std::time::Duration;

use serde::Serialize;

use crate::models::parse_models;
use crate::presets::PRESETS;

/// Presets looked for on first run, in the order they are offered.
pub const LOCAL_PRESETS: &[&str] = &["ollama", "lmstudio"];

/// How long one probe may take; a server that is not running refuses at once.
pub const PROBE_TIMEOUT: Duration = Duration::from_millis(1500);

/// A local server that answered `GET {base_url}/models`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct LocalServer {
    /// The preset's settings name (`ollama`, `lmstudio`).
    pub preset: String,
    pub label: String,
    pub base_url: String,
    /// Model ids it serves (may be empty: the server runs but has no model yet).
    pub models: Vec<String>,
}

/// Probes every preset of [`LOCAL_PRESETS`] at its default base URL, concurrently.
pub async fn detect_local_servers() -> Vec<LocalServer> {
    let probes = LOCAL_PRESETS
        .iter()
        .filter_map(|id| PRESETS.iter().find(|p| p.id == *id))
        .map(|p| probe(p.id, p.label, p.base_url, PROBE_TIMEOUT));
    futures::future::join_all(probes).await.into_iter().flatten().collect()
}

/// Asks one base URL for its models; `None` when nothing OpenAI-compatible answers in time.
pub(crate) async fn probe(
    preset: &str,
    label: &str,
    base_url: &str,
    timeout: Duration,
) -> Option<LocalServer> {
    let client = reqwest::Client::builder()
        .connect_timeout(timeout)
        .timeout(timeout)
        .no_proxy()
        // A "local" server that redirects elsewhere is not local: same origin only.
        .redirect(crate::http_errors::redirect_policy())
        .build()
        .ok()?;
    let url = format!("{}/models", base_url.trim_end_matches('/'));
    let response = client.get(&url).send().await.ok()?;
    if !response.status().is_success() {
        tracing::debug!(%url, status = %response.status(), "local model server probe: not OK");
        return None;
    }
    let text = response.text().await.ok()?;
    let models = parse_models(&text, base_url).ok()?;
    Some(LocalServer {
        preset: preset.to_string(),
        label: label.to_string(),
        base_url: base_url.to_string(),
        models: models.into_iter().map(|m| m.id).collect(),
    })
}

#[cfg(test)]
#[path = "detect_tests.rs"]
mod tests;
