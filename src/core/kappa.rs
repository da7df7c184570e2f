//! Chance-corrected agreement between annotators: Cohen's kappa for two, Fleiss' kappa for
//! more. Pure arithmetic over labels (any ordered type: the agreement report uses each
//! answer's canonical JSON); no I/O.

use std::collections::BTreeMap;

/// Agreement over a set of examples.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Agreement {
    /// The share of pairs of ratings of an example that agree, averaged over the examples.
    pub observed: f64,
    /// The agreement chance alone would give, from how often each label was used.
    pub expected: f64,
    /// (observed − expected) / (1 − expected); `None` when expected is 1 (a single label
    /// was used throughout, so there was nothing to agree on beyond chance).
    pub kappa: Option<f64>,
}

impl Agreement {
    fn new(observed: f64, expected: f64) -> Self {
        let kappa =
            ((1.0 - expected).abs() > 1e-12).then(|| (observed - expected) / (1.0 - expected));
        Self {
            observed,
            expected,
            kappa,
        }
    }
}

/// Cohen's kappa (1960) of two raters over the examples both labelled, one pair of labels
/// (first rater's, second's) per example. Chance agreement is from each rater's own label
/// frequencies. `None` for no examples.
pub fn cohen<L: Ord>(pairs: &[(L, L)]) -> Option<Agreement> {
    if pairs.is_empty() {
        return None;
    }
    let n = pairs.len() as f64;
    let agreed = pairs.iter().filter(|(a, b)| a == b).count() as f64;
    let mut first: BTreeMap<&L, f64> = BTreeMap::new();
    let mut second: BTreeMap<&L, f64> = BTreeMap::new();
    for (a, b) in pairs {
        *first.entry(a).or_default() += 1.0;
        *second.entry(b).or_default() += 1.0;
    }
    let expected = first
        .iter()
        .map(|(label, count)| count / n * second.get(label).copied().unwrap_or(0.0) / n)
        .sum();
    Some(Agreement::new(agreed / n, expected))
}

/// Fleiss' kappa (1971), in its form for a varying number of raters per example: the
/// labels each example was given, any number of raters each. Examples with fewer than two
/// labels say nothing about agreement and are left out. With `n_i` labels on example `i`,
/// `n_ij` of them `j`: `P_i = Σ_j n_ij (n_ij − 1) / (n_i (n_i − 1))`, observed `P̄` = the
/// mean `P_i`; `p_j` = the share of all labels that are `j`, expected `Σ_j p_j²`. With the
/// same number of raters on every example this is Fleiss' original. `None` when no example
/// has two labels.
pub fn fleiss<L: Ord>(examples: &[Vec<L>]) -> Option<Agreement> {
    let mut totals: BTreeMap<&L, f64> = BTreeMap::new();
    let mut observed_sum = 0.0;
    let mut rated = 0usize;
    let mut labels = 0.0;
    for example in examples.iter().filter(|labels| labels.len() >= 2) {
        let mut counts: BTreeMap<&L, f64> = BTreeMap::new();
        for label in example {
            *counts.entry(label).or_default() += 1.0;
            *totals.entry(label).or_default() += 1.0;
        }
        let n = example.len() as f64;
        observed_sum += counts.values().map(|c| c * (c - 1.0)).sum::<f64>() / (n * (n - 1.0));
        rated += 1;
        labels += n;
    }
    if rated == 0 {
        return None;
    }
    let expected = totals.values().map(|c| (c / labels).powi(2)).sum();
    Some(Agreement::new(observed_sum / rated as f64, expected))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tolerance: f64) -> bool {
        (a - b).abs() <= tolerance
    }

    /// Rows of per-category counts as lists of labels.
    fn from_counts(rows: &[[usize; 5]]) -> Vec<Vec<usize>> {
        rows.iter()
            .map(|row| {
                row.iter()
                    .enumerate()
                    .flat_map(|(category, &count)| std::iter::repeat_n(category, count))
                    .collect()
            })
            .collect()
    }

    /// Cohen's textbook 2×2 case: of 50 proposals, both readers say yes to 20 and no to
    /// 15; A alone says yes to 5, B alone to 10. Observed 0.7, chance 0.5, kappa 0.4.
    #[test]
    fn cohen_on_the_classic_two_by_two() {
        let mut pairs = Vec::new();
        for (a, b, count) in [
            ("yes", "yes", 20),
            ("yes", "no", 5),
            ("no", "yes", 10),
            ("no", "no", 15),
        ] {
            pairs.extend(std::iter::repeat_n((a, b), count));
        }
        let agreement = cohen(&pairs).unwrap();
        assert!(close(agreement.observed, 0.7, 1e-12), "{agreement:?}");
        assert!(close(agreement.expected, 0.5, 1e-12), "{agreement:?}");
        assert!(close(agreement.kappa.unwrap(), 0.4, 1e-12), "{agreement:?}");
    }

    #[test]
    fn cohen_extremes() {
        assert_eq!(cohen::<&str>(&[]), None);
        let same = cohen(&[("a", "a"), ("b", "b")]).unwrap();
        assert!(close(same.kappa.unwrap(), 1.0, 1e-12));
        // Always opposite, each label half the time: observed 0, chance 0.5, kappa −1.
        let opposite = cohen(&[("a", "b"), ("b", "a")]).unwrap();
        assert!(close(opposite.kappa.unwrap(), -1.0, 1e-12));
        // One label throughout: chance agreement is 1, kappa undefined.
        let flat = cohen(&[("a", "a"), ("a", "a")]).unwrap();
        assert_eq!((flat.observed, flat.expected, flat.kappa), (1.0, 1.0, None));
    }

    /// Fleiss (1971)'s worked example as Wikipedia gives it: 10 subjects, 14 raters each,
    /// 5 categories. P̄ = 0.378, P̄e = 0.213, kappa = 0.210.
    #[test]
    fn fleiss_on_the_worked_example() {
        let examples = from_counts(&[
            [0, 0, 0, 0, 14],
            [0, 2, 6, 4, 2],
            [0, 0, 3, 5, 6],
            [0, 3, 9, 2, 0],
            [2, 2, 8, 1, 1],
            [7, 7, 0, 0, 0],
            [3, 2, 6, 3, 0],
            [2, 5, 3, 2, 2],
            [6, 5, 2, 1, 0],
            [0, 2, 2, 3, 7],
        ]);
        let agreement = fleiss(&examples).unwrap();
        assert!(close(agreement.observed, 0.378, 0.0005), "{agreement:?}");
        assert!(close(agreement.expected, 0.213, 0.0005), "{agreement:?}");
        assert!(
            close(agreement.kappa.unwrap(), 0.210, 0.0005),
            "{agreement:?}"
        );
    }

    /// A varying number of raters, by hand: {a,a,a}, {a,b}, {b,b} and a lone {c}, which is
    /// left out. `P_i` = 1, 0, 1 so P̄ = 2/3; a is 4 of the 7 labels, b 3, so P̄e = 25/49;
    /// kappa = (2/3 − 25/49) / (24/49) = 23/72.
    #[test]
    fn fleiss_with_varying_raters() {
        let examples = vec![
            vec!["a", "a", "a"],
            vec!["a", "b"],
            vec!["b", "b"],
            vec!["c"],
        ];
        let agreement = fleiss(&examples).unwrap();
        assert!(close(agreement.observed, 2.0 / 3.0, 1e-12), "{agreement:?}");
        assert!(
            close(agreement.expected, 25.0 / 49.0, 1e-12),
            "{agreement:?}"
        );
        assert!(
            close(agreement.kappa.unwrap(), 23.0 / 72.0, 1e-12),
            "{agreement:?}"
        );
    }

    #[test]
    fn fleiss_extremes() {
        assert_eq!(fleiss::<&str>(&[]), None);
        assert_eq!(
            fleiss(&[vec!["a"], vec!["b"]]),
            None,
            "no example has two labels"
        );
        let unanimous = fleiss(&[vec!["a", "a", "a"], vec!["b", "b", "b"]]).unwrap();
        assert!(close(unanimous.kappa.unwrap(), 1.0, 1e-12));
        let flat = fleiss(&[vec!["a", "a", "a"]]).unwrap();
        assert_eq!(flat.kappa, None);
    }
}
