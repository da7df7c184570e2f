//! What a completed alignment or evaluation reports.

use indexmap::IndexMap;
use serde::{Deserialize, Serialize};

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
    pub checkpoint: Option<crate::wire::decision::Checkpoint>,
    pub seed: u64,
    /// Per question: the held-out figures before and after, and the gate's verdict.
    #[schema(value_type = Object)]
    pub questions: IndexMap<String, QuestionReport>,
    /// The encoder's fine-tune, when one was tried: whether the heads read it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tuning: Option<TuningReport>,
    /// The remote engine the heads were fitted over, and the calls the alignment made to
    /// it (absent for the built-in engine).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub engine_calls: Option<EngineCalls>,
}

/// What an alignment asked, or would ask, of its engine: one call per answer it reads that
/// is not in the answer cache. The heads over a remote engine read one answer per
/// annotated example; `--instructions` reads one per candidate set and example it is
/// scored on.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct EngineCalls {
    /// The engine's name in `config.yaml` (`built-in` for the built-in engine).
    pub engine: String,
    /// The answers the alignment reads.
    pub answers: u64,
    /// Of those, the ones already in the answer cache: no call.
    pub cached: u64,
    /// Calls to the engine: made (a result), or to be made (a plan).
    pub calls: u64,
}

/// `POST /v1/models/{modelId}/alignment-plan`: what an alignment with the same request
/// would ask of the engine, asking nothing.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AlignmentPlan {
    /// The checkpoint it would start from.
    pub base_checkpoint: String,
    /// The engine the base model is answered by, as `arbiter engines` describes it.
    pub engine: String,
    /// The calls to a remote engine (absent for the built-in engine, which answers here
    /// and is never counted).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub engine_calls: Option<EngineCalls>,
}

/// An alignment's fine-tune of the encoder (`SetFit`) and whether it was kept.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct TuningReport {
    /// Whether the new checkpoint's heads read the tuned encoder.
    pub used: bool,
    /// Annotated states its pairs were drawn from.
    pub examples: u64,
    /// Pair steps per fine-tune (one per fold, and one on every label).
    pub steps: u64,
    /// Mean out-of-fold log loss of the questions' choices over the tuned encoder, and
    /// over the base one: what decided (absent when no question had a choice to make).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub log_loss_tuned: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub log_loss_base: Option<f64>,
    /// Why it was or was not kept, for people.
    pub reason: String,
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
    /// What the question answers with after this alignment, chosen by cross-validated
    /// log loss (then accuracy): `zero_shot`, `majority` (the annotated answers'
    /// frequencies) or `head` (the learned head).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub chosen: Option<String>,
    /// Each candidate's out-of-fold figures on the fitted examples: what the choice
    /// compared.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<Object>)]
    pub candidates: Option<IndexMap<String, CurvePoint>>,
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

impl QuestionReport {
    /// A question that `examples` annotated examples (and `skipped` left out) leave as it
    /// is, before anything is said of it.
    pub fn unchanged(examples: u64, skipped: u64) -> Self {
        Self {
            improved: false,
            examples,
            fitted: 0,
            held_out: 0,
            skipped,
            candidate: None,
            before: None,
            after: None,
            gate: None,
            states: None,
            reason: None,
            figures: None,
            curve: None,
            chosen: None,
            candidates: None,
        }
    }
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
    /// The accuracy's 95% interval over the examples scored (Wilson's), `[low, high]`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub interval: Option<[f64; 2]>,
}

/// What a completed evaluation reports.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct EvaluationReport {
    pub revision: crate::wire::decision::Revision,
    #[schema(required = true, value_type = Object)]
    pub baseline: Option<crate::wire::decision::Revision>,
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
    /// Present when `revision` was evaluated with a questions document not committed
    /// (`working_questions`): these figures are the working copy's, not the commit's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<WorkingCopy>, required = false)]
    pub working_copy: Option<WorkingCopy>,
    /// The per-question gates the evaluation was asked with: the revision's `gates.yaml`,
    /// or the request's `gates` (question ID or `*` → `{accuracy, max_ece,
    /// no_regression}`). Absent when there were none. The server reports them; `arbiter
    /// eval` judges them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<Object>, required = false)]
    pub question_gates: Option<crate::wire::gates::Gates>,
}

/// A working copy: a questions document evaluated on top of a revision, not committed.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct WorkingCopy {
    /// The revision it is a working copy of, as requested (its commit is `revision`'s).
    pub of: String,
    /// Per question of the document: how it relates to the revision's.
    #[schema(value_type = Object)]
    pub questions: IndexMap<String, QuestionOrigin>,
}

/// How a working copy's question relates to the revision's question of that ID.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum QuestionOrigin {
    /// The same definition (type, instructions, criteria): its learned parameters are kept.
    Unchanged,
    /// Its definition changed: asked zero-shot, without the revision's learned parameters.
    Changed,
    /// No question of this ID at the revision (new, or renamed): asked zero-shot.
    New,
}

impl QuestionOrigin {
    /// How the output says it.
    pub fn describe(self) -> &'static str {
        match self {
            Self::Unchanged => "unchanged (learned parameters kept)",
            Self::Changed => "changed (zero-shot)",
            Self::New => "new",
        }
    }
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
    /// The question's outcomes, in the order of `confusion`'s rows and columns.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub outcomes: Vec<String>,
    /// With a baseline: the examples the two answered differently.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub disagreements: Option<Disagreements>,
    /// The learning curve the alignment of the revision's head recorded (`align --curve`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub curve: Vec<CurvePoint>,
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
    /// `confusion[label][predicted]`: how many examples of each annotated outcome got each
    /// most likely outcome, in the order of the evaluation's `outcomes` (evaluations only).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub confusion: Vec<Vec<u64>>,
    /// The reliability diagram `ece` sums over: the most likely outcome's probability in 10
    /// equal bins, the bins that hold an example (evaluations only).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub reliability: Vec<ReliabilityBin>,
}

/// One bin of a reliability diagram: the examples whose most likely outcome's probability
/// fell in `[low, high)` (the last bin includes 1).
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ReliabilityBin {
    pub low: f64,
    pub high: f64,
    pub examples: u64,
    /// The mean probability of the most likely outcome.
    pub confidence: f64,
    /// The share of them whose most likely outcome was the label's.
    pub accuracy: f64,
}

/// The examples a revision and its baseline answered differently, scored at both.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Disagreements {
    /// How many there were.
    pub count: u64,
    /// The first of them by example ID, at most 100.
    pub examples: Vec<Disagreement>,
}

/// One example the two checkpoints answered differently.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Disagreement {
    pub example_id: String,
    /// The annotated outcome.
    pub label: String,
    /// The revision's most likely outcome, and its probability.
    pub revision: String,
    pub revision_probability: f64,
    /// The baseline's.
    pub baseline: String,
    pub baseline_probability: f64,
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
