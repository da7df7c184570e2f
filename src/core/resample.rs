//! Seeded randomness that reproduces: keys derived from IDs, a splitmix64 stream, and
//! percentile bootstrap intervals of a mean. The alignment's splits and gate and the
//! evaluation's intervals all draw from here, so the same inputs give the same figures.

use sha2::{Digest, Sha256};

/// Bootstrap resamples behind every interval.
pub const RESAMPLES: usize = 2000;
/// The level of the intervals `eval` reports.
pub const LEVEL: f64 = 0.95;

/// A 64-bit key for `id` under `seed` and `salt`, stable across runs and platforms.
pub fn key(seed: u64, salt: &str, id: &str) -> u64 {
    let mut hasher = Sha256::new();
    hasher.update(seed.to_be_bytes());
    hasher.update(salt.as_bytes());
    hasher.update([0]);
    hasher.update(id.as_bytes());
    let digest = hasher.finalize();
    u64::from_be_bytes(digest[..8].try_into().unwrap_or([0; 8]))
}

/// A seeded stream of uniform draws (splitmix64).
pub struct Stream(u64);

impl Stream {
    /// The stream named by `salt` under `seed`.
    pub fn new(seed: u64, salt: &str) -> Self {
        Self(key(seed, salt, "stream"))
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n` (n > 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }
}

/// The means of [`RESAMPLES`] resamples (with replacement) of `values`, sorted ascending;
/// empty when `values` is.
pub fn resampled_means(values: &[f64], stream: &mut Stream) -> Vec<f64> {
    let n = values.len();
    if n == 0 {
        return Vec::new();
    }
    #[allow(clippy::cast_precision_loss)] // example counts are far below 2^52
    let nf = n as f64;
    let mut means: Vec<f64> = (0..RESAMPLES)
        .map(|_| (0..n).map(|_| values[stream.below(n)]).sum::<f64>() / nf)
        .collect();
    means.sort_by(f64::total_cmp);
    means
}

/// The `q` quantile (0..=1) of ascending `sorted` values (nearest rank below); 0 when empty.
pub fn percentile(sorted: &[f64], q: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    #[allow(
        clippy::cast_possible_truncation,
        clippy::cast_sign_loss,
        clippy::cast_precision_loss
    )]
    let at = (q.clamp(0.0, 1.0) * sorted.len() as f64) as usize;
    sorted[at.min(sorted.len() - 1)]
}

/// The two-sided [`LEVEL`] percentile bootstrap interval of the mean of `values`, drawn
/// from the stream `salt` names; `None` when there are no values.
pub fn interval(values: &[f64], salt: &str) -> Option<(f64, f64)> {
    if values.is_empty() {
        return None;
    }
    let means = resampled_means(values, &mut Stream::new(0, salt));
    let tail = (1.0 - LEVEL) / 2.0;
    Some((percentile(&means, tail), percentile(&means, 1.0 - tail)))
}

#[cfg(test)]
#[allow(clippy::float_cmp)] // the values compared are exact by construction
mod tests {
    use super::*;

    #[test]
    fn streams_are_seeded_and_in_range() {
        let mut a = Stream::new(1, "b");
        let mut b = Stream::new(1, "b");
        assert!((0..100).all(|_| a.next_u64() == b.next_u64()));
        let mut c = Stream::new(2, "b");
        assert_ne!(Stream::new(1, "b").next_u64(), c.next_u64());
        assert!((0..1000).all(|_| a.below(7) < 7));
        assert_eq!(key(3, "fold", "ex-1"), key(3, "fold", "ex-1"));
        assert_ne!(key(3, "fold", "ex-1"), key(4, "fold", "ex-1"));
    }

    #[test]
    fn an_interval_brackets_the_mean_and_narrows_with_more_data() {
        // A 70% hit rate, over 40 and over 4,000 examples.
        let hits =
            |n: usize| -> Vec<f64> { (0..n).map(|i| f64::from(u8::from(i % 10 < 7))).collect() };
        let (lo, hi) = interval(&hits(40), "q").unwrap();
        assert!(lo < 0.7 && 0.7 < hi, "{lo} {hi}");
        // The normal approximation: ±1.96·√(0.21/40) ≈ ±0.142.
        assert!((hi - lo - 0.284).abs() < 0.06, "{lo} {hi}");
        let (lo2, hi2) = interval(&hits(4000), "q").unwrap();
        assert!(lo2 < 0.7 && 0.7 < hi2 && hi2 - lo2 < 0.04, "{lo2} {hi2}");
        assert_eq!(interval(&hits(40), "q"), interval(&hits(40), "q"));
        assert_eq!(interval(&[], "q"), None);
        // No spread, no width.
        assert_eq!(interval(&[0.5; 9], "q"), Some((0.5, 0.5)));
    }

    #[test]
    fn percentiles_pick_by_rank() {
        let sorted: Vec<f64> = (0..100).map(f64::from).collect();
        assert_eq!(percentile(&sorted, 0.05), 5.0);
        assert_eq!(percentile(&sorted, 1.0), 99.0);
        assert_eq!(percentile(&[], 0.5), 0.0);
    }
}
