//! The streamable HTTP transport of a connection: the SDK's reqwest client for a URL with the
//! configured headers (values already taken from the keychain), checked before anything is
//! sent; and telling a server that speaks only the older HTTP+SSE transport apart, which the
//! SDK no longer has (rmcp dropped it in 0.11), so the person is told what to change. Speaking
//! MCP is `client`'s.

use std::collections::HashMap;
use std::time::Duration;

use http::{HeaderName, HeaderValue};
use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;

use crate::error::McpError;
use crate::spec::{HttpSpec, Limits};

/// rmcp's reqwest is built without a TLS provider: the workspace's rustls on ring (once per
/// process; a provider installed before stays).
fn tls_provider() {
    let _ = rustls::crypto::ring::default_provider().install_default();
}

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
    tls_provider();
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

/// How long telling an old HTTP+SSE server apart may take.
const SSE_PROBE: Duration = Duration::from_secs(5);

/// Whether the server at `spec`'s URL speaks the older HTTP+SSE transport (MCP 2024-11-05),
/// as the specification's backwards-compatibility check tells it: after a failed `initialize`
/// POST, a GET asking for an event stream is answered with one whose first event is
/// `endpoint` (where that transport posts its messages). Reads at most a few KiB for at most
/// [`SSE_PROBE`]; anything else (no answer, another status or type) is `false`.
pub(crate) async fn speaks_old_sse(spec: &HttpSpec) -> bool {
    tls_provider();
    let probe = async {
        let client = reqwest::Client::builder().build().ok()?;
        let mut request =
            client.get(&spec.url).header(reqwest::header::ACCEPT, "text/event-stream");
        for (k, v) in &spec.headers {
            request = request.header(k.as_str(), v.as_str());
        }
        let mut response = request.send().await.ok()?;
        let content_type = response.headers().get(reqwest::header::CONTENT_TYPE);
        let stream = content_type
            .and_then(|t| t.to_str().ok())
            .is_some_and(|t| t.starts_with("text/event-stream"));
        if !response.status().is_success() || !stream {
            return Some(false);
        }
        let mut head = Vec::new();
        while head.len() < 4096 && !head.windows(2).any(|w| w == b"\n\n") {
            match response.chunk().await.ok()? {
                Some(chunk) => head.extend_from_slice(&chunk),
                None => break,
            }
        }
        let head = String::from_utf8_lossy(&head);
        let first = head.lines().find_map(|l| l.strip_prefix("event:"));
        Some(first.is_some_and(|event| event.trim() == "endpoint"))
    };
    matches!(tokio::time::timeout(SSE_PROBE, probe).await, Ok(Some(true)))
}

/// `url` as shown in messages: without a user name, password, query or fragment, which may
/// hold a secret.
pub(crate) fn shown(url: &str) -> String {
    match url::Url::parse(url) {
        Ok(mut u) => {
            let _ = u.set_username("");
            let _ = u.set_password(None);
            u.set_query(None);
            u.set_fragment(None);
            u.to_string()
        }
        Err(_) => "(an invalid URL)".to_string(),
    }
}

/// `text` with every form of `url` a transport may quote (as configured, as parsed, without
/// its user name and password) replaced by [`shown`].
pub(crate) fn redact(text: &str, url: &str) -> String {
    let mut forms = vec![url.to_string()];
    if let Ok(mut u) = url::Url::parse(url) {
        forms.push(u.to_string());
        let _ = u.set_username("");
        let _ = u.set_password(None);
        forms.push(u.to_string());
    }
    forms.sort_by_key(|f| std::cmp::Reverse(f.len()));
    let shown = shown(url);
    forms.iter().filter(|f| !f.is_empty()).fold(text.to_string(), |t, f| t.replace(f, &shown))
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_url_is_shown_without_what_may_be_secret() {
        let shown = super::shown("https://bob:pw-9911@h.example/mcp?key=k-5150#x");
        assert_eq!(shown, "https://h.example/mcp");
        let said = "error sending request for url (https://h.example/mcp?key=k-5150#x)";
        let redacted = super::redact(said, "https://bob:pw-9911@h.example/mcp?key=k-5150#x");
        assert_eq!(redacted, "error sending request for url (https://h.example/mcp)");
    }
}
