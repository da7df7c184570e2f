//! The requests of `POST /v1/models/{modelId}/alignments` and `.../evaluations`, read by
//! the validation pass with every fault reported at once.

use super::{
    DEFAULT_FOLDS, DEFAULT_HOLDOUT, DEFAULT_MARGIN, DEFAULT_MAX_EXAMPLES, DEFAULT_SEED,
    DEFAULT_TUNE, FOLDS_RANGE, HOLDOUT_RANGE, MIN_EXAMPLES,
};
use crate::limits;
use crate::wire::validate::{self, Refusal, Rules, fields};
use crate::wire::validate::{Loc, Segment, Validated};
use serde::{Deserialize, Deserializer, Serialize};
use serde_json::Value;

/// `POST /v1/models/{modelId}/alignments`: what [`AlignmentRequest::read`] produces, what
/// a client sends and what the document shows. Every member is optional; null is
/// its default.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(default, deny_unknown_fields)]
#[allow(clippy::struct_excessive_bools)] // the body's flags, each its own
pub struct AlignmentRequest {
    /// The checkpoint to improve: branch, tag or commit SHA [default: the default branch].
    #[schema(min_length = 1, max_length = 255, pattern = "^[^\\u0000]*$")]
    #[serde(deserialize_with = "fields::revision")]
    pub revision: Option<String>,
    /// Question IDs to align [default: every saved question].
    #[schema(min_items = 1, max_items = 256)]
    #[serde(deserialize_with = "question_ids")]
    pub questions: Option<Vec<String>>,
    /// Seed of the folds, draws and bootstrap: the same examples, seed and checkpoint give
    /// the same new checkpoint.
    #[schema(nullable = true, default = 0, maximum = 9_007_199_254_740_991_u64)]
    #[serde(deserialize_with = "seed")]
    pub seed: u64,
    /// A gate for the cautious, off at 0 (the default): a question then changes only when
    /// its held-out loss is lower than zero-shot's by this share of it, and a seeded paired
    /// bootstrap's lower bound of the gain is above zero. At 0 each question keeps the
    /// candidate that scores best out of fold (log loss, then accuracy).
    #[schema(nullable = true, minimum = 0.0, exclusive_maximum = 1.0, default = 0.0)]
    #[serde(deserialize_with = "margin")]
    pub margin: f64,
    /// Annotated examples used per question, at most (a seeded sample).
    #[schema(
        nullable = true,
        minimum = 10,
        maximum = 9_007_199_254_740_991_u64,
        default = 2000
    )]
    #[serde(deserialize_with = "max_examples")]
    pub max_examples: usize,
    /// The share of each question's annotated examples held out (stratified by answer,
    /// seeded): never fitted on or used to choose; the gate and the figures are on them.
    /// 0 (the default): none held out; the gate and the figures are out of fold.
    #[schema(nullable = true, minimum = 0.0, maximum = 0.5, default = 0.0)]
    #[serde(deserialize_with = "holdout")]
    pub holdout: f64,
    /// Folds of the seeded cross-validation (stratified from 100 examples on).
    #[schema(nullable = true, minimum = 2, maximum = 20, default = 5)]
    #[serde(deserialize_with = "folds")]
    pub folds: usize,
    /// Also measure the learning curve: out-of-fold accuracy and log loss per question at
    /// 8, 16, 32, … annotated examples [default: false].
    #[schema(nullable = true, default = false)]
    #[serde(deserialize_with = "fields::or_default")]
    pub curve: bool,
    /// Correct each choice and score question without annotations: each outcome's average
    /// pull over the model's captured states (at most `max_examples`, a seeded sample) is
    /// removed. Nouls are left as they are. Without it, a question with too few annotated
    /// examples gets this correction [default: false].
    #[schema(nullable = true, default = false)]
    #[serde(deserialize_with = "fields::or_default")]
    pub unsupervised: bool,
    /// Fine-tune the encoder's top layer on pairs of the annotated states (`SetFit`), kept
    /// where cross-validation says the questions' choices do better on it; false skips it
    /// (`--no-tune`). Only `mo`'s encoder is tunable, and only on 16 annotated states or
    /// more: otherwise the result's `tuning` says why not [default: true].
    #[schema(nullable = true, default = true)]
    #[serde(deserialize_with = "tune")]
    pub tune: bool,
    /// The most calls to a remote engine the alignment may make (each annotated example
    /// whose answers are not cached is one). Past it the alignment stops, commits nothing
    /// and says how far it got; the answers it got are cached, so running it again asks
    /// only the rest. Absent: no limit. `POST …/alignment-plan` says how many it would make.
    #[schema(nullable = true, minimum = 1, maximum = 9_007_199_254_740_991_u64)]
    #[serde(deserialize_with = "budget", skip_serializing_if = "Option::is_none")]
    pub budget: Option<u64>,
    /// Improve each question's instructions instead of fitting heads: demonstrations
    /// chosen from its annotated examples (1 to 4 of each answer, the best of 8 seeded sets
    /// by accuracy through the engine on the annotated examples each leaves out), written
    /// into its `instructions` in `questions.yaml` with its own text and the file's comments
    /// kept [default: false].
    #[schema(nullable = true, default = false)]
    #[serde(
        deserialize_with = "fields::or_default",
        skip_serializing_if = "std::ops::Not::not"
    )]
    pub instructions: bool,
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
            tune: DEFAULT_TUNE,
            budget: None,
            instructions: false,
        }
    }
}

/// The name of [`EvaluationRequest::warm_states`] in a body: a member servers older than
/// it do not know (and refuse, as they refuse any member they do not know).
pub const WARM_STATES: &str = "warm_states";

/// `POST /v1/models/{modelId}/evaluations`: what [`EvaluationRequest::read`]
/// produces, what a client sends and what the document shows. Every member is optional.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(default, deny_unknown_fields)]
pub struct EvaluationRequest {
    /// The checkpoint to evaluate [default: the default branch].
    #[schema(min_length = 1, max_length = 255, pattern = "^[^\\u0000]*$")]
    #[serde(deserialize_with = "fields::revision")]
    pub revision: Option<String>,
    /// A checkpoint to compare with.
    #[schema(min_length = 1, max_length = 255, pattern = "^[^\\u0000]*$")]
    #[serde(deserialize_with = "fields::revision")]
    pub baseline: Option<String>,
    /// Question IDs to evaluate [default: every saved question].
    #[schema(min_items = 1, max_items = 256)]
    #[serde(deserialize_with = "question_ids")]
    pub questions: Option<Vec<String>>,
    /// Score the examples an aligned question was fitted on too [default: false: each
    /// question is scored, at both checkpoints, only on the annotated examples neither was
    /// fitted on].
    #[schema(nullable = true, default = false)]
    #[serde(deserialize_with = "fields::or_default")]
    pub include_fitted: bool,
    /// Read every state into the engine's state cache, also those whose answers come from
    /// the answer cache [default: false]: what `eval --watch` asks of its first run, so
    /// that the first save decides only what changed instead of reading every state.
    #[schema(nullable = true, default = false)]
    #[serde(
        default,
        deserialize_with = "fields::or_default",
        skip_serializing_if = "std::ops::Not::not"
    )]
    pub warm_states: bool,
    /// Question ID → question: a questions document not committed, evaluated as a working
    /// copy on top of `revision` instead of its `questions.yaml` (a question whose
    /// definition is the revision's keeps its learned parameters; a changed or new one is
    /// zero-shot). `baseline` then defaults to `revision`. Nothing is committed, and the
    /// evaluation does not count as one of the revision's commit.
    #[schema(value_type = Option<crate::wire::question::QuestionsSchema>, required = false)]
    #[serde(
        deserialize_with = "crate::wire::question::nullable_questions",
        skip_serializing_if = "Option::is_none"
    )]
    pub working_questions: Option<crate::wire::Questions>,
    /// Question ID (or `*`, every other question) → its gate `{accuracy, max_ece,
    /// no_regression}`: gates to report with the figures instead of the revision's
    /// `gates.yaml` (`{}`: none). Every ID must be a question evaluated. The server does
    /// not judge them: the report carries them as `questionGates`, and `arbiter eval`
    /// exits 3 on a failed one.
    #[schema(value_type = Option<Object>, required = false)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub gates: Option<crate::wire::gates::Gates>,
}

impl Rules for AlignmentRequest {}

impl AlignmentRequest {
    /// Read a request body, reporting every problem at once.
    pub fn read(body: &Value) -> Validated<Self> {
        validate::read(body, &Loc::body())
    }

    /// A request built in code (the command line's), held to the rules a body is read
    /// with: it is written as the body a client would send and read back, so there is one
    /// set of rules and a fault is located as the server locates it.
    pub fn checked(self) -> Validated<Self> {
        let body = serde_json::to_value(&self).unwrap_or_default();
        Self::read(&body)
    }
}

impl Rules for EvaluationRequest {}

impl EvaluationRequest {
    /// Read a request body, reporting every problem at once.
    pub fn read(body: &Value) -> Validated<Self> {
        validate::read(body, &Loc::body())
    }
}

/// The largest seed or example count: 2^53 − 1, the largest whole number every JSON
/// reader holds exactly (the `maximum` the document declares).
pub const MAX_WHOLE: u64 = (1 << 53) - 1;

/// A member read as a `T`, null its `default`, refused by `refuse` where it says so.
fn ranged<'de, D, T>(
    deserializer: D,
    default: T,
    refuse: impl FnOnce(&T) -> Option<String>,
) -> Result<T, D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de>,
{
    let value = Option::<T>::deserialize(deserializer)?.unwrap_or(default);
    match refuse(&value) {
        Some(predicate) => Err(Refusal::of(predicate, "range").raise()),
        None => Ok(value),
    }
}

/// A whole number up to [`MAX_WHOLE`] (JSON Schema's `integer`: `7` or `7.0`), refused
/// past it in these words.
fn past_whole(n: u64) -> Option<String> {
    (n > MAX_WHOLE).then(|| format!("must be a whole number of at most {MAX_WHOLE}, not {n}"))
}

/// The seed: a whole number from 0 to [`MAX_WHOLE`].
fn seed<'de, D: Deserializer<'de>>(deserializer: D) -> Result<u64, D::Error> {
    ranged(deserializer, DEFAULT_SEED, |n| past_whole(*n))
}

/// The budget of engine calls, when given: a whole number from 1 to [`MAX_WHOLE`].
fn budget<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Option<u64>, D::Error> {
    let Some(n) = Option::<u64>::deserialize(deserializer)? else {
        return Ok(None);
    };
    let refused = if n == 0 {
        Some("must be a whole number of at least 1 (engine calls), not 0".to_owned())
    } else {
        past_whole(n)
    };
    match refused {
        Some(predicate) => Err(Refusal::of(predicate, "range").raise()),
        None => Ok(Some(n)),
    }
}

/// Whether to fine-tune: null is [`DEFAULT_TUNE`].
fn tune<'de, D: Deserializer<'de>>(deserializer: D) -> Result<bool, D::Error> {
    ranged(deserializer, DEFAULT_TUNE, |_| None)
}

/// The margin: a relative gain from 0 up to (not including) 1.
fn margin<'de, D: Deserializer<'de>>(deserializer: D) -> Result<f64, D::Error> {
    ranged(deserializer, DEFAULT_MARGIN, |m| {
        (!(0.0..1.0).contains(m))
            .then(|| format!("must be a number from 0 up to 1 (a relative gain), not {m}"))
    })
}

/// The examples per question: at least [`MIN_EXAMPLES`], at most [`MAX_WHOLE`].
fn max_examples<'de, D: Deserializer<'de>>(deserializer: D) -> Result<usize, D::Error> {
    let n = ranged(deserializer, DEFAULT_MAX_EXAMPLES as u64, |n| {
        if *n < MIN_EXAMPLES as u64 {
            Some(format!(
                "must be an integer of at least {MIN_EXAMPLES}, not {n}"
            ))
        } else {
            past_whole(*n)
        }
    })?;
    Ok(usize::try_from(n).unwrap_or(usize::MAX))
}

/// The held-out share, within [`HOLDOUT_RANGE`].
fn holdout<'de, D: Deserializer<'de>>(deserializer: D) -> Result<f64, D::Error> {
    ranged(deserializer, DEFAULT_HOLDOUT, |h| {
        (!HOLDOUT_RANGE.contains(h)).then(|| {
            format!(
                "must be a share from {} (none) to {}, not {h}",
                HOLDOUT_RANGE.start(),
                HOLDOUT_RANGE.end()
            )
        })
    })
}

/// The folds, within [`FOLDS_RANGE`].
fn folds<'de, D: Deserializer<'de>>(deserializer: D) -> Result<usize, D::Error> {
    let within = |k: &u64| usize::try_from(*k).is_ok_and(|k| FOLDS_RANGE.contains(&k));
    let k = ranged(deserializer, DEFAULT_FOLDS as u64, |k| {
        (!within(k)).then(|| {
            format!(
                "must be an integer from {} to {}, not {k}",
                FOLDS_RANGE.start(),
                FOLDS_RANGE.end()
            )
        })
    })?;
    Ok(usize::try_from(k).unwrap_or(DEFAULT_FOLDS))
}

/// Question IDs, when given (null is none): at least one, at most
/// [`limits::MAX_QUESTIONS`] (a model has no more questions, so more IDs cannot all name
/// one), each within [`limits::MAX_QUESTION_ID_CHARS`] and without NUL.
fn question_ids<'de, D: Deserializer<'de>>(
    deserializer: D,
) -> Result<Option<Vec<String>>, D::Error> {
    let Some(ids) = Option::<Vec<String>>::deserialize(deserializer)? else {
        return Ok(None);
    };
    if ids.is_empty() {
        let refusal = Refusal::of("must be a non-empty array of question IDs, not []", "empty");
        return Err(refusal.raise());
    }
    if let Some(refusal) = fields::too_many(ids.len(), limits::MAX_QUESTIONS, "questions") {
        return Err(refusal.raise());
    }
    let refused = ids.iter().enumerate().filter_map(|(i, id)| {
        limits::text_fault(id, limits::MAX_QUESTION_ID_CHARS).map(|(fault, kind)| {
            Refusal::whole(format!("a question ID {fault}"), kind).under(&Segment::Index(i))
        })
    });
    match refused.reduce(Refusal::and) {
        Some(refusal) => Err(refusal.raise()),
        None => Ok(Some(ids)),
    }
}
