//! Mapping HTTP-level failures of the OpenAI-compatible client into `LlmError`: status
//! codes with the server's own message and Retry-After, send failures, and the timeout
//! messages that name the setting to raise. The streaming logic stays in `client.rs`.

use serde_json::Value;

use crate::errors::LlmError;
use crate::retry;
use crate::settings::Endpoint;

/// A non-success status becomes the matching error, with the server's Retry-After (seconds
/// or an HTTP date counted from `now`) on every status.
pub(crate) async fn check_status(
    response: reqwest::Response,
    endpoint: &Endpoint,
    now: std::time::SystemTime,
) -> Result<reqwest::Response, LlmError> {
    let status = response.status();
    if status.is_success() {
        return Ok(response);
    }
    let retry_after = response
        .headers()
        .get("retry-after")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| retry::parse_retry_after(v, now));
    let body = tokio::time::timeout(endpoint.idle_timeout, response.text())
        .await
        .ok()
        .and_then(Result::ok)
        .unwrap_or_default();
    Err(LlmError::from_status(
        status.as_u16(),
        &server_message(&body),
        retry_after,
        &endpoint.shown_url(),
    ))
}

/// The server's own words from an error body: `error.message`, `error`, `message`, or text.
fn server_message(body: &str) -> String {
    let from_json = serde_json::from_str::<Value>(body).ok().and_then(|v| {
        let e = v.get("error").unwrap_or(&v);
        e.get("message")
            .or(v.get("message"))
            .or(Some(e))
            .and_then(|m| m.as_str().map(str::to_string))
    });
    let text = from_json.unwrap_or_else(|| body.trim().to_string());
    let mut short: String = text.chars().take(300).collect();
    if short.len() < text.len() {
        short.push('…');
    }
    short
}

pub(crate) fn first_byte_timeout(endpoint: &Endpoint) -> LlmError {
    LlmError::Timeout {
        message: format!(
            "{} sent nothing for {} s (llm.first_byte_timeout_s); the model may still be loading — try again or raise the timeout",
            endpoint.shown_url(),
            endpoint.first_byte_timeout.as_secs_f64()
        ),
    }
}

pub(crate) fn idle_timeout(endpoint: &Endpoint) -> LlmError {
    LlmError::Timeout {
        message: format!(
            "{} stopped sending for {} s mid-answer (llm.idle_timeout_s)",
            endpoint.shown_url(),
            endpoint.idle_timeout.as_secs_f64()
        ),
    }
}

pub(crate) fn send_error(e: &reqwest::Error, endpoint: &Endpoint) -> LlmError {
    if let Some(redirect) = find_source::<CrossOriginRedirect>(e) {
        return LlmError::Config {
            message: format!(
                "{} redirected the request to another host ({}); a model request is never sent on to another host — if that host is the right endpoint, set llm.base_url to it",
                redirect.from, redirect.to
            ),
        };
    }
    if e.is_timeout() {
        return LlmError::Timeout {
            message: format!(
                "connecting to {} timed out after {} s (llm.connect_timeout_s); is the server reachable?",
                endpoint.shown_url(),
                endpoint.connect_timeout.as_secs_f64()
            ),
        };
    }
    LlmError::Network {
        message: format!(
            "cannot reach {}: {}; is the server running and the base URL right?",
            endpoint.shown_url(),
            chain(e)
        ),
    }
}

/// The redirect policy of the model client: follow a redirect only to the same origin
/// (scheme, host, port) as the request, at most 10 times. Anything else stops with
/// [`CrossOriginRedirect`], so neither the conversation nor the key reaches another host.
pub(crate) fn redirect_policy() -> reqwest::redirect::Policy {
    reqwest::redirect::Policy::custom(|attempt| {
        let Some(first) = attempt.previous().first() else { return attempt.follow() };
        if first.origin() != attempt.url().origin() {
            let from = first.origin().ascii_serialization();
            let to = attempt.url().origin().ascii_serialization();
            return attempt.error(CrossOriginRedirect { from, to });
        }
        if attempt.previous().len() > 10 {
            return attempt.error("more than 10 redirects");
        }
        attempt.follow()
    })
}

/// A redirect to another origin, refused. Both origins carry no userinfo, path or query.
#[derive(Debug, thiserror::Error)]
#[error("refused to follow a redirect from {from} to another host, {to}")]
pub(crate) struct CrossOriginRedirect {
    from: String,
    to: String,
}

fn find_source<'a, T: std::error::Error + 'static>(
    e: &'a (dyn std::error::Error + 'static),
) -> Option<&'a T> {
    let mut source: Option<&(dyn std::error::Error + 'static)> = Some(e);
    while let Some(s) = source {
        if let Some(found) = s.downcast_ref::<T>() {
            return Some(found);
        }
        source = s.source();
    }
    None
}

/// An error and its sources on one line (reqwest's own text is terse).
pub(crate) fn chain(e: &dyn std::error::Error) -> String {
    let mut parts = vec![e.to_string()];
    let mut source = e.source();
    while let Some(s) = source {
        let text = s.to_string();
        if !parts.iter().any(|p| p.contains(&text)) {
            parts.push(text);
        }
        source = s.source();
    }
    parts.join(": ")
}
