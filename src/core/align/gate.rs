//! The gain over zero-shot and its interval; with a margin (`align --margin`, off by
//! default), the gate: a question changes only when it is better by the margin and beyond
//! chance.
//!
//! Both checkpoints are scored on the same examples (the aligned one only on examples it
//! was not built from), so the comparison is paired: the bootstrap resamples examples and
//! recomputes the mean loss difference, and its lower percentile must be above zero.

use crate::core::resample::{self, Stream};
pub use crate::wire::align::Verdict;

/// The one-sided level: the lower bound is the 5th percentile of the resampled gains.
pub(super) const LOWER_PERCENTILE: f64 = 0.05;

/// Judge per-example losses `before` and `after` (same examples, same order). `margin` is
/// the relative gain asked for (0.02: 2% lower mean loss).
pub(super) fn judge(before: &[f64], after: &[f64], margin: f64, seed: u64, salt: &str) -> Verdict {
    let n = before.len().min(after.len());
    if n == 0 {
        return Verdict {
            passed: false,
            gain: 0.0,
            required_gain: 0.0,
            lower_bound: 0.0,
            upper_bound: 0.0,
            splits: Vec::new(),
            reason: Some("no examples to compare on".into()),
        };
    }
    let gains: Vec<f64> = before.iter().zip(after).map(|(b, a)| b - a).collect();
    let mean_before = before.iter().sum::<f64>() / n as f64;
    let gain = gains.iter().sum::<f64>() / n as f64;
    let required_gain = margin * mean_before.abs();
    let mut stream = Stream::new(seed, salt);
    let resampled = resample::resampled_means(&gains, &mut stream);
    let (lower_bound, upper_bound) = (
        resample::percentile(&resampled, LOWER_PERCENTILE),
        resample::percentile(&resampled, 1.0 - LOWER_PERCENTILE),
    );
    let reason = if gain < required_gain {
        Some(format!(
            // The examples the gain is on are the held-out ones or, with none held out,
            // every fitted one out of fold: the summary says which.
            "the gain in loss {gain:.4} is below the margin {required_gain:.4}"
        ))
    } else if lower_bound <= 0.0 {
        Some(format!(
            "the gain is not beyond chance (bootstrap lower bound {lower_bound:.4} ≤ 0)"
        ))
    } else {
        None
    };
    Verdict {
        passed: reason.is_none(),
        gain,
        required_gain,
        lower_bound,
        upper_bound,
        splits: Vec::new(),
        reason,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_clear_improvement_passes() {
        let before: Vec<f64> = (0..200).map(|i| 1.0 + f64::from(i % 7) * 0.1).collect();
        let after: Vec<f64> = before.iter().map(|b| b * 0.6).collect();
        let v = judge(&before, &after, 0.02, 1, "q");
        assert!(v.passed, "{v:?}");
        assert!(v.lower_bound > 0.0 && v.gain > v.required_gain);
    }

    #[test]
    fn noise_does_not_pass() {
        // Gains of ±1 in equal measure: mean 0.
        let before: Vec<f64> = (0..200)
            .map(|i| if i % 2 == 0 { 2.0 } else { 1.0 })
            .collect();
        let after: Vec<f64> = (0..200)
            .map(|i| if i % 2 == 0 { 1.0 } else { 2.0 })
            .collect();
        let v = judge(&before, &after, 0.0, 1, "q");
        assert!(!v.passed, "{v:?}");
        assert!(v.reason.unwrap().contains("chance"));
    }

    #[test]
    fn a_small_gain_fails_the_margin_and_nothing_fails_politely() {
        let before = vec![1.0; 100];
        let after = vec![0.995; 100];
        let v = judge(&before, &after, 0.02, 1, "q");
        assert!(!v.passed && v.reason.unwrap().contains("margin"));
        assert!(!judge(&[], &[], 0.02, 1, "q").passed);
    }

    #[test]
    fn the_bootstrap_is_seeded() {
        let before: Vec<f64> = (0..50).map(|i| f64::from(i % 5)).collect();
        let after: Vec<f64> = (0..50).map(|i| f64::from(i % 3)).collect();
        assert_eq!(
            judge(&before, &after, 0.0, 5, "q"),
            judge(&before, &after, 0.0, 5, "q")
        );
    }
}
