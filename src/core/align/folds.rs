//! Deterministic, seeded folds, and the seeded draws the alignment makes.
//!
//! Every example's place depends only on its ID, the seed and, when the folds are
//! stratified, its label: the examples are ordered by `SHA-256(seed, example ID)` (by
//! label first when stratified) and dealt round-robin, so the folds' sizes differ by at
//! most one.

pub(super) use crate::core::resample::key;

/// The fold (0..k) of each example, given their IDs and label outcomes; `stratified`: by
/// label first, so that each fold holds its share of every label.
pub(super) fn assign(
    ids: &[&str],
    labels: &[usize],
    k: usize,
    seed: u64,
    stratified: bool,
) -> Vec<usize> {
    let mut order: Vec<usize> = (0..ids.len()).collect();
    // By label (when stratified), then by key: each label's examples are dealt across the
    // folds in turn, each label starting where the last one ended, so small labels do not
    // all pile into fold 0.
    order.sort_by_key(|&i| {
        (
            if stratified { labels[i] } else { 0 },
            key(seed, "fold", ids[i]),
            i,
        )
    });
    let mut folds = vec![0; ids.len()];
    for (dealt, i) in order.into_iter().enumerate() {
        folds[i] = dealt % k;
    }
    folds
}

/// A stratified held-out split: `true` for about `share` of the examples. Ordered by label,
/// then by key under `seed`, the examples are dealt so that the held-out ones are spread
/// evenly across the order: every label gives its share (to within one example), and
/// exactly `floor(n × share)` are held out.
pub(super) fn hold_out(ids: &[&str], labels: &[usize], share: f64, seed: u64) -> Vec<bool> {
    let mut order: Vec<usize> = (0..ids.len()).collect();
    order.sort_by_key(|&i| (labels[i], key(seed, "holdout", ids[i]), i));
    let mut held = vec![false; ids.len()];
    for (dealt, i) in order.into_iter().enumerate() {
        #[allow(clippy::cast_precision_loss)] // example counts are far below 2^52
        let (before, after) = (dealt as f64 * share, (dealt + 1) as f64 * share);
        held[i] = after.floor() > before.floor();
    }
    held
}

/// A deterministic draw of up to `n` of `items` (by key under `seed` and `salt`).
pub(crate) fn draw<T: Copy>(
    items: &[T],
    n: usize,
    seed: u64,
    salt: &str,
    id: impl Fn(T) -> String,
) -> Vec<T> {
    let mut keyed: Vec<(u64, T)> = items
        .iter()
        .map(|&t| (key(seed, salt, &id(t)), t))
        .collect();
    keyed.sort_by_key(|(k, _)| *k);
    keyed.into_iter().take(n).map(|(_, t)| t).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ids(n: usize) -> Vec<String> {
        (0..n).map(|i| format!("ex-{i}")).collect()
    }

    /// The `k` folds' sizes differ by at most one.
    fn assert_sizes_within_one(folds: &[usize], k: usize) {
        let sizes: Vec<usize> = (0..k)
            .map(|f| folds.iter().filter(|x| **x == f).count())
            .collect();
        assert!(
            sizes.iter().max().unwrap() - sizes.iter().min().unwrap() <= 1,
            "{sizes:?}"
        );
    }

    #[test]
    fn folds_are_stratified_balanced_and_deterministic() {
        let ids = ids(103);
        let refs: Vec<&str> = ids.iter().map(String::as_str).collect();
        let labels: Vec<usize> = (0..103)
            .map(|i| {
                if i < 80 {
                    0
                } else if i < 100 {
                    1
                } else {
                    2
                }
            })
            .collect();
        let folds = assign(&refs, &labels, 5, 7, true);
        assert_eq!(folds, assign(&refs, &labels, 5, 7, true));
        for label in 0..2 {
            let mut per_fold = [0; 5];
            for (f, l) in folds.iter().zip(&labels) {
                if *l == label {
                    per_fold[*f] += 1;
                }
            }
            let (min, max) = (
                per_fold.iter().min().unwrap(),
                per_fold.iter().max().unwrap(),
            );
            assert!(max - min <= 1, "label {label}: {per_fold:?}");
        }
        assert_sizes_within_one(&folds, 5);
    }

    #[test]
    fn unstratified_folds_do_not_look_at_the_labels() {
        let ids = ids(99);
        let refs: Vec<&str> = ids.iter().map(String::as_str).collect();
        let all_zero = vec![0; refs.len()];
        let split: Vec<usize> = (0..refs.len()).map(|i| usize::from(i < 10)).collect();
        let folds = assign(&refs, &all_zero, 5, 3, false);
        assert_eq!(folds, assign(&refs, &split, 5, 3, false));
        assert_ne!(folds, assign(&refs, &split, 5, 3, true));
        assert_sizes_within_one(&folds, 5);
    }

    /// The mean out-of-fold accuracy of the majority prior (smoothed counts of the other
    /// folds; a tie half right) over 2,000 draws of `n` labels that are chance at 50/50.
    fn majority_accuracy_on_chance(n: usize, stratified: bool) -> f64 {
        let draws = 2_000;
        let mut total = 0.0;
        for draw in 0..draws {
            let ids: Vec<String> = (0..n).map(|i| format!("draw-{draw}-{i}")).collect();
            let refs: Vec<&str> = ids.iter().map(String::as_str).collect();
            let labels: Vec<usize> = refs
                .iter()
                .map(|id| usize::from(key(11, "label", id) % 2 == 1))
                .collect();
            let folds = assign(&refs, &labels, 5, 7, stratified);
            let mut right = 0.0;
            for i in 0..n {
                let mut counts = [1, 1];
                for j in (0..n).filter(|&j| folds[j] != folds[i]) {
                    counts[labels[j]] += 1;
                }
                right += match counts[0].cmp(&counts[1]) {
                    std::cmp::Ordering::Equal => 0.5,
                    std::cmp::Ordering::Greater => f64::from(u8::from(labels[i] == 0)),
                    std::cmp::Ordering::Less => f64::from(u8::from(labels[i] == 1)),
                };
            }
            total += right / n as f64;
        }
        total / f64::from(draws)
    }

    #[test]
    fn dealt_without_the_labels_a_frequency_learner_reads_chance_on_labels_that_are_chance() {
        for n in [8, 16] {
            let dealt = majority_accuracy_on_chance(n, false);
            assert!(
                (dealt - 0.5).abs() < 0.02,
                "n {n}, dealt by key: {dealt:.3}"
            );
            // What stratified folds read on the same draws: the draw's own shares.
            let stratified = majority_accuracy_on_chance(n, true);
            assert!(stratified > 0.56, "n {n}, stratified: {stratified:.3}");
        }
    }

    #[test]
    fn the_seed_changes_the_folds_and_an_id_keeps_its_fold_among_others() {
        let ids = ids(50);
        let refs: Vec<&str> = ids.iter().map(String::as_str).collect();
        let labels = vec![0; 50];
        assert_ne!(
            assign(&refs, &labels, 5, 1, false),
            assign(&refs, &labels, 5, 2, false)
        );
    }

    #[test]
    fn the_held_out_split_is_stratified_exact_and_seeded() {
        let ids = ids(103);
        let refs: Vec<&str> = ids.iter().map(String::as_str).collect();
        let labels: Vec<usize> = (0..103).map(|i| usize::from(i >= 80)).collect();
        let held = hold_out(&refs, &labels, 0.25, 7);
        assert_eq!(held, hold_out(&refs, &labels, 0.25, 7));
        assert_ne!(held, hold_out(&refs, &labels, 0.25, 8));
        assert_eq!(held.iter().filter(|h| **h).count(), 25, "floor(103 × 0.25)");
        let of_label = |l: usize| (0..103).filter(|&i| held[i] && labels[i] == l).count();
        // 80 × 0.25 = 20 and 23 × 0.25 = 5.75: each label within one of its share.
        assert!((19..=21).contains(&of_label(0)), "{}", of_label(0));
        assert!((5..=7).contains(&of_label(1)), "{}", of_label(1));
    }

    #[test]
    fn draws_are_deterministic_subsets() {
        let items: Vec<usize> = (0..20).collect();
        let a = draw(&items, 5, 9, "x", |i| i.to_string());
        assert_eq!(a, draw(&items, 5, 9, "x", |i| i.to_string()));
        assert_ne!(a, draw(&items, 5, 10, "x", |i| i.to_string()));
        assert_eq!(a.len(), 5);
        assert_eq!(draw(&items, 50, 9, "x", |i| i.to_string()).len(), 20);
    }
}
