//! Per-token rate limits: a token bucket per token ID, refilled continuously.

use crate::config::RateLimit;
use std::collections::HashMap;
use std::sync::Mutex;
use std::time::Instant;

pub(crate) struct RateLimiter {
    config: RateLimit,
    buckets: Mutex<HashMap<String, Bucket>>,
}

struct Bucket {
    tokens: f64,
    refilled: Instant,
}

/// The state of a caller's bucket after a request, for the `RateLimit-*` headers.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Quota {
    pub(crate) limit: u32,
    pub(crate) remaining: u32,
    /// Seconds until the bucket is full again.
    pub(crate) reset_secs: u64,
}

impl RateLimiter {
    pub(crate) fn new(config: RateLimit) -> Self {
        Self {
            config,
            buckets: Mutex::new(HashMap::new()),
        }
    }

    /// Take one request from `key`'s bucket: `Ok(quota)` or `Err(seconds to wait)`.
    pub(crate) fn check(&self, key: &str) -> Result<Quota, u64> {
        self.check_at(key, Instant::now())
    }

    fn check_at(&self, key: &str, now: Instant) -> Result<Quota, u64> {
        // Validated in config: burst at least 1, rate finite and more than 0.
        let burst = f64::from(self.config.burst.get());
        let rate = self.config.per_second;
        let mut buckets = self
            .buckets
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let bucket = buckets.entry(key.to_owned()).or_insert(Bucket {
            tokens: burst,
            refilled: now,
        });
        let elapsed = now.saturating_duration_since(bucket.refilled).as_secs_f64();
        bucket.tokens = (bucket.tokens + elapsed * rate).min(burst);
        bucket.refilled = now;
        if bucket.tokens < 1.0 {
            return Err(((1.0 - bucket.tokens) / rate).ceil().max(1.0) as u64);
        }
        bucket.tokens -= 1.0;
        Ok(Quota {
            limit: self.config.burst.get(),
            remaining: bucket.tokens.floor() as u32,
            reset_secs: ((burst - bucket.tokens) / rate).ceil() as u64,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn bucket_empties_and_refills() {
        let limiter = RateLimiter::new(RateLimit {
            per_second: 2.0,
            burst: std::num::NonZeroU32::new(3).unwrap(),
        });
        let start = Instant::now();
        for remaining in [2, 1, 0] {
            assert_eq!(limiter.check_at("t", start).unwrap().remaining, remaining);
        }
        assert_eq!(limiter.check_at("t", start), Err(1));
        assert!(
            limiter.check_at("other", start).is_ok(),
            "buckets are per token"
        );
        assert!(
            limiter
                .check_at("t", start + Duration::from_millis(500))
                .is_ok()
        );
        assert!(
            limiter
                .check_at("t", start + Duration::from_millis(500))
                .is_err()
        );
    }
}
