//! Alignments and evaluations: their requests (`POST /v1/models/{modelId}/alignments`,
//! `.../evaluations`) and the results their jobs complete with.

use super::problem::{FieldError, Loc};
use super::problem::{Invalid, Validated};
use super::question::json_type;
use crate::limits;
use indexmap::IndexMap;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// The seed when none is given.
pub const DEFAULT_SEED: u64 = 0;
/// The relative held-out gain a new checkpoint needs (2% lower mean loss).
pub const DEFAULT_MARGIN: f64 = 0.02;
/// Annotated examples an alignment fits on per question, at most (a seeded sample).
pub const DEFAULT_MAX_EXAMPLES: usize = 2000;
/// A question needs this many annotated examples to be aligned.
pub const MIN_EXAMPLES: usize = 10;
/// The share of a question's annotated examples an alignment holds out by default: none,
/// every label is fitted and every figure is out of fold ([`DEFAULT_FOLDS`]).
pub const DEFAULT_HOLDOUT: f64 = 0.0;
/// The folds of the cross-validation that chooses a head's strength and gives its figures.
pub const DEFAULT_FOLDS: usize = 5;
/// The folds' bounds.
pub const FOLDS_RANGE: std::ops::RangeInclusive<usize> = 2..=20;
/// The held-out share's bounds.
pub const HOLDOUT_RANGE: std::ops::RangeInclusive<f64> = 0.0..=0.5;

/// `POST /v1/models/{modelId}/alignments`: what [`AlignmentRequest::from_value`] produces,
/// what a client sends and what the document shows. Every member is optional; null is
/// its default.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(default, deny_unknown_fields)]
pub struct AlignmentRequest {
    /// The checkpoint to improve: branch, tag or commit SHA [default: the default branch].
    #[schema(min_length = 1, max_length = 255, pattern = "^[^\\u0000]*$")]
    pub revision: Option<String>,
    /// Question IDs to align [default: every saved question].
    #[schema(min_items = 1, max_items = 256)]
    pub questions: Option<Vec<String>>,
    /// Seed of the folds, draws and bootstrap: the same examples, seed and checkpoint give
    /// the same new checkpoint.
    #[schema(nullable = true, default = 0, maximum = 9_007_199_254_740_991_u64)]
    pub seed: u64,
    /// The held-out gain a question needs, relative to its loss.
    #[schema(
        nullable = true,
        minimum = 0.0,
        exclusive_maximum = 1.0,
        default = 0.02
    )]
    pub margin: f64,
    /// Annotated examples used per question, at most (a seeded sample).
    #[schema(
        nullable = true,
        minimum = 10,
        maximum = 9_007_199_254_740_991_u64,
        default = 2000
    )]
    pub max_examples: usize,
    /// The share of each question's annotated examples held out (stratified by answer,
    /// seeded): never fitted on or used to choose; the gate and the figures are on them.
    /// 0 (the default): none held out; the gate and the figures are out of fold.
    #[schema(nullable = true, minimum = 0.0, maximum = 0.5, default = 0.0)]
    pub holdout: f64,
    /// Folds of the stratified, seeded cross-validation.
    #[schema(nullable = true, minimum = 2, maximum = 20, default = 5)]
    pub folds: usize,
    /// Also measure the learning curve: out-of-fold accuracy and log loss per question at
    /// 8, 16, 32, … annotated examples [default: false].
    #[schema(nullable = true, default = false)]
    pub curve: bool,
    /// Correct each choice and score question without annotations: each outcome's average
    /// pull over the model's captured states (at most `max_examples`, a seeded sample) is
    /// removed. Nouls are left as they are. Without it, a question with too few annotated
    /// examples gets this correction [default: false].
    #[schema(nullable = true, default = false)]
    pub unsupervised: bool,
}

impl Default for AlignmentRequest {
    fn default() -> Self {
        Self {
            revision: None,
            questions: None,
            seed: DEFAULT_SEED,
            margin: DEFAULT_MARGIN,
            max_examples: DEFAULT_MAX_EXAMPLES,
            holdout: DEFAULT_HOLDOUT,
            folds: DEFAULT_FOLDS,
            curve: false,
            unsupervised: false,
        }
    }
}

impl AlignmentRequest {
    /// Check a request body: every problem at once, each with its field path.
    pub fn from_value(body: &Value) -> Validated<Self> {
        let (object, mut errors) = object_with(
            body,
            &[
                "revision",
                "questions",
                "seed",
                "margin",
                "max_examples",
                "holdout",
                "folds",
                "curve",
                "unsupervised",
            ],
        )?;
        let root = Loc::body();
        let mut request = Self {
            revision: limits::revision_member(object, "revision", &Loc::body(), &mut errors),
            questions: question_ids(object, &mut errors),
            ..Self::default()
        };
        match object.get("seed") {
            None | Some(Value::Null) => {}
            Some(Value::Number(n)) if whole_number(n).is_some() => {
                request.seed = whole_number(n).unwrap_or_default();
            }
            Some(other) => errors.push(FieldError::new(
                root.key("seed"),
                format!("seed must be a non-negative integer, not {other}"),
                "type",
            )),
        }
        match object.get("margin") {
            None | Some(Value::Null) => {}
            Some(Value::Number(n)) if n.as_f64().is_some_and(|m| (0.0..1.0).contains(&m)) => {
                request.margin = n.as_f64().unwrap_or(DEFAULT_MARGIN);
            }
            Some(other) => errors.push(FieldError::new(
                root.key("margin"),
                format!("margin must be a number from 0 up to 1 (a relative gain), not {other}"),
                "range",
            )),
        }
        match object.get("max_examples") {
            None | Some(Value::Null) => {}
            Some(Value::Number(n)) if whole_number(n).is_some_and(|m| m >= MIN_EXAMPLES as u64) => {
                request.max_examples =
                    usize::try_from(whole_number(n).unwrap_or_default()).unwrap_or(usize::MAX);
            }
            Some(other) => errors.push(FieldError::new(
                root.key("max_examples"),
                format!("max_examples must be an integer of at least {MIN_EXAMPLES}, not {other}"),
                "range",
            )),
        }
        match object.get("holdout") {
            None | Some(Value::Null) => {}
            Some(Value::Number(n)) if n.as_f64().is_some_and(|h| HOLDOUT_RANGE.contains(&h)) => {
                request.holdout = n.as_f64().unwrap_or(DEFAULT_HOLDOUT);
            }
            Some(other) => errors.push(FieldError::new(
                root.key("holdout"),
                format!(
                    "holdout must be a share from {} (none) to {}, not {other}",
                    HOLDOUT_RANGE.start(),
                    HOLDOUT_RANGE.end()
                ),
                "range",
            )),
        }
        folds_and_curve(object, &mut request, &mut errors);
        match object.get("unsupervised") {
            None | Some(Value::Null) => {}
            Some(Value::Bool(b)) => request.unsupervised = *b,
            Some(other) => errors.push(FieldError::new(
                root.key("unsupervised"),
                format!("unsupervised must be a boolean, not {}", json_type(other)),
                "type",
            )),
        }
        if errors.is_empty() {
            Ok(request)
        } else {
            Err(Invalid(errors))
        }
    }
}

/// An alignment request's `folds` and `curve`, checked into `request`.
fn folds_and_curve(
    object: &Map<String, Value>,
    request: &mut AlignmentRequest,
    errors: &mut Vec<FieldError>,
) {
    let root = Loc::body();
    match object.get("folds") {
        None | Some(Value::Null) => {}
        Some(Value::Number(n))
            if whole_number(n)
                .is_some_and(|k| usize::try_from(k).is_ok_and(|k| FOLDS_RANGE.contains(&k))) =>
        {
            request.folds =
                usize::try_from(whole_number(n).unwrap_or_default()).unwrap_or(DEFAULT_FOLDS);
        }
        Some(other) => errors.push(FieldError::new(
            root.key("folds"),
            format!(
                "folds must be an integer from {} to {}, not {other}",
                FOLDS_RANGE.start(),
                FOLDS_RANGE.end()
            ),
            "range",
        )),
    }
    match object.get("curve") {
        None | Some(Value::Null) => {}
        Some(Value::Bool(b)) => request.curve = *b,
        Some(other) => errors.push(FieldError::new(
            root.key("curve"),
            format!("curve must be a boolean, not {}", json_type(other)),
            "type",
        )),
    }
}

/// `POST /v1/models/{modelId}/evaluations`: what [`EvaluationRequest::from_value`]
/// produces, what a client sends and what the document shows. Every member is optional.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(default, deny_unknown_fields)]
pub struct EvaluationRequest {
    /// The checkpoint to evaluate [default: the default branch].
    #[schema(min_length = 1, max_length = 255, pattern = "^[^\\u0000]*$")]
    pub revision: Option<String>,
    /// A checkpoint to compare with.
    #[schema(min_length = 1, max_length = 255, pattern = "^[^\\u0000]*$")]
    pub baseline: Option<String>,
    /// Question IDs to evaluate [default: every saved question].
    #[schema(min_items = 1, max_items = 256)]
    pub questions: Option<Vec<String>>,
    /// Score the examples an aligned question was fitted on too [default: false: each
    /// question is scored, at both checkpoints, only on the annotated examples neither was
    /// fitted on].
    #[schema(nullable = true, default = false)]
    pub include_fitted: bool,
}

impl EvaluationRequest {
    pub fn from_value(body: &Value) -> Validated<Self> {
        let (object, mut errors) = object_with(
            body,
            &["revision", "baseline", "questions", "include_fitted"],
        )?;
        let include_fitted = match object.get("include_fitted") {
            None | Some(Value::Null) => false,
            Some(Value::Bool(b)) => *b,
            Some(other) => {
                errors.push(FieldError::new(
                    Loc::body().key("include_fitted"),
                    format!("include_fitted must be a boolean, not {}", json_type(other)),
                    "type",
                ));
                false
            }
        };
        let request = Self {
            include_fitted,
            revision: limits::revision_member(object, "revision", &Loc::body(), &mut errors),
            baseline: limits::revision_member(object, "baseline", &Loc::body(), &mut errors),
            questions: question_ids(object, &mut errors),
        };
        if errors.is_empty() {
            Ok(request)
        } else {
            Err(Invalid(errors))
        }
    }
}

/// The largest seed or example count: 2^53 − 1, the largest whole number every JSON
/// reader holds exactly (the `maximum` the document declares).
pub const MAX_WHOLE: u64 = (1 << 53) - 1;

/// A whole number from 0 to [`MAX_WHOLE`], as JSON Schema's `integer` reads one: `7`, or
/// `7.0`.
fn whole_number(n: &serde_json::Number) -> Option<u64> {
    n.as_u64()
        .or_else(|| {
            n.as_f64()
                .filter(|f| *f >= 0.0 && f.fract() == 0.0 && *f <= MAX_WHOLE as f64)
                .map(|f| f as u64)
        })
        .filter(|n| *n <= MAX_WHOLE)
}
fn object_with<'a>(
    body: &'a Value,
    known: &[&str],
) -> Validated<(&'a Map<String, Value>, Vec<FieldError>)> {
    let root = Loc::body();
    let Some(object) = body.as_object() else {
        return Err(Invalid::one(
            root,
            format!("the request is a JSON object, not {}", json_type(body)),
            "type",
        ));
    };
    let errors = object
        .keys()
        .filter(|k| !known.contains(&k.as_str()))
        .map(|k| {
            FieldError::new(
                root.key(k),
                format!("unknown member `{k}` (known: {})", known.join(", ")),
                "unknown",
            )
        })
        .collect();
    Ok((object, errors))
}

fn question_ids(object: &Map<String, Value>, errors: &mut Vec<FieldError>) -> Option<Vec<String>> {
    let loc = Loc::body().key("questions");
    match object.get("questions") {
        None | Some(Value::Null) => None,
        Some(Value::Array(items)) if !items.is_empty() => {
            // A model has at most this many questions: more IDs cannot all name one.
            if let Some(error) =
                limits::count(items.len(), limits::MAX_QUESTIONS, &loc, "questions")
            {
                errors.push(error);
                return None;
            }
            let mut ids = Vec::with_capacity(items.len());
            for (i, item) in items.iter().enumerate() {
                match item {
                    Value::String(id) => {
                        let at = loc.index(i);
                        match limits::text(id, limits::MAX_QUESTION_ID_CHARS, &at, "a question ID")
                        {
                            Some(error) => errors.push(error),
                            None => ids.push(id.clone()),
                        }
                    }
                    other => errors.push(FieldError::new(
                        loc.index(i),
                        format!("a question ID is a string, not {}", json_type(other)),
                        "type",
                    )),
                }
            }
            Some(ids)
        }
        Some(other) => {
            errors.push(FieldError::new(
                loc,
                format!("questions must be a non-empty array of question IDs, not {other}"),
                "type",
            ));
            None
        }
    }
}

/// What a completed alignment reports.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AlignmentResult {
    /// Whether a new checkpoint was committed.
    pub improved: bool,
    /// The checkpoint the alignment started from.
    pub base_checkpoint: String,
    /// The branch of the new checkpoint (`alignments/<jobId>`), when improved.
    #[schema(required = true)]
    pub branch: Option<String>,
    /// The new checkpoint, when improved.
    #[schema(required = true, value_type = Object)]
    pub checkpoint: Option<super::decision::Checkpoint>,
    pub seed: u64,
    /// Per question: the held-out figures before and after, and the gate's verdict.
    #[schema(value_type = Object)]
    pub questions: IndexMap<String, QuestionReport>,
}

/// One question of an alignment.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct QuestionReport {
    pub improved: bool,
    /// Annotated examples used.
    pub examples: u64,
    /// Of those, the ones fitted on (exemplars, cues, calibration and the choice among
    /// candidates).
    #[serde(default)]
    pub fitted: u64,
    /// Of those, the ones held out: `before`, `after` and the gate are on these alone.
    #[serde(default)]
    pub held_out: u64,
    /// Annotated examples left out (an answer that names no outcome, a blank state, the
    /// sample limit).
    pub skipped: u64,
    /// The candidate chosen, e.g. `exemplars (coverage, 16 per outcome) + cues + calibration`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub candidate: Option<String>,
    /// The current checkpoint on the held-out examples.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub before: Option<Metrics>,
    /// The aligned question on the held-out examples.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub after: Option<Metrics>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gate: Option<Verdict>,
    /// Captured states an unsupervised correction was estimated on (annotated or not);
    /// absent when the question was not corrected that way.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub states: Option<u64>,
    /// Why the question was not improved, or how it was without annotations, for people.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// What `before`, `after` and the gate are on: `out_of_fold` (every fitted example,
    /// each answered by a head fitted without its fold) or `held_out`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub figures: Option<String>,
    /// The learning curve, when asked for (`curve`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub curve: Option<Curve>,
}

/// A question's learning curve: out-of-fold figures at growing numbers of annotated
/// examples, with the lines a head must beat.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Curve {
    pub points: Vec<CurvePoint>,
    /// The zero-shot answers on all the examples.
    pub zero_shot: CurvePoint,
    /// Always answering the most frequent annotation (out of fold).
    pub majority: CurvePoint,
}

/// Figures at one number of annotated examples.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CurvePoint {
    pub examples: u64,
    pub accuracy: f64,
    pub log_loss: f64,
}

/// What a completed evaluation reports.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct EvaluationReport {
    pub revision: super::decision::Revision,
    #[schema(required = true, value_type = Object)]
    pub baseline: Option<super::decision::Revision>,
    /// Per question of the revision (and `overall`, the example-weighted mean over the
    /// questions evaluated): the figures at the revision, and at the baseline when one was
    /// given. A question with no annotated example left to score is listed with `status`
    /// `not_evaluated`, a `reason` and no figures.
    #[schema(value_type = Object)]
    pub questions: IndexMap<String, QuestionEvaluation>,
    #[schema(value_type = Object)]
    pub overall: QuestionEvaluation,
    /// Decisions this evaluation asked an engine for.
    pub decided: u64,
    /// Decisions it found in the answer cache (an earlier run asked the same).
    pub cached: u64,
}

/// Whether an evaluation measured a question.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum EvaluationStatus {
    /// Scored on at least one annotated example: `metrics` holds its figures.
    #[default]
    Evaluated,
    /// No annotated example was left to score (none annotated, every one fitted on by an
    /// alignment, or every decision failed): no figures, and `reason` says which.
    NotEvaluated,
}

/// One question of an evaluation.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct QuestionEvaluation {
    /// `evaluated`, or `not_evaluated` (absent in reports written before it: evaluated).
    #[serde(default)]
    pub status: EvaluationStatus,
    /// Why a question was not evaluated, for people.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// The figures at the revision; absent when not evaluated.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub metrics: Option<Metrics>,
    /// A question with a learned head: the figures on the examples it was fitted on, each
    /// scored by its out-of-fold answer (recorded by the alignment).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub out_of_fold: Option<Metrics>,
    /// A question with a learned head: the figures on examples it was not fitted on.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fresh: Option<Metrics>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub baseline: Option<Metrics>,
    /// Examples whose decision failed (counted in neither).
    pub failed: u64,
    /// Annotated examples left out because an alignment at the revision or the baseline
    /// was fitted on them (0 with `include_fitted`).
    #[serde(default)]
    pub excluded_fitted: u64,
    /// An aligned question whose fitted examples this server has no record of (it was
    /// aligned elsewhere, or before records were kept): nothing could be left out.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub fitted_unknown: bool,
    /// With a baseline: the change from it, paired over the examples both scored.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub delta: Option<Delta>,
}

/// The figures of one question over a set of examples.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Metrics {
    /// Examples scored.
    pub examples: u64,
    /// Which primary metric `loss` is: `log_loss` or `rps`.
    pub metric: String,
    /// The primary metric's mean (lower is better).
    pub loss: f64,
    pub log_loss: f64,
    /// Share of examples whose most likely outcome is the label's.
    pub accuracy: f64,
    /// The mean of the per-outcome F1 over the outcomes that occur as labels or predictions.
    pub macro_f1: f64,
    /// Cohen's κ between predictions and labels (0 when chance agreement is 1).
    pub kappa: f64,
    pub brier: f64,
    /// Expected calibration error of the most likely outcome's probability, 10 equal bins.
    pub ece: f64,
    /// Score questions: mean absolute error of the expected level.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mae: Option<f64>,
    /// Score questions: the ranked probability score (also `loss`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rps: Option<f64>,
    /// 95% bootstrap intervals of `accuracy` and `loss` (evaluations and alignments' held-out
    /// figures; absent from an overall row).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub intervals: Option<Intervals>,
    /// Selective prediction: how many examples can be answered, most confident first, at an
    /// error rate of at most 5% and 10% (evaluations and alignments' held-out figures).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub coverage: Vec<Coverage>,
}

/// A figure and its 95% percentile bootstrap interval (2,000 resamples of the examples).
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct Estimate {
    pub value: f64,
    pub low: f64,
    pub high: f64,
}

/// The intervals of a question's headline figures.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct Intervals {
    pub accuracy: Estimate,
    /// Of the primary metric (`loss`).
    pub loss: Estimate,
}

/// The change from a baseline (revision − baseline) on the examples both were scored on,
/// with paired bootstrap intervals: an interval that excludes 0 is a change beyond chance.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct Delta {
    /// Examples scored at both checkpoints.
    pub examples: u64,
    /// Positive is better.
    pub accuracy: Estimate,
    /// Negative is better.
    pub loss: Estimate,
}

/// Selective prediction at one target error rate: answer only when the most likely
/// outcome's probability reaches `threshold`, and leave the rest to a person.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Coverage {
    /// The error rate asked for: 0.05 keeps at most 5% of the answers kept wrong.
    pub target_error: f64,
    /// Share of the examples kept (0 when no threshold is strict enough).
    pub coverage: f64,
    /// The lowest top-outcome probability kept; null when no threshold reaches the target.
    #[schema(required = true)]
    pub threshold: Option<f64>,
    /// Examples kept.
    pub kept: u64,
    /// The error rate among them.
    pub error: f64,
}

/// How the gate judged one question.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Verdict {
    pub passed: bool,
    /// Mean loss before − after (positive is better).
    pub gain: f64,
    /// The gain the margin asks for.
    pub required_gain: f64,
    /// The bootstrap's lower bound on the gain.
    pub lower_bound: f64,
    pub upper_bound: f64,
    /// The gain on each repeated held-out split (the first is the committed one's): it
    /// must be above zero on all but at most one.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub splits: Vec<f64>,
    /// Why it failed, for people.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn locs(error: &Invalid) -> Vec<String> {
        error.0.iter().map(|d| d.loc.to_string()).collect()
    }

    #[test]
    fn an_alignment_request_has_defaults_and_checks_every_member() {
        assert_eq!(
            AlignmentRequest::from_value(&json!({})).unwrap(),
            AlignmentRequest::default()
        );
        let r = AlignmentRequest::from_value(
            &json!({"revision": "main", "questions": ["a", ""], "seed": 7, "margin": 0.05}),
        )
        .unwrap();
        assert_eq!(r.questions, Some(vec!["a".to_owned(), String::new()]));
        assert_eq!((r.seed, r.margin, r.unsupervised), (7, 0.05, false));
        let r = AlignmentRequest::from_value(&json!({"unsupervised": true})).unwrap();
        assert!(r.unsupervised);
        let e = AlignmentRequest::from_value(&json!({
            "seed": -1, "margin": 2, "questions": [1], "max_examples": 3, "x": 1,
            "unsupervised": "yes"
        }))
        .unwrap_err();
        assert_eq!(
            locs(&e),
            [
                "x",
                "questions[0]",
                "seed",
                "margin",
                "max_examples",
                "unsupervised"
            ]
        );
        assert!(AlignmentRequest::from_value(&json!([])).is_err());
        assert_eq!(
            locs(&AlignmentRequest::from_value(&json!({"questions": []})).unwrap_err()),
            ["questions"]
        );
    }

    #[test]
    fn a_question_of_a_report_written_before_statuses_reads_as_evaluated() {
        let before = json!({"metrics": {"examples": 3, "metric": "log_loss", "loss": 0.5,
            "logLoss": 0.5, "accuracy": 1.0, "macroF1": 1.0, "kappa": 1.0, "brier": 0.1,
            "ece": 0.1}, "failed": 0});
        let read: QuestionEvaluation = serde_json::from_value(before).unwrap();
        assert_eq!(read.status, EvaluationStatus::Evaluated);
        assert_eq!(read.metrics.map(|m| m.examples), Some(3));
        let not = QuestionEvaluation {
            status: EvaluationStatus::NotEvaluated,
            reason: Some("no annotated examples".to_owned()),
            ..QuestionEvaluation::default()
        };
        assert_eq!(
            serde_json::to_value(&not).unwrap(),
            json!({"status": "not_evaluated", "reason": "no annotated examples", "failed": 0,
                "excludedFitted": 0})
        );
    }

    #[test]
    fn an_evaluation_request_checks_its_members() {
        let r =
            EvaluationRequest::from_value(&json!({"revision": "v3", "baseline": "main"})).unwrap();
        assert_eq!(r.baseline.as_deref(), Some("main"));
        let e = EvaluationRequest::from_value(&json!({"baseline": 3})).unwrap_err();
        assert_eq!(locs(&e), ["baseline"]);
    }
}
