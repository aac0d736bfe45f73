//! When to try again: exponential backoff with jitter, and the server's Retry-After header
//! (seconds or an HTTP date). Whether an error is retryable at all is `LlmError::is_retryable`.

use std::time::Duration;

use crate::errors::LlmError;

/// Wait before retry number `attempt` (0-based): `base * 2^attempt`, jittered to 50–100 %.
pub(crate) fn backoff(attempt: u32, base: Duration) -> Duration {
    let full = base.saturating_mul(2u32.saturating_pow(attempt.min(16)));
    full.mul_f64(0.5 + fastrand::f64() * 0.5)
}

/// How long to wait before retrying `error`, or `None` when the server asked for longer
/// than `max_wait` (then the error is reported instead).
pub(crate) fn wait_for(
    error: &LlmError,
    attempt: u32,
    base: Duration,
    max_wait: Duration,
) -> Option<Duration> {
    match error {
        LlmError::RateLimited { retry_after: Some(d), .. } => (*d <= max_wait).then_some(*d),
        _ => Some(backoff(attempt, base).min(max_wait)),
    }
}

/// Parse a Retry-After value: delay seconds (`"2"`, `"1.5"`) or an HTTP date.
pub(crate) fn parse_retry_after(value: &str) -> Option<Duration> {
    let value = value.trim();
    if let Ok(secs) = value.parse::<f64>() {
        return Duration::try_from_secs_f64(secs.max(0.0)).ok();
    }
    let at = chrono::DateTime::parse_from_rfc2822(value).ok()?;
    let ms = (at.with_timezone(&chrono::Utc) - chrono::Utc::now()).num_milliseconds().max(0);
    Some(Duration::from_millis(ms as u64))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn backoff_grows_and_stays_within_jitter_bounds() {
        let base = Duration::from_millis(100);
        for attempt in 0..4 {
            let full = base * 2u32.pow(attempt);
            let d = backoff(attempt, base);
            assert!(d >= full / 2 && d <= full, "{attempt}: {d:?}");
        }
    }

    #[test]
    fn retry_after_accepts_seconds_and_dates() {
        assert_eq!(parse_retry_after("2"), Some(Duration::from_secs(2)));
        assert_eq!(parse_retry_after("0.5"), Some(Duration::from_millis(500)));
        assert_eq!(parse_retry_after("Wed, 21 Oct 2015 07:28:00 GMT"), Some(Duration::ZERO));
        assert_eq!(parse_retry_after("soon"), None);
    }

    #[test]
    fn a_retry_after_longer_than_the_cap_gives_up() {
        let e = LlmError::RateLimited {
            message: String::new(),
            retry_after: Some(Duration::from_secs(3600)),
        };
        assert_eq!(wait_for(&e, 0, Duration::from_millis(1), Duration::from_secs(60)), None);
        let e = LlmError::RateLimited {
            message: String::new(),
            retry_after: Some(Duration::from_secs(1)),
        };
        assert_eq!(
            wait_for(&e, 0, Duration::from_millis(1), Duration::from_secs(60)),
            Some(Duration::from_secs(1))
        );
    }
}
