//! Which examples to annotate next: the query of `GET
//! /v1/models/{modelId}/examples-to-annotate` (what the server validates, the client sends
//! and the document shows) and its answer.

use super::answer::Answer;
use super::decision::Revision;
use super::validate::{self, Refusal, Rules, Validated};
use indexmap::IndexMap;
use serde::{Deserialize, Deserializer, Serialize};
use serde_json::Value;
use std::str::FromStr;

/// Examples picked when `n` is not given.
pub const DEFAULT_N: usize = 20;
/// The most examples one request picks.
pub const MAX_N: usize = 1000;
/// The share of the picks drawn at random when `audit` is not given.
pub const DEFAULT_AUDIT: f64 = 0.2;
/// Candidates scored when `pool` is not given: the most recently created unannotated ones.
pub const DEFAULT_POOL: usize = 1000;
/// The most candidates one request scores: what bounds its work.
pub const MAX_POOL: usize = 5000;
/// The largest seed: an integer any JSON client carries exactly (2^53 − 1).
pub const MAX_SEED: u64 = (1 << 53) - 1;

/// What to pick: the query string of `GET …/examples-to-annotate`. Every parameter is
/// optional; unknown ones are ignored, as on every route. Read by
/// [`ToAnnotateQuery::from_pairs`], each parameter's text by the validation pass.
#[derive(Debug, Clone, PartialEq, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(default)]
pub struct ToAnnotateQuery {
    /// Only examples not yet annotated for this question ID [default: examples missing any
    /// question of the revision, each ranked by its least certain one].
    #[param(required = false)]
    pub question: Option<String>,
    /// How many examples to pick (1–1000; anything else is refused).
    #[param(required = false, minimum = 1, maximum = 1000, default = 20)]
    #[serde(deserialize_with = "n")]
    pub n: usize,
    /// The checkpoint to decide at: branch, tag or commit SHA [default: the default branch].
    #[param(required = false, min_length = 1, max_length = 255)]
    #[serde(deserialize_with = "revision")]
    pub revision: Option<String>,
    /// The share of the picks drawn uniformly at random from the candidates not picked for
    /// uncertainty (0 to 1): `round(picks × audit)` of them.
    #[param(required = false, minimum = 0, maximum = 1, default = 0.2)]
    #[serde(deserialize_with = "audit")]
    pub audit: f64,
    /// Seed of the audit draw: the same candidates and seed draw the same examples.
    #[param(
        required = false,
        minimum = 0,
        maximum = 9_007_199_254_740_991_u64,
        default = 0
    )]
    #[serde(deserialize_with = "seed")]
    pub seed: u64,
    /// Candidates to score, at most: the most recently created unannotated examples
    /// (1–5000).
    #[param(required = false, minimum = 1, maximum = 5000, default = 1000)]
    #[serde(deserialize_with = "pool")]
    pub pool: usize,
}

impl Default for ToAnnotateQuery {
    fn default() -> Self {
        Self {
            question: None,
            n: DEFAULT_N,
            revision: None,
            audit: DEFAULT_AUDIT,
            seed: 0,
            pool: DEFAULT_POOL,
        }
    }
}

/// A query parameter's text read as a `T`, which `fits`; else refused with `msg(text)`.
fn parsed<'de, D, T>(
    deserializer: D,
    fits: impl Fn(&T) -> bool,
    msg: impl Fn(&str) -> String,
) -> Result<T, D::Error>
where
    D: Deserializer<'de>,
    T: FromStr,
{
    let text = String::deserialize(deserializer)?;
    match text.parse::<T>() {
        Ok(value) if fits(&value) => Ok(value),
        _ => Err(Refusal::whole(msg(&text), "range").raise()),
    }
}

fn n<'de, D: Deserializer<'de>>(deserializer: D) -> Result<usize, D::Error> {
    parsed(
        deserializer,
        |n| (1..=MAX_N).contains(n),
        |text| format!("n must be an integer from 1 to {MAX_N}, not `{text}`"),
    )
}

fn pool<'de, D: Deserializer<'de>>(deserializer: D) -> Result<usize, D::Error> {
    parsed(
        deserializer,
        |pool| (1..=MAX_POOL).contains(pool),
        |text| format!("pool must be an integer from 1 to {MAX_POOL}, not `{text}`"),
    )
}

fn seed<'de, D: Deserializer<'de>>(deserializer: D) -> Result<u64, D::Error> {
    parsed(
        deserializer,
        |seed| *seed <= MAX_SEED,
        |text| format!("seed must be an integer from 0 to {MAX_SEED}, not `{text}`"),
    )
}

fn audit<'de, D: Deserializer<'de>>(deserializer: D) -> Result<f64, D::Error> {
    parsed(
        deserializer,
        |audit| (0.0..=1.0).contains(audit),
        |text| format!("audit must be a number from 0 to 1, not `{text}`"),
    )
}

fn revision<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Option<String>, D::Error> {
    let revision = String::deserialize(deserializer)?;
    if revision.is_empty() {
        return Err(Refusal::whole("revision may not be empty", "missing").raise());
    }
    Ok(Some(revision))
}

impl Rules for ToAnnotateQuery {}

impl ToAnnotateQuery {
    /// Read the query's `name=value` pairs ([`validate::read_query`]).
    pub fn from_pairs(pairs: &[(String, String)]) -> Validated<Self> {
        validate::read_query(pairs)
    }

    /// The query's pairs as a client sends them: the defaults left out.
    pub fn to_pairs(&self) -> Vec<(&'static str, String)> {
        let defaults = Self::default();
        let mut pairs = Vec::new();
        if let Some(question) = &self.question {
            pairs.push(("question", question.clone()));
        }
        if self.n != defaults.n {
            pairs.push(("n", self.n.to_string()));
        }
        if let Some(revision) = &self.revision {
            pairs.push(("revision", revision.clone()));
        }
        // `f64`'s `Display` is the shortest text that reads back as the same number.
        if self.audit.to_bits() != defaults.audit.to_bits() {
            pairs.push(("audit", self.audit.to_string()));
        }
        if self.seed != defaults.seed {
            pairs.push(("seed", self.seed.to_string()));
        }
        if self.pool != defaults.pool {
            pairs.push(("pool", self.pool.to_string()));
        }
        pairs
    }
}

/// The examples to annotate next, and what they were picked from.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ToAnnotate {
    /// The checkpoint the candidates were decided at.
    pub revision: Revision,
    /// The questions considered: `question`, or every question at the revision.
    pub questions: Vec<String>,
    /// Examples not yet annotated for at least one of `questions`, in all.
    pub unannotated: u64,
    /// Candidates decided and ranked: the most recently created unannotated examples, at
    /// most `pool`.
    pub scored: u64,
    /// Of the candidates scored, those whose answers came from the answers cache (no
    /// engine call).
    pub cached: u64,
    /// Candidates the engine could not answer (each left out; logged by the server).
    pub failed: u64,
    /// The share of the picks drawn at random, as asked.
    pub audit: f64,
    /// The seed of the audit draw, as asked.
    #[schema(maximum = 9_007_199_254_740_991_u64)]
    pub seed: u64,
    /// Per question considered whose checkpoint recorded a learning curve (`align
    /// --curve`): whether more annotations still pay. Candidates are ranked by their
    /// questions still learning first (a question without a curve counts as learning).
    #[schema(value_type = Object)]
    pub learning: IndexMap<String, Learning>,
    /// The picks: `uncertain` ones by margin, lowest first, with the `audit` ones spread
    /// evenly among them, so that any first k hold their share of the audit.
    pub examples: Vec<ToAnnotateItem>,
    /// Present when the candidates were decided by a working copy (`working_questions`)
    /// on top of `revision`, not by its commit.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<super::align::WorkingCopy>, required = false)]
    pub working_copy: Option<super::align::WorkingCopy>,
}

/// `POST …/examples-to-annotate`: the body beside the same query string as the `GET`, for
/// a questions document too large for a URL.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ToAnnotateBody {
    /// Question ID → question: a questions document not committed, deciding the candidates
    /// as a working copy on top of `revision` instead of its questions (a question whose
    /// definition is the revision's keeps its learned parameters; a changed or new one is
    /// zero-shot).
    #[serde(deserialize_with = "super::question::questions")]
    #[schema(value_type = super::question::QuestionsSchema)]
    pub working_questions: super::Questions,
}

impl Rules for ToAnnotateBody {}

impl ToAnnotateBody {
    /// Read a request body, reporting every problem at once.
    pub fn read(body: &Value) -> Validated<Self> {
        validate::read(body, &super::Loc::body())
    }
}

/// What a question's learning curve says of more annotations.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Learning {
    /// Annotated examples at the curve's last point.
    pub examples: u64,
    /// Out-of-fold accuracy gained over the curve's last step, per doubling of the
    /// annotated examples.
    pub gain: f64,
    /// Whether `gain` is at least [`RISING_GAIN`]: the curve is still rising.
    pub rising: bool,
}

/// The least gain per doubling of a curve still rising: one point of accuracy.
pub const RISING_GAIN: f64 = 0.01;

impl Learning {
    /// What `points` (a curve, by rising number of examples) say; `None` with fewer than
    /// two points.
    pub fn of(points: &[super::align::CurvePoint]) -> Option<Self> {
        let [.., before, last] = points else {
            return None;
        };
        #[allow(clippy::cast_precision_loss)] // counts of examples
        let doublings = (last.examples as f64 / before.examples.max(1) as f64).log2();
        let gain = if doublings > 0.0 {
            (last.accuracy - before.accuracy) / doublings
        } else {
            0.0
        };
        Some(Self {
            examples: last.examples,
            gain,
            rising: gain >= RISING_GAIN,
        })
    }
}

/// Why an example was picked.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum Why {
    /// Among the lowest margins of the candidates.
    Uncertain,
    /// Drawn uniformly at random from the candidates not picked for uncertainty, so the
    /// annotated examples stay a fair sample for evaluation.
    Audit,
}

impl Why {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Uncertain => "uncertain",
            Self::Audit => "audit",
        }
    }
}

/// One example to annotate.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ToAnnotateItem {
    #[schema(value_type = String)]
    pub example_id: crate::ids::ExampleId,
    /// The question to annotate: the least certain of the example's unannotated questions.
    pub question: String,
    pub why: Why,
    /// The answer's top probability minus its second (noul: `|2p − 1|`): 0 is a coin
    /// toss, 1 is certain.
    #[schema(minimum = 0, maximum = 1)]
    pub margin: f64,
    /// The Shannon entropy of the answer's probabilities, in bits.
    #[schema(minimum = 0)]
    pub entropy: f64,
    /// The model's answer to `question` at the revision.
    pub answer: Answer,
    #[schema(value_type = String, format = DateTime)]
    pub created_at: super::time::Recorded,
    /// The state, as stored.
    pub state: Value,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::wire::validate::Invalid;
    use serde_json::json;

    fn pairs(text: &[(&str, &str)]) -> Vec<(String, String)> {
        text.iter()
            .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
            .collect()
    }

    #[test]
    fn a_curve_is_rising_while_its_last_step_gains_a_point_per_doubling() {
        use crate::wire::align::CurvePoint;
        let point = |examples, accuracy| CurvePoint {
            examples,
            accuracy,
            log_loss: 0.5,
            interval: None,
        };
        let rising = Learning::of(&[point(8, 0.5), point(16, 0.6), point(32, 0.7)]).unwrap();
        assert_eq!(rising.examples, 32);
        assert!(
            (rising.gain - 0.1).abs() < 1e-12 && rising.rising,
            "{rising:?}"
        );
        let flat = Learning::of(&[point(8, 0.5), point(16, 0.6), point(32, 0.605)]).unwrap();
        assert!(!flat.rising, "{flat:?}");
        // A last step shorter than a doubling (32 → 48 examples) is scaled to one.
        let short = Learning::of(&[point(32, 0.70), point(48, 0.71)]).unwrap();
        assert!((short.gain - 0.01 / 1.5f64.log2()).abs() < 1e-12 && short.rising);
        assert_eq!(Learning::of(&[point(8, 0.5)]), None);
        assert_eq!(Learning::of(&[]), None);
    }

    #[test]
    fn defaults_and_every_parameter_read_back_from_what_a_client_sends() {
        assert_eq!(
            ToAnnotateQuery::from_pairs(&[]).unwrap(),
            ToAnnotateQuery::default()
        );
        let query = ToAnnotateQuery {
            question: Some(String::new()),
            n: 7,
            revision: Some("v2".into()),
            audit: 0.1 + 0.2,
            seed: MAX_SEED,
            pool: MAX_POOL,
        };
        let sent: Vec<(String, String)> = query
            .to_pairs()
            .into_iter()
            .map(|(k, v)| (k.to_owned(), v))
            .collect();
        assert_eq!(ToAnnotateQuery::from_pairs(&sent).unwrap(), query);
        assert!(ToAnnotateQuery::default().to_pairs().is_empty());
        // Unknown parameters are ignored, as on every route.
        assert_eq!(
            ToAnnotateQuery::from_pairs(&pairs(&[("limit", "x")])).unwrap(),
            ToAnnotateQuery::default()
        );
    }

    #[test]
    fn every_bad_parameter_is_refused_at_its_location() {
        let bad = pairs(&[
            ("n", "0"),
            ("pool", "5001"),
            ("audit", "1.5"),
            ("seed", "-1"),
            ("revision", ""),
            ("question", "a"),
            ("question", "b"),
        ]);
        let Invalid(errors) = ToAnnotateQuery::from_pairs(&bad).unwrap_err();
        let locs: Vec<Value> = errors
            .iter()
            .map(|e| serde_json::to_value(&e.loc).unwrap())
            .collect();
        assert_eq!(
            locs,
            [
                json!(["query", "n"]),
                json!(["query", "pool"]),
                json!(["query", "audit"]),
                json!(["query", "seed"]),
                json!(["query", "revision"]),
                json!(["query", "question"]),
            ]
        );
        let said: Vec<(String, &str)> = errors
            .iter()
            .map(|e| (e.msg.clone(), e.kind.as_str()))
            .collect();
        assert_eq!(
            said,
            [
                (
                    "n must be an integer from 1 to 1000, not `0`".to_owned(),
                    "range"
                ),
                (
                    "pool must be an integer from 1 to 5000, not `5001`".to_owned(),
                    "range"
                ),
                (
                    "audit must be a number from 0 to 1, not `1.5`".to_owned(),
                    "range"
                ),
                (
                    "seed must be an integer from 0 to 9007199254740991, not `-1`".to_owned(),
                    "range"
                ),
                ("revision may not be empty".to_owned(), "missing"),
                ("question is given more than once".to_owned(), "duplicate"),
            ]
        );
        for text in ["abc", "1001", "", "2.0"] {
            assert!(
                ToAnnotateQuery::from_pairs(&pairs(&[("n", text)])).is_err(),
                "n={text}"
            );
        }
        for text in ["NaN", "inf", "-0.1", "x"] {
            let refused = ToAnnotateQuery::from_pairs(&pairs(&[("audit", text)]));
            assert!(refused.is_err(), "audit={text}");
        }
        let too_big = (MAX_SEED + 1).to_string();
        assert!(ToAnnotateQuery::from_pairs(&pairs(&[("seed", &too_big)])).is_err());
    }
}
