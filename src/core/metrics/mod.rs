//! How well predicted distributions match ground truth: the figures `align` and `eval`
//! report, computed one way for both.
//!
//! A prediction is a distribution over a question's outcomes (noul: `[p(true), p(false)]`,
//! choice: options in order, score: levels in order) and a label is a distribution too
//! (one-hot, or soft for a noul annotated with a probability). The primary metric, the one
//! an alignment minimizes and a gate compares, is the log loss for noul and choice and the
//! ranked probability score for score, since a score's levels are ordered.
//!
//! A prediction is right when its answer names the label's outcome, the answer being its
//! most likely outcome ([`Answer::most_likely`]'s rule): for a score, its most likely level
//! (ties: the lower), not the level nearest its expected level. Accuracy, the confusion
//! matrix (macro-F1, κ), ECE and selective prediction all count by it; the expected level
//! is only in the MAE.

use super::resample;
use crate::engine::builtin::aligned::{answer_outcome, outcome_keys};
pub use crate::wire::align::Metrics;
use crate::wire::align::{Coverage, Delta, Estimate, Intervals, ReliabilityBin};
use crate::wire::{Answer, QuestionKind};
use serde_json::Value;

/// The error rates selective prediction is reported at.
pub const TARGET_ERRORS: [f64; 2] = [0.05, 0.10];
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
    answer.outcome_probabilities(outcomes)
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

    /// The predicted answer: the most likely outcome (a score: its most likely level; ties:
    /// the first), as [`Answer::most_likely`].
    pub fn predicted_index(&self) -> usize {
        argmax(&self.predicted)
    }

    /// Whether the predicted answer is the label's.
    pub fn correct(&self) -> bool {
        self.predicted_index() == self.label_index()
    }

    /// The most likely outcome's probability.
    pub fn confidence(&self) -> f64 {
        self.predicted
            .get(self.predicted_index())
            .copied()
            .unwrap_or(0.0)
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

/// Index of the largest value; ties go to the first (0 when empty): the tie rule of
/// [`crate::wire::answer::argmax`], which this defers to.
pub fn argmax(values: &[f64]) -> usize {
    crate::wire::answer::argmax(values).unwrap_or(0)
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
            intervals: None,
            coverage: Vec::new(),
            confusion: Vec::new(),
            reliability: Vec::new(),
        }
    }
}

impl Metrics {
    /// These figures with their bootstrap intervals and selective prediction, for the
    /// `scored` predictions they were computed from; `salt` names the resampling stream
    /// (the question ID: the same examples resample alike at both checkpoints).
    #[must_use]
    pub fn with_uncertainty(mut self, scale: Scale, scored: &[Scored], salt: &str) -> Self {
        let (accuracy, loss) = per_example(scale, scored);
        self.intervals = Some(Intervals {
            accuracy: estimate(&accuracy, salt),
            loss: estimate(&loss, salt),
        });
        self.coverage = TARGET_ERRORS
            .iter()
            .map(|&target| coverage(scored, target))
            .collect();
        self
    }

    /// These figures with their confusion matrix and reliability diagram, for the `scored`
    /// predictions of a question with `outcomes` outcomes they were computed from.
    #[must_use]
    pub fn with_diagrams(mut self, outcomes: usize, scored: &[Scored]) -> Self {
        self.confusion = confusion(outcomes.max(1), scored)
            .into_iter()
            .map(|row| row.into_iter().map(|count| count as u64).collect())
            .collect();
        self.reliability = reliability(scored);
        self
    }
}

/// Each prediction's hit (1 or 0) and primary loss.
fn per_example(scale: Scale, scored: &[Scored]) -> (Vec<f64>, Vec<f64>) {
    scored
        .iter()
        .map(|s| {
            (
                f64::from(u8::from(s.correct())),
                loss(scale, &s.predicted, &s.label),
            )
        })
        .unzip()
}

/// The mean of `values` and its bootstrap interval.
fn estimate(values: &[f64], salt: &str) -> Estimate {
    #[allow(clippy::cast_precision_loss)] // example counts are far below 2^52
    let value = if values.is_empty() {
        0.0
    } else {
        values.iter().sum::<f64>() / values.len() as f64
    };
    let (low, high) = resample::interval(values, salt).unwrap_or((value, value));
    Estimate { value, low, high }
}

/// The change from `before` to `after` (paired: the same examples, in the same order), with
/// paired bootstrap intervals: resampling examples keeps each one's two predictions together.
pub fn delta(scale: Scale, before: &[Scored], after: &[Scored], salt: &str) -> Delta {
    let (acc_before, loss_before) = per_example(scale, before);
    let (acc_after, loss_after) = per_example(scale, after);
    let diff = |a: &[f64], b: &[f64]| -> Vec<f64> { a.iter().zip(b).map(|(a, b)| a - b).collect() };
    Delta {
        examples: before.len().min(after.len()) as u64,
        accuracy: estimate(&diff(&acc_after, &acc_before), salt),
        loss: estimate(&diff(&loss_after, &loss_before), salt),
    }
}

/// Selective prediction at `target` error: of the examples ordered by confidence, most
/// confident first, the largest head whose error rate is at most `target`, cut only between
/// different confidences (a threshold keeps all its ties or none). It describes these
/// examples; [`bounded_coverage`] is the one to carry to examples not yet seen.
pub fn coverage(scored: &[Scored], target: f64) -> Coverage {
    #[allow(clippy::cast_precision_loss)] // example counts are far below 2^52
    head(scored, target, |wrong, kept| {
        wrong as f64 / kept as f64 <= target + 1e-12
    })
}

/// Like [`coverage`], but the head's error must be at most `target` with 95% confidence
/// (its one-sided Wilson upper bound): the largest head of a sample is the one whose error
/// was luckiest, and its plain error rate promises too much for examples not yet seen.
pub fn bounded_coverage(scored: &[Scored], target: f64) -> Coverage {
    head(scored, target, |wrong, kept| {
        error_upper_bound(wrong, kept) <= target
    })
}

/// The one-sided 95% Wilson upper bound of an error rate of `wrong` in `n` (1 when n = 0).
pub fn error_upper_bound(wrong: u64, n: u64) -> f64 {
    // z for a one-sided 95% bound.
    const Z: f64 = 1.644_853_626_951_472_2;
    if n == 0 {
        return 1.0;
    }
    #[allow(clippy::cast_precision_loss)] // example counts are far below 2^52
    let (p, n) = (wrong as f64 / n as f64, n as f64);
    let z2 = Z * Z;
    let centre = p + z2 / (2.0 * n);
    let spread = Z * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
    ((centre + spread) / (1.0 + z2 / n)).min(1.0)
}

/// The largest head (most confident first, ties together) that `accept(wrong, kept)`.
fn head(scored: &[Scored], target: f64, accept: impl Fn(u64, u64) -> bool) -> Coverage {
    let mut order: Vec<(f64, bool)> = scored
        .iter()
        .map(|s| (s.confidence(), s.correct()))
        .collect();
    order.sort_by(|a, b| b.0.total_cmp(&a.0));
    let mut best = Coverage {
        target_error: target,
        ..Coverage::default()
    };
    let mut wrong = 0_u64;
    for (i, (confidence, correct)) in order.iter().enumerate() {
        wrong += u64::from(!correct);
        if order
            .get(i + 1)
            .is_some_and(|next| next.0.total_cmp(confidence).is_eq())
        {
            continue;
        }
        let kept = i as u64 + 1;
        if accept(wrong, kept) {
            best.kept = kept;
            best.threshold = Some(*confidence);
            #[allow(clippy::cast_precision_loss)]
            {
                best.error = wrong as f64 / kept as f64;
            }
        }
    }
    #[allow(clippy::cast_precision_loss)]
    if !order.is_empty() {
        best.coverage = best.kept as f64 / order.len() as f64;
    }
    best
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

/// Over 10 equal-width bins of the top probability: per bin, the examples, the sum of
/// their top probabilities and how many were right.
fn calibration_bins(scored: &[Scored]) -> [(f64, f64, f64); ECE_BINS] {
    let mut bins = [(0.0_f64, 0.0_f64, 0.0_f64); ECE_BINS];
    for s in scored {
        let best = s.predicted_index();
        let confidence = s.predicted[best];
        let bin = ((confidence * ECE_BINS as f64) as usize).min(ECE_BINS - 1);
        bins[bin].0 += 1.0;
        bins[bin].1 += confidence;
        bins[bin].2 += f64::from(u8::from(best == s.label_index()));
    }
    bins
}

/// Expected calibration error: over 10 equal-width bins of the top probability, the
/// example-weighted gap between mean confidence and accuracy.
fn ece(scored: &[Scored]) -> f64 {
    let n = scored.len() as f64;
    calibration_bins(scored)
        .iter()
        .filter(|(count, _, _)| *count > 0.0)
        .map(|(_, confidence, right)| (confidence - right).abs() / n)
        .sum()
}

/// The reliability diagram [`ece`] sums over: the bins that hold an example.
fn reliability(scored: &[Scored]) -> Vec<ReliabilityBin> {
    let width = 1.0 / ECE_BINS as f64;
    calibration_bins(scored)
        .iter()
        .enumerate()
        .filter(|(_, (count, _, _))| *count > 0.0)
        .map(|(i, &(count, confidence, right))| ReliabilityBin {
            low: i as f64 * width,
            high: (i + 1) as f64 * width,
            examples: count as u64,
            confidence: confidence / count,
            accuracy: right / count,
        })
        .collect()
}

#[cfg(test)]
mod tests;
