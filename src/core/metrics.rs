//! How well predicted distributions match ground truth: the figures `align` and `eval`
//! report, computed one way for both.
//!
//! A prediction is a distribution over a question's outcomes (noul: `[p(true), p(false)]`,
//! choice: options in order, score: levels in order) and a label is a distribution too
//! (one-hot, or soft for a noul annotated with a probability). The primary metric, the one
//! an alignment minimizes and a gate compares, is the log loss for noul and choice and the
//! ranked probability score for score, since a score's levels are ordered.

use crate::engine::builtin::aligned::{answer_outcome, outcome_keys};
pub use crate::wire::align::Metrics;
use crate::wire::answer::{Distribution, normalize};
use crate::wire::{Answer, QuestionKind};
use serde_json::Value;

/// Bins of the expected calibration error.
pub const ECE_BINS: usize = 10;
/// Probabilities are clipped here before a log, so one confident miss costs ~27.6 nats, not ∞.
const MIN_P: f64 = 1e-12;

/// What kind of outcomes a question has, for the metrics that depend on it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scale {
    /// Two outcomes, `true` first.
    Binary,
    /// Unordered options.
    Nominal,
    /// Ordered levels (a score).
    Ordinal,
}

/// The scale of a question type.
pub fn scale_of(kind: &QuestionKind) -> Scale {
    match kind {
        QuestionKind::Noul { .. } => Scale::Binary,
        QuestionKind::Choice { .. } => Scale::Nominal,
        QuestionKind::Score { .. } => Scale::Ordinal,
    }
}

/// An annotated answer as a distribution over the question's outcomes: one-hot, or
/// `[p, 1 − p]` for a noul annotated with a probability. `None` when it names no outcome
/// (an option the question no longer has, say).
pub fn label_of(kind: &QuestionKind, answer: &Value) -> Option<Vec<f64>> {
    let outcome = answer_outcome(kind, answer)?;
    if let (QuestionKind::Noul { .. }, Value::Number(p)) = (kind, answer) {
        let p = p.as_f64()?.clamp(0.0, 1.0);
        return Some(vec![p, 1.0 - p]);
    }
    let mut label = vec![0.0; outcome_keys(kind).len()];
    *label.get_mut(outcome)? = 1.0;
    Some(label)
}

/// An answer as a distribution over `outcomes` outcomes (`[p, 1 − p]` for a noul).
pub fn predicted_of(answer: &Answer, outcomes: usize) -> Vec<f64> {
    match answer.distribution() {
        Distribution::Noul(p) => vec![p, 1.0 - p],
        Distribution::Outcomes(ps) => normalize(&ps, outcomes),
    }
}

/// One prediction beside its label.
#[derive(Debug, Clone, PartialEq)]
pub struct Scored {
    pub predicted: Vec<f64>,
    pub label: Vec<f64>,
}

impl Scored {
    /// The label's most likely outcome (ties: the first).
    pub fn label_index(&self) -> usize {
        argmax(&self.label)
    }

    pub fn predicted_index(&self) -> usize {
        argmax(&self.predicted)
    }
}

/// The primary loss of one prediction: log loss, or the RPS for ordered levels.
pub fn loss(scale: Scale, predicted: &[f64], label: &[f64]) -> f64 {
    match scale {
        Scale::Ordinal => rps(predicted, label),
        Scale::Binary | Scale::Nominal => log_loss(predicted, label),
    }
}

/// Cross-entropy of `predicted` against the (possibly soft) `label`, in nats.
pub fn log_loss(predicted: &[f64], label: &[f64]) -> f64 {
    predicted
        .iter()
        .zip(label)
        .filter(|(_, y)| **y > 0.0)
        .map(|(p, y)| -y * p.max(MIN_P).ln())
        .sum()
}

/// Ranked probability score: the mean squared gap between the cumulative distributions,
/// over the K − 1 thresholds between K levels (0 when K = 1).
pub fn rps(predicted: &[f64], label: &[f64]) -> f64 {
    let k = predicted.len();
    if k < 2 {
        return 0.0;
    }
    let (mut cp, mut cy, mut sum) = (0.0, 0.0, 0.0);
    for (i, p) in predicted[..k - 1].iter().enumerate() {
        cp += p;
        cy += label.get(i).copied().unwrap_or(0.0);
        sum += (cp - cy) * (cp - cy);
    }
    sum / (k - 1) as f64
}

/// Multi-class Brier score: Σ (pᵢ − yᵢ)².
pub fn brier(predicted: &[f64], label: &[f64]) -> f64 {
    predicted
        .iter()
        .zip(label)
        .map(|(p, y)| (p - y) * (p - y))
        .sum()
}

/// Index of the largest value; ties go to the first.
pub fn argmax(values: &[f64]) -> usize {
    let mut best = 0;
    for (i, v) in values.iter().enumerate() {
        if *v > values[best] {
            best = i;
        }
    }
    best
}

impl Metrics {
    /// The figures of `scored` predictions of a question with `outcomes` outcomes.
    pub fn compute(scale: Scale, outcomes: usize, scored: &[Scored]) -> Self {
        let n = scored.len();
        if n == 0 {
            return Self {
                metric: metric_name(scale).to_owned(),
                ..Self::default()
            };
        }
        let nf = n as f64;
        let mean = |f: &dyn Fn(&Scored) -> f64| scored.iter().map(f).sum::<f64>() / nf;
        let log_loss = mean(&|s| log_loss(&s.predicted, &s.label));
        let brier = mean(&|s| brier(&s.predicted, &s.label));
        let accuracy = mean(&|s| f64::from(u8::from(s.predicted_index() == s.label_index())));
        let (rps, mae) = if scale == Scale::Ordinal {
            let expected = |ps: &[f64]| ps.iter().enumerate().map(|(i, p)| i as f64 * p).sum();
            (
                Some(mean(&|s| rps(&s.predicted, &s.label))),
                Some(mean(&|s| {
                    let e: f64 = expected(&s.predicted);
                    let y: f64 = expected(&s.label);
                    (e - y).abs()
                })),
            )
        } else {
            (None, None)
        };
        let confusion = confusion(outcomes.max(1), scored);
        Self {
            examples: n as u64,
            metric: metric_name(scale).to_owned(),
            loss: rps.unwrap_or(log_loss),
            log_loss,
            accuracy,
            macro_f1: macro_f1(&confusion),
            kappa: kappa(&confusion),
            brier,
            ece: ece(scored),
            mae,
            rps,
        }
    }
}

fn metric_name(scale: Scale) -> &'static str {
    match scale {
        Scale::Ordinal => "rps",
        Scale::Binary | Scale::Nominal => "log_loss",
    }
}

/// `matrix[label][predicted]` counts.
fn confusion(outcomes: usize, scored: &[Scored]) -> Vec<Vec<f64>> {
    let mut matrix = vec![vec![0.0; outcomes]; outcomes];
    for s in scored {
        let (y, p) = (s.label_index(), s.predicted_index());
        if y < outcomes && p < outcomes {
            matrix[y][p] += 1.0;
        }
    }
    matrix
}

fn macro_f1(matrix: &[Vec<f64>]) -> f64 {
    let k = matrix.len();
    let mut sum = 0.0;
    let mut present = 0;
    for c in 0..k {
        let tp = matrix[c][c];
        let actual: f64 = matrix[c].iter().sum();
        let predicted: f64 = matrix.iter().map(|row| row[c]).sum();
        if actual + predicted == 0.0 {
            continue;
        }
        present += 1;
        sum += 2.0 * tp / (actual + predicted);
    }
    if present == 0 {
        0.0
    } else {
        sum / f64::from(present)
    }
}

fn kappa(matrix: &[Vec<f64>]) -> f64 {
    let total: f64 = matrix.iter().flatten().sum();
    if total == 0.0 {
        return 0.0;
    }
    let observed: f64 = (0..matrix.len()).map(|c| matrix[c][c]).sum::<f64>() / total;
    let chance: f64 = (0..matrix.len())
        .map(|c| {
            let row: f64 = matrix[c].iter().sum();
            let column: f64 = matrix.iter().map(|r| r[c]).sum();
            row * column
        })
        .sum::<f64>()
        / (total * total);
    if (1.0 - chance).abs() < 1e-12 {
        0.0
    } else {
        (observed - chance) / (1.0 - chance)
    }
}

/// Expected calibration error: over 10 equal-width bins of the top probability, the
/// example-weighted gap between mean confidence and accuracy.
fn ece(scored: &[Scored]) -> f64 {
    let mut bins = [(0.0_f64, 0.0_f64, 0.0_f64); ECE_BINS];
    for s in scored {
        let best = s.predicted_index();
        let confidence = s.predicted[best];
        let bin = ((confidence * ECE_BINS as f64) as usize).min(ECE_BINS - 1);
        bins[bin].0 += 1.0;
        bins[bin].1 += confidence;
        bins[bin].2 += f64::from(u8::from(best == s.label_index()));
    }
    let n = scored.len() as f64;
    bins.iter()
        .filter(|(count, _, _)| *count > 0.0)
        .map(|(_, confidence, right)| (confidence - right).abs() / n)
        .sum()
}

#[cfg(test)]
mod tests {
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
    fn a_certain_miss_is_finite() {
        assert!(log_loss(&[0.0, 1.0], &[1.0, 0.0]).is_finite());
    }
}
