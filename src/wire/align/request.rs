//! The requests of `POST /v1/models/{modelId}/alignments` and `.../evaluations`, validated
//! with every fault reported at once.

use super::{
    DEFAULT_FOLDS, DEFAULT_HOLDOUT, DEFAULT_MARGIN, DEFAULT_MAX_EXAMPLES, DEFAULT_SEED,
    FOLDS_RANGE, HOLDOUT_RANGE, MIN_EXAMPLES,
};
use crate::limits;
use crate::wire::problem::{FieldError, Loc};
use crate::wire::problem::{Invalid, Validated};
use crate::wire::question::json_type;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

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
        examples_and_holdout(object, &mut request, &mut errors);
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

/// An alignment request's `max_examples` and `holdout`, checked into `request`.
fn examples_and_holdout(
    object: &Map<String, Value>,
    request: &mut AlignmentRequest,
    errors: &mut Vec<FieldError>,
) {
    let root = Loc::body();
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
