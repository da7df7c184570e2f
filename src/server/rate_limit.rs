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
        self.with_bucket(key, now, |bucket, burst, rate| {
            if bucket.tokens < 1.0 {
                return Err(wait_secs(bucket, rate));
            }
            bucket.tokens -= 1.0;
            Ok(Quota {
                limit: self.config.burst.get(),
                remaining: bucket.tokens.floor() as u32,
                reset_secs: ((burst - bucket.tokens) / rate).ceil() as u64,
            })
        })
    }

    /// Seconds to wait when `key`'s bucket is empty, without taking from it (nor making
    /// one: a key never charged is never exhausted).
    pub(crate) fn exhausted(&self, key: &str) -> Option<u64> {
        let rate = self.config.per_second;
        let buckets = self
            .buckets
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let bucket = buckets.get(key)?;
        let elapsed = bucket.refilled.elapsed().as_secs_f64();
        let tokens = bucket.tokens + elapsed * rate;
        (tokens < 1.0).then(|| ((1.0 - tokens) / rate).ceil().max(1.0) as u64)
    }

    /// Take one from `key`'s bucket, if it has one (a failure to count, not a request to
    /// admit).
    pub(crate) fn charge(&self, key: &str) {
        self.with_bucket(key, Instant::now(), |bucket, _, _| {
            bucket.tokens = (bucket.tokens - 1.0).max(0.0);
        });
    }

    /// Run `f` on `key`'s bucket refilled to `now`, with the burst and the rate.
    fn with_bucket<T>(
        &self,
        key: &str,
        now: Instant,
        f: impl FnOnce(&mut Bucket, f64, f64) -> T,
    ) -> T {
        // Validated in config: burst at least 1, rate finite and more than 0.
        let burst = f64::from(self.config.burst.get());
        let rate = self.config.per_second;
        let mut buckets = self
            .buckets
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if buckets.len() >= PRUNE_AT && !buckets.contains_key(key) {
            // A full bucket is the same as none: forget those, so that callers who come
            // and go (client addresses) cannot grow the map without bound.
            buckets.retain(|_, bucket| {
                let elapsed = now.saturating_duration_since(bucket.refilled).as_secs_f64();
                bucket.tokens + elapsed * rate < burst
            });
        }
        let bucket = buckets.entry(key.to_owned()).or_insert(Bucket {
            tokens: burst,
            refilled: now,
        });
        let elapsed = now.saturating_duration_since(bucket.refilled).as_secs_f64();
        bucket.tokens = (bucket.tokens + elapsed * rate).min(burst);
        bucket.refilled = now;
        f(bucket, burst, rate)
    }
}

/// Buckets kept before full ones are forgotten.
const PRUNE_AT: usize = 10_000;

fn wait_secs(bucket: &Bucket, rate: f64) -> u64 {
    ((1.0 - bucket.tokens) / rate).ceil().max(1.0) as u64
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

    #[test]
    fn charged_failures_exhaust_a_bucket_that_checks_only_look_at() {
        let limiter = RateLimiter::new(RateLimit {
            per_second: 0.001,
            burst: std::num::NonZeroU32::new(2).unwrap(),
        });
        assert_eq!(limiter.exhausted("10.0.0.1"), None, "never charged");
        limiter.charge("10.0.0.1");
        assert_eq!(limiter.exhausted("10.0.0.1"), None, "one of two left");
        limiter.charge("10.0.0.1");
        let wait = limiter.exhausted("10.0.0.1").expect("exhausted");
        assert!((900..=1000).contains(&wait), "{wait}");
        assert_eq!(
            limiter.exhausted("10.0.0.1"),
            Some(wait),
            "looking takes nothing"
        );
        assert_eq!(limiter.exhausted("10.0.0.2"), None, "buckets are per key");
    }
}
