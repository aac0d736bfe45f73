//! The crate's one error enum: the small typed set every front end can show and the retry
//! logic can reason about. Mapping HTTP statuses and stream error objects into it lives here;
//! the retry policy itself does not (see `retry.rs`).

use std::time::Duration;

use vibe_wire::{ErrorInfo, ErrorKind};

use crate::redact::Secrets;

/// Everything that can go wrong talking to a model. Messages never contain the API key.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum LlmError {
    /// The endpoint rejected the credentials (HTTP 401/403). Not retried.
    #[error("{message}")]
    Auth { status: u16, message: String },
    /// Too many requests (HTTP 429 or a rate-limit error object). Retried before the first
    /// delta, waiting `retry_after` when the server gave one.
    #[error("{message}")]
    RateLimited { message: String, retry_after: Option<Duration> },
    /// The server failed (HTTP 5xx or an error object sent mid-stream). Retried before the
    /// first delta, waiting `retry_after` when the server gave one (e.g. 503 + Retry-After).
    #[error("{message}")]
    Server { status: Option<u16>, message: String, retry_after: Option<Duration> },
    /// The server refused the request (other 4xx), with its own message. Not retried.
    #[error("{message}")]
    BadRequest { status: u16, message: String },
    /// Connecting or reading failed (refused, reset, DNS). Retried before the first delta.
    #[error("{message}")]
    Network { message: String },
    /// The connect, first-byte or idle timeout expired. Retried before the first delta.
    #[error("{message}")]
    Timeout { message: String },
    /// The server sent something that is not the OpenAI streaming format, or the model's
    /// structured answer was malformed. Not retried by the client.
    #[error("{message}")]
    Protocol { message: String },
    /// The stream ended before the server said it was done; deltas already yielded stand.
    /// Retried only when nothing had been yielded yet.
    #[error("{message}")]
    Truncated { message: String },
    /// Local configuration is unusable (settings, base URL, script file, tools file). Not
    /// retried; the message says what is wrong (each front end says where to fix it).
    #[error("{message}")]
    Config { message: String },
}

impl LlmError {
    /// The kind, as in `vibe llm probe --json` and `ErrorInfo.kind`.
    pub fn kind(&self) -> ErrorKind {
        match self {
            Self::Auth { .. } => ErrorKind::Auth,
            Self::RateLimited { .. } => ErrorKind::RateLimited,
            Self::Server { .. } => ErrorKind::Server,
            Self::BadRequest { .. } => ErrorKind::BadRequest,
            Self::Network { .. } => ErrorKind::Network,
            Self::Timeout { .. } => ErrorKind::Timeout,
            Self::Protocol { .. } => ErrorKind::Protocol,
            Self::Truncated { .. } => ErrorKind::Truncated,
            Self::Config { .. } => ErrorKind::Config,
        }
    }

    /// Whole seconds the server asked us to wait, when it said so.
    pub fn retry_after_s(&self) -> Option<u64> {
        match self {
            Self::RateLimited { retry_after: Some(d), .. }
            | Self::Server { retry_after: Some(d), .. } => {
                Some(d.as_secs() + u64::from(d.subsec_nanos() > 0))
            }
            _ => None,
        }
    }

    /// Whether trying again (before any delta was yielded) may help.
    pub fn is_retryable(&self) -> bool {
        matches!(
            self,
            Self::RateLimited { .. }
                | Self::Server { .. }
                | Self::Network { .. }
                | Self::Timeout { .. }
                | Self::Truncated { .. }
        )
    }

    pub fn info(&self) -> ErrorInfo {
        ErrorInfo::new(self.kind(), self.to_string())
    }

    pub(crate) fn protocol(message: impl Into<String>) -> Self {
        Self::Protocol { message: message.into() }
    }

    /// A [`LlmError::Config`] with `message` (what is wrong, where, how to fix it).
    pub fn config(message: impl Into<String>) -> Self {
        Self::Config { message: message.into() }
    }

    /// Map a non-success HTTP status and the server's own message.
    pub(crate) fn from_status(
        status: u16,
        server_message: &str,
        retry_after: Option<Duration>,
        endpoint: &str,
    ) -> Self {
        let said =
            if server_message.is_empty() { String::new() } else { format!(": {server_message}") };
        match status {
            401 | 403 => Self::Auth {
                status,
                message: format!(
                    "{endpoint} rejected the credentials (HTTP {status}{said}): the API key is missing, wrong or not allowed to use this model"
                ),
            },
            429 => Self::RateLimited {
                message: format!(
                    "{endpoint} is rate limiting requests (HTTP 429{said}){}",
                    match retry_after {
                        Some(d) => format!("; it asked to retry after {} s", d.as_secs_f64()),
                        None => "; wait a moment and try again".to_string(),
                    }
                ),
                retry_after,
            },
            500..=599 => Self::Server {
                status: Some(status),
                message: format!(
                    "{endpoint} failed (HTTP {status}{said}); {}",
                    match retry_after {
                        Some(d) => format!(
                            "it is unavailable for now and asked to retry after {} s",
                            d.as_secs_f64()
                        ),
                        None => {
                            "the server or model may be overloaded or crashed, check its logs"
                                .to_string()
                        }
                    }
                ),
                retry_after,
            },
            _ => Self::BadRequest {
                status,
                message: format!(
                    "{endpoint} refused the request (HTTP {status}{said}); check the model name and parameters"
                ),
            },
        }
    }

    /// Map an `{"error": ...}` object the server sent as a stream event.
    pub(crate) fn from_error_object(error: &serde_json::Value, endpoint: &str) -> Self {
        let message = match error {
            serde_json::Value::String(s) => s.clone(),
            serde_json::Value::Object(o) => o
                .get("message")
                .and_then(|m| m.as_str())
                .map(str::to_string)
                .unwrap_or_else(|| error.to_string()),
            other => other.to_string(),
        };
        let code = error
            .get("code")
            .and_then(|c| c.as_u64().or_else(|| c.as_str().and_then(|s| s.parse().ok())));
        let kind = [error.get("type"), error.get("code")]
            .into_iter()
            .flatten()
            .filter_map(|v| v.as_str())
            .collect::<Vec<_>>()
            .join(" ")
            .to_ascii_lowercase();
        let said = match code {
            Some(c) => format!("{endpoint} reported an error mid-stream (code {c}): {message}"),
            None => format!("{endpoint} reported an error mid-stream: {message}"),
        };
        let status = match code {
            Some(c @ 400..=599) => c as u16,
            _ if kind.contains("rate") || kind.contains("quota") => 429,
            _ if kind.contains("auth") || kind.contains("permission") => 401,
            _ if kind.contains("invalid_request") => 400,
            _ => return Self::Server { status: None, message: said, retry_after: None },
        };
        match Self::from_status(status, &message, None, endpoint) {
            Self::Server { status, retry_after, .. } => {
                Self::Server { status, message: said, retry_after }
            }
            Self::BadRequest { status, .. } => Self::BadRequest { status, message: said },
            other => other,
        }
    }

    /// Remove every form of every secret from the message (server messages may echo the
    /// key, the URL's password or token), and redact any URL in it.
    pub(crate) fn redacted(self, secrets: &Secrets) -> Self {
        let scrub = |m: String| secrets.scrub(&m);
        match self {
            Self::Auth { status, message } => Self::Auth { status, message: scrub(message) },
            Self::RateLimited { message, retry_after } => {
                Self::RateLimited { message: scrub(message), retry_after }
            }
            Self::Server { status, message, retry_after } => {
                Self::Server { status, message: scrub(message), retry_after }
            }
            Self::BadRequest { status, message } => {
                Self::BadRequest { status, message: scrub(message) }
            }
            Self::Network { message } => Self::Network { message: scrub(message) },
            Self::Timeout { message } => Self::Timeout { message: scrub(message) },
            Self::Protocol { message } => Self::Protocol { message: scrub(message) },
            Self::Truncated { message } => Self::Truncated { message: scrub(message) },
            Self::Config { message } => Self::Config { message: scrub(message) },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn statuses_map_to_the_documented_kinds() {
        let kind = |s| LlmError::from_status(s, "m", None, "http://x").kind().as_str();
        assert_eq!(kind(401), "auth");
        assert_eq!(kind(403), "auth");
        assert_eq!(kind(429), "rate_limited");
        assert_eq!(kind(503), "server");
        assert_eq!(kind(404), "bad_request");
        assert_eq!(kind(422), "bad_request");
    }

    #[test]
    fn retry_after_rounds_up_to_whole_seconds() {
        let e = LlmError::from_status(429, "", Some(Duration::from_millis(1500)), "x");
        assert_eq!(e.retry_after_s(), Some(2));
        assert!(e.is_retryable());
    }

    #[test]
    fn a_server_error_carries_retry_after_too() {
        let e = LlmError::from_status(503, "", Some(Duration::from_secs(30)), "x");
        assert_eq!(e.kind().as_str(), "server");
        assert_eq!(e.retry_after_s(), Some(30));
        assert!(e.to_string().contains("retry after 30 s"), "{e}");
    }

    #[test]
    fn error_objects_are_classified_by_code_or_type() {
        let e = LlmError::from_error_object(&json!({"message": "slow down", "code": 429}), "x");
        assert_eq!(e.kind().as_str(), "rate_limited");
        let e =
            LlmError::from_error_object(&json!({"message": "boom", "type": "server_error"}), "x");
        assert_eq!(e.kind().as_str(), "server");
        assert!(e.to_string().contains("boom"));
        let e = LlmError::from_error_object(&json!("plain text"), "x");
        assert!(e.to_string().contains("plain text"));
    }

    #[test]
    fn redaction_removes_the_secret_everywhere() {
        let e = LlmError::from_status(401, "bad key sk-secret-123", None, "x");
        let e = e.redacted(&Secrets::new(Some("sk-secret-123"), "http://x"));
        assert!(!e.to_string().contains("sk-secret-123"));
        assert!(e.to_string().contains("[redacted]"));
    }
}
