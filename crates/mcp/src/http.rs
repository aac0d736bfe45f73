//! The streamable HTTP transport of a connection: the SDK's reqwest client for a URL with the
//! configured headers (values already taken from the keychain), checked before anything is
//! sent. Speaking MCP is `client`'s.

use std::collections::HashMap;

use http::{HeaderName, HeaderValue};
use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;

use crate::error::McpError;
use crate::spec::{HttpSpec, Limits};

/// The transport's configuration for `spec`; `Err` for a URL or header the app cannot send.
pub(crate) fn config(
    name: &str,
    spec: &HttpSpec,
    limits: &Limits,
) -> Result<StreamableHttpClientTransportConfig, McpError> {
    let config_error = |reason: String| McpError::Config { server: name.to_string(), reason };
    if !(spec.url.starts_with("http://") || spec.url.starts_with("https://")) {
        return Err(config_error(format!("{:?} is not an http:// or https:// URL", spec.url)));
    }
    // rmcp's reqwest is built without a TLS provider: the workspace's rustls on ring (once per
    // process; a provider installed before stays).
    let _ = rustls::crypto::ring::default_provider().install_default();
    let mut headers = HashMap::new();
    for (k, v) in &spec.headers {
        let key = HeaderName::try_from(k.as_str())
            .map_err(|_| config_error(format!("{k:?} cannot be an HTTP header name")))?;
        // The value is a secret: never echoed.
        let value = HeaderValue::try_from(v.as_str()).map_err(|_| {
            config_error(format!("the value of header {k} has characters HTTP cannot send"))
        })?;
        headers.insert(key, value);
    }
    Ok(StreamableHttpClientTransportConfig::with_uri(spec.url.clone())
        .custom_headers(headers)
        .max_sse_event_size(limits.max_result_bytes.saturating_add(64 * 1024)))
}
