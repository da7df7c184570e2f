//! When to try an HTTP call again, and how long to wait first: the policy both remote
//! engines ([`crate::engine::upstream`]) and client mode ([`crate::client`]) follow.
//!
//! Owns the backoff (full jitter: uniform in `[0, min(max_backoff, backoff·2ⁿ)]`, so callers
//! that failed together do not retry together), reading a server's `Retry-After`, and the
//! causes of a transport error. What is *worth* retrying stays with each caller: an engine
//! and the arbiter server differ in which statuses are safe to repeat.

use reqwest::header::{HeaderMap, HeaderValue};
use std::time::{Duration, SystemTime};

/// How many times a call is retried and how long each wait may be.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct RetryPolicy {
    /// Retries after the first attempt.
    pub(crate) retries: u32,
    /// The first retry waits up to this, doubling per retry.
    pub(crate) backoff: Duration,
    /// No jittered wait is longer.
    pub(crate) max_backoff: Duration,
    /// A wait the server asks for (`Retry-After`) longer than this ends the retries.
    pub(crate) max_wait: Duration,
}

/// What to do after attempt `retry + 1` failed in a way worth retrying.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Next {
    /// Wait this long, then try again.
    Wait(Duration),
    /// Every retry is spent.
    Exhausted,
    /// The server asked for a wait longer than [`RetryPolicy::max_wait`].
    AskedTooLong(Duration),
}

impl RetryPolicy {
    /// After retry `retry` (from 0) failed: the server's `asked` wait when it gave one, else
    /// full jitter; or give up.
    pub(crate) fn next(&self, retry: u32, asked: Option<Duration>) -> Next {
        if retry >= self.retries {
            return Next::Exhausted;
        }
        match asked {
            Some(wait) if wait > self.max_wait => Next::AskedTooLong(wait),
            Some(wait) => Next::Wait(wait),
            None => Next::Wait(self.jitter(retry)),
        }
    }

    /// The jittered wait before retry `retry` (from 0).
    pub(crate) fn jitter(&self, retry: u32) -> Duration {
        backoff_jitter(self.backoff, self.max_backoff, retry)
    }
}

/// The wait before retry `retry` (from 0): uniform in `[0, min(max, backoff·2^retry)]`.
pub(crate) fn backoff_jitter(backoff: Duration, max: Duration, retry: u32) -> Duration {
    let ceiling = backoff.saturating_mul(2u32.saturating_pow(retry)).min(max);
    ceiling.mul_f64(fastrand::f64())
}

/// How long the server asked to wait: `retry-after-ms` (milliseconds, as OpenAI and
/// Anthropic send), else `Retry-After` in seconds or as an HTTP date.
pub(crate) fn retry_after(headers: &HeaderMap) -> Option<Duration> {
    let text = |name: &str| {
        headers
            .get(name)
            .and_then(|v: &HeaderValue| v.to_str().ok())
    };
    if let Some(ms) = text("retry-after-ms").and_then(|v| v.trim().parse::<f64>().ok())
        && ms.is_finite()
        && ms >= 0.0
    {
        return Duration::try_from_secs_f64(ms / 1000.0).ok();
    }
    let value = text("retry-after")?.trim();
    if let Ok(secs) = value.parse::<f64>() {
        return (secs.is_finite() && secs >= 0.0)
            .then(|| Duration::try_from_secs_f64(secs).ok())
            .flatten();
    }
    let at = httpdate::parse_http_date(value).ok()?;
    Some(
        at.duration_since(SystemTime::now())
            .unwrap_or(Duration::ZERO),
    )
}

/// The causes of a transport error, innermost last ("connection refused"), without the
/// "error sending request" wrapper whose URL the caller already names.
pub(crate) fn transport_message(error: &reqwest::Error) -> String {
    let mut causes = Vec::new();
    let mut source = std::error::Error::source(error);
    while let Some(cause) = source {
        let text = cause.to_string();
        // hyper's "client error (Connect)" says nothing its cause does not.
        if !text.starts_with("client error (") && !causes.contains(&text) {
            causes.push(text);
        }
        source = cause.source();
    }
    if causes.is_empty() {
        error.to_string()
    } else {
        causes.join(": ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(pairs: &[(&'static str, &str)]) -> HeaderMap {
        let mut map = HeaderMap::new();
        for (name, value) in pairs {
            map.insert(*name, HeaderValue::from_str(value).unwrap());
        }
        map
    }

    #[test]
    fn retry_after_in_seconds_milliseconds_and_dates() {
        assert_eq!(
            retry_after(&headers(&[("retry-after", "3")])),
            Some(Duration::from_secs(3))
        );
        assert_eq!(
            retry_after(&headers(&[("retry-after", "3"), ("retry-after-ms", "250")])),
            Some(Duration::from_millis(250))
        );
        let later = SystemTime::now() + Duration::from_mins(2);
        let date = httpdate::fmt_http_date(later);
        let wait = retry_after(&headers(&[("retry-after", &date)])).unwrap();
        assert!(
            wait > Duration::from_secs(100) && wait <= Duration::from_mins(2),
            "{wait:?}"
        );
        let past = httpdate::fmt_http_date(SystemTime::now() - Duration::from_mins(1));
        assert_eq!(
            retry_after(&headers(&[("retry-after", &past)])),
            Some(Duration::ZERO)
        );
        for junk in ["soon", "-1", "NaN", "1e400"] {
            assert_eq!(
                retry_after(&headers(&[("retry-after", junk)])),
                None,
                "{junk}"
            );
        }
        assert_eq!(retry_after(&HeaderMap::new()), None);
    }

    const POLICY: RetryPolicy = RetryPolicy {
        retries: 2,
        backoff: Duration::from_millis(100),
        max_backoff: Duration::from_millis(350),
        max_wait: Duration::from_secs(1),
    };

    #[test]
    fn full_jitter_stays_under_the_doubling_ceiling_and_the_cap() {
        for _ in 0..200 {
            assert!(POLICY.jitter(0) <= Duration::from_millis(100));
            assert!(POLICY.jitter(1) <= Duration::from_millis(200));
            assert!(POLICY.jitter(2) <= Duration::from_millis(350));
            assert!(POLICY.jitter(40) <= Duration::from_millis(350));
            assert!(
                backoff_jitter(Duration::MAX, Duration::from_secs(1), 64) <= Duration::from_secs(1)
            );
        }
    }

    #[test]
    fn the_policy_waits_as_asked_jitters_otherwise_and_gives_up() {
        let asked = Duration::from_millis(700);
        assert_eq!(POLICY.next(0, Some(asked)), Next::Wait(asked));
        assert!(matches!(POLICY.next(1, None), Next::Wait(w) if w <= Duration::from_millis(200)));
        let long = Duration::from_secs(2);
        assert_eq!(POLICY.next(0, Some(long)), Next::AskedTooLong(long));
        // Spent retries end it before a wait is even considered.
        assert_eq!(POLICY.next(2, Some(asked)), Next::Exhausted);
        assert_eq!(POLICY.next(2, None), Next::Exhausted);
    }
}
