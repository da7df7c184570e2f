//! Alignments and evaluations: their requests (`POST /v1/models/{modelId}/alignments`,
//! `.../evaluations`) and the results their jobs complete with.

pub mod gates;
mod report;
mod request;

pub use report::{
    AlignmentPlan, AlignmentResult, Coverage, Curve, CurvePoint, Delta, Disagreement,
    Disagreements, EngineCalls, Estimate, EvaluationReport, EvaluationStatus, Intervals, Metrics,
    QuestionEvaluation, QuestionOrigin, QuestionReport, ReliabilityBin, TuningReport, Verdict,
    WorkingCopy,
};
pub use request::{AlignmentRequest, EvaluationRequest, MAX_WHOLE, WARM_STATES};

/// The seed when none is given.
pub const DEFAULT_SEED: u64 = 0;
/// The relative held-out gain a question needs to change: none, the choice by
/// cross-validated accuracy stands (`--margin` sets a gate for the cautious).
pub const DEFAULT_MARGIN: f64 = 0.0;
/// Annotated examples an alignment fits on per question, at most (a seeded sample).
pub const DEFAULT_MAX_EXAMPLES: usize = 2000;
/// A question needs this many annotated examples to be aligned.
pub const MIN_EXAMPLES: usize = 10;
/// The share of a question's annotated examples an alignment holds out by default: none,
/// every label is fitted and every figure is out of fold ([`DEFAULT_FOLDS`]).
pub const DEFAULT_HOLDOUT: f64 = 0.0;
/// The folds of the cross-validation that chooses a head's strength and gives its figures.
pub const DEFAULT_FOLDS: usize = 5;
/// Whether an alignment fine-tunes the encoder when none is said: yes, kept where
/// cross-validation says it pays (`--no-tune` or `"tune": false` skips it).
pub const DEFAULT_TUNE: bool = true;
/// The folds' bounds.
pub const FOLDS_RANGE: std::ops::RangeInclusive<usize> = 2..=20;
/// The held-out share's bounds.
pub const HOLDOUT_RANGE: std::ops::RangeInclusive<f64> = 0.0..=0.5;

#[cfg(test)]
mod tests;
