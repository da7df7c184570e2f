use super::*;

fn scored(predicted: &[f64], label: usize, k: usize) -> Scored {
    let mut y = vec![0.0; k];
    y[label] = 1.0;
    Scored {
        predicted: predicted.to_vec(),
        label: y,
    }
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-9
}

#[test]
fn perfect_predictions_score_perfectly() {
    let all: Vec<Scored> = (0..3)
        .map(|i| {
            let mut p = vec![0.0; 3];
            p[i] = 1.0;
            scored(&p, i, 3)
        })
        .collect();
    let m = Metrics::compute(Scale::Nominal, 3, &all);
    assert!(close(m.accuracy, 1.0) && close(m.macro_f1, 1.0) && close(m.kappa, 1.0));
    assert!(close(m.log_loss, 0.0) && close(m.brier, 0.0) && close(m.ece, 0.0));
    assert_eq!(m.metric, "log_loss");
}

#[test]
fn uniform_predictions_cost_log_k() {
    let all = vec![scored(&[0.25; 4], 0, 4), scored(&[0.25; 4], 3, 4)];
    let m = Metrics::compute(Scale::Nominal, 4, &all);
    assert!(close(m.log_loss, 4f64.ln()));
    assert!(close(m.brier, 0.75));
    // Ties predict the first outcome: one of two right.
    assert!(close(m.accuracy, 0.5));
    // Confidence 0.25 in one bin, accuracy 0.5.
    assert!(close(m.ece, 0.25));
}

#[test]
fn rps_rewards_near_misses_on_ordered_levels() {
    let near = rps(&[0.0, 1.0, 0.0, 0.0], &[0.0, 0.0, 1.0, 0.0]);
    let far = rps(&[1.0, 0.0, 0.0, 0.0], &[0.0, 0.0, 1.0, 0.0]);
    assert!(close(near, 1.0 / 3.0), "{near}");
    assert!(close(far, 2.0 / 3.0), "{far}");
    assert!(close(rps(&[1.0], &[1.0]), 0.0));
    let m = Metrics::compute(Scale::Ordinal, 4, &[scored(&[0.0, 1.0, 0.0, 0.0], 2, 4)]);
    assert_eq!(m.metric, "rps");
    assert!(close(m.loss, near));
    assert!(close(m.mae.unwrap(), 1.0));
}

#[test]
fn a_score_is_right_when_its_most_likely_level_is_the_label() {
    // Expected level 2.625 (nearest 3), most likely level 4.
    let leaning = [0.125, 0.125, 0.125, 0.25, 0.375];
    let at_4 = Metrics::compute(Scale::Ordinal, 5, &[scored(&leaning, 4, 5)]);
    let at_3 = Metrics::compute(Scale::Ordinal, 5, &[scored(&leaning, 3, 5)]);
    assert!(close(at_4.accuracy, 1.0) && close(at_3.accuracy, 0.0));
    // The MAE stays the expected level's: |2.625 − 4|.
    assert!(close(at_4.mae.unwrap(), 1.375));
    // A tie is the lower level, in accuracy, the confusion matrix and selective
    // prediction alike.
    let tied = [
        scored(&[0.0, 0.5, 0.5], 1, 3),
        scored(&[0.0, 0.5, 0.5], 2, 3),
    ];
    let m = Metrics::compute(Scale::Ordinal, 3, &tied).with_uncertainty(Scale::Ordinal, &tied, "q");
    assert!(close(m.accuracy, 0.5));
    assert_eq!(confusion(3, &tied)[2], vec![0.0, 1.0, 0.0]);
    assert_eq!(coverage(&tied, 0.5).kept, 2);
    // One level: always right.
    let single = Metrics::compute(Scale::Ordinal, 1, &[scored(&[1.0], 0, 1)]);
    assert!(close(single.accuracy, 1.0));
}

#[test]
fn kappa_is_zero_for_chance_agreement_and_f1_is_macro() {
    // Always predicting the first of two balanced outcomes: accuracy 0.5, κ 0.
    let all = vec![scored(&[0.9, 0.1], 0, 2), scored(&[0.9, 0.1], 1, 2)];
    let m = Metrics::compute(Scale::Binary, 2, &all);
    assert!(close(m.kappa, 0.0));
    // F1: outcome 0 has precision 0.5, recall 1 → 2/3; outcome 1 has 0.
    assert!(close(m.macro_f1, (2.0 / 3.0) / 2.0));
}

#[test]
fn soft_labels_use_cross_entropy() {
    let s = Scored {
        predicted: vec![0.7, 0.3],
        label: vec![0.7, 0.3],
    };
    let expected = -(0.7 * 0.7f64.ln() + 0.3 * 0.3f64.ln());
    assert!(close(log_loss(&s.predicted, &s.label), expected));
}

#[test]
fn no_examples_is_all_zero_not_nan() {
    let m = Metrics::compute(Scale::Binary, 2, &[]);
    assert_eq!(m.examples, 0);
    assert!(m.loss == 0.0 && m.accuracy == 0.0);
}

#[test]
fn coverage_keeps_the_largest_confident_head_within_the_error() {
    // Confidences 0.95..0.50 (10 examples); misses at the 4th and 8th most confident.
    let all: Vec<Scored> = (0..10)
        .map(|i| {
            let p = f64::from(19 - i) / 20.0;
            let label = usize::from(i == 3 || i == 7);
            scored(&[p, 1.0 - p], label, 2)
        })
        .collect();
    let five = coverage(&all, 0.05);
    // Only the first three (no miss) stay under 5%: 1/4 is 25%.
    assert_eq!((five.kept, five.error), (3, 0.0));
    assert!(close(five.coverage, 0.3) && close(five.threshold.unwrap(), 0.85));
    // At 25%, the whole set (2 misses in 10) is kept.
    let quarter = coverage(&all, 0.25);
    assert_eq!(quarter.kept, 10, "2/10 = 20% keeps all: {quarter:?}");
    assert!(close(quarter.coverage, 1.0) && close(quarter.threshold.unwrap(), 0.5));
    // A miss at the top: nothing reaches 5%, and no threshold is named.
    let top_miss = vec![scored(&[0.9, 0.1], 1, 2), scored(&[0.8, 0.2], 0, 2)];
    let none = coverage(&top_miss, 0.05);
    assert_eq!((none.kept, none.threshold, none.coverage), (0, None, 0.0));
    assert_eq!(coverage(&[], 0.05).kept, 0);
}

#[test]
fn a_bounded_threshold_asks_for_evidence() {
    // Wilson's one-sided 95% bound: 0 of 10 wrong could still be 21% wrong; 0 of 100, 2.6%.
    assert!((error_upper_bound(0, 10) - 0.213).abs() < 0.001);
    assert!((error_upper_bound(0, 100) - 0.0264).abs() < 0.001);
    assert!((error_upper_bound(5, 100) - 0.0995).abs() < 0.001);
    assert!(close(error_upper_bound(0, 0), 1.0));
    // 60 confident and right, then 40 less confident with 1 in 4 wrong.
    let all: Vec<Scored> = (0..100)
        .map(|i| {
            let p = 0.99 - f64::from(i) * 0.004;
            let label = usize::from(i >= 60 && i % 4 == 0);
            scored(&[p, 1.0 - p], label, 2)
        })
        .collect();
    let plain = coverage(&all, 0.05);
    let bounded = bounded_coverage(&all, 0.05);
    // The plain rate stops before the 4th miss (3/72 = 4.2% < 5%, 4/73 = 5.5%); the bound
    // keeps only the clean head, where 0 of 60 bounds the error at 4.3%.
    assert_eq!(plain.kept, 72, "{plain:?}");
    assert_eq!(bounded.kept, 60, "{bounded:?}");
    assert!(error_upper_bound(0, 60) <= 0.05 && error_upper_bound(1, 61) > 0.05);
    // Too few examples bound nothing.
    assert_eq!(bounded_coverage(&all[..20], 0.05).threshold, None);
}

#[test]
fn ties_in_confidence_are_kept_or_cut_together() {
    // Two at 0.9 (one miss), then one right at 0.8: the head of one would be 0%, but a
    // threshold cannot split the tie.
    let all = vec![
        scored(&[0.9, 0.1], 0, 2),
        scored(&[0.9, 0.1], 1, 2),
        scored(&[0.8, 0.2], 0, 2),
    ];
    let c = coverage(&all, 0.05);
    assert_eq!((c.kept, c.threshold), (0, None));
    let c = coverage(&all, 0.5);
    assert_eq!(c.kept, 3);
}

#[test]
fn intervals_and_a_paired_delta() {
    let before: Vec<Scored> = (0..60)
        .map(|i| scored(&[0.6, 0.4], usize::from(i % 2 == 0), 2))
        .collect();
    let after: Vec<Scored> = (0..60)
        .map(|i| scored(&[0.8, 0.2], usize::from(i % 5 == 0), 2))
        .collect();
    let m = Metrics::compute(Scale::Binary, 2, &after).with_uncertainty(Scale::Binary, &after, "q");
    let iv = m.intervals.unwrap();
    assert!(close(iv.accuracy.value, m.accuracy) && close(iv.loss.value, m.loss));
    assert!(iv.accuracy.low < m.accuracy && m.accuracy < iv.accuracy.high);
    assert_eq!(m.coverage.len(), 2);
    let d = delta(Scale::Binary, &before, &after, "q");
    assert_eq!(d.examples, 60);
    // 0.5 → 0.8 accuracy.
    assert!(close(d.accuracy.value, 0.3), "{d:?}");
    assert!(d.accuracy.low > 0.0 && d.loss.high < 0.0, "{d:?}");
    // Against itself: no change and no width.
    let same = delta(Scale::Binary, &after, &after, "q");
    assert_eq!((same.accuracy.low, same.accuracy.high), (0.0, 0.0));
}

#[test]
fn a_certain_miss_is_finite() {
    assert!(log_loss(&[0.0, 1.0], &[1.0, 0.0]).is_finite());
}
