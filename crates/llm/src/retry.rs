//! When to try again: exponential backoff with jitter, the server's Retry-After header
//! (seconds or an HTTP date) on any retryable status, and the clock the waiting goes through
//! ([`RetryClock`], injectable so tests prove the wait without sleeping). Whether an error is
//! retryable at all is `LlmError::is_retryable`.

use std::time::{Duration, SystemTime};

use futures::future::BoxFuture;

use crate::errors::LlmError;

/// The time the retry logic sees: the wall clock (to turn an HTTP-date Retry-After into a
/// wait) and the sleep between attempts. [`SystemClock`] is the real one; tests give the
/// client a clock that records each wait and returns at once.
pub trait RetryClock: Send + Sync {
    fn now(&self) -> SystemTime;
    fn sleep(&self, wait: Duration) -> BoxFuture<'static, ()>;
}

/// The real clock: `SystemTime::now` and `tokio::time::sleep`.
#[derive(Debug, Clone, Copy, Default)]
pub struct SystemClock;

impl RetryClock for SystemClock {
    fn now(&self) -> SystemTime {
        SystemTime::now()
    }

    fn sleep(&self, wait: Duration) -> BoxFuture<'static, ()> {
        Box::pin(tokio::time::sleep(wait))
    }
}

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
        LlmError::RateLimited { retry_after: Some(d), .. }
        | LlmError::Server { retry_after: Some(d), .. } => (*d <= max_wait).then_some(*d),
        _ => Some(backoff(attempt, base).min(max_wait)),
    }
}

/// Parse a Retry-After value: delay seconds (`"2"`, `"1.5"`) or an HTTP date, counted
/// from `now` (a date already past means no wait).
pub(crate) fn parse_retry_after(value: &str, now: SystemTime) -> Option<Duration> {
    let value = value.trim();
    if let Ok(secs) = value.parse::<f64>() {
        return Duration::try_from_secs_f64(secs.max(0.0)).ok();
    }
    let at = chrono::DateTime::parse_from_rfc2822(value).ok()?;
    let now = chrono::DateTime::<chrono::Utc>::from(now);
    let ms = (at.with_timezone(&chrono::Utc) - now).num_milliseconds().max(0);
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
        let now = SystemTime::UNIX_EPOCH + Duration::from_secs(1_445_412_450); // 07:27:30 GMT
        assert_eq!(parse_retry_after("2", now), Some(Duration::from_secs(2)));
        assert_eq!(parse_retry_after("0.5", now), Some(Duration::from_millis(500)));
        let date = "Wed, 21 Oct 2015 07:28:00 GMT";
        assert_eq!(parse_retry_after(date, now), Some(Duration::from_secs(30)));
        let later = now + Duration::from_secs(60);
        assert_eq!(parse_retry_after(date, later), Some(Duration::ZERO));
        assert_eq!(parse_retry_after("soon", now), None);
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
        let e = LlmError::from_status(503, "", Some(Duration::from_secs(30)), "x");
        assert_eq!(
            wait_for(&e, 0, Duration::from_millis(1), Duration::from_secs(60)),
            Some(Duration::from_secs(30))
        );
        let e = LlmError::from_status(503, "", Some(Duration::from_secs(90)), "x");
        assert_eq!(wait_for(&e, 0, Duration::from_millis(1), Duration::from_secs(60)), None);
    }
}
