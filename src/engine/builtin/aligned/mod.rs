//! Aligned questions: how the built-in engine answers with what `arbiter align` wrote into
//! a question's `instructions` ([`format`](mod@format), the one definition of that format and of its
//! features).
//!
//! A remote engine receives all of it as instructions. The built-in engine reads it: each
//! outcome gets the features of [`FEATURE_NAMES`] and its probability is the softmax of
//! `weights · features + bias`. [`features`] and [`probabilities`] are the one definition,
//! used by the engine to answer and by the alignment to fit.

pub mod format;
pub mod unsupervised;

pub use format::{ALIGNMENT_KEY, AlignedInstructions, FEATURE_NAMES, FEATURES, VERSION};

use super::text::render;
use crate::wire::validate::{FieldError, Loc};
use crate::wire::{Question, QuestionKind};
use serde_json::Value;

/// Exemplar states are embedded from this much of their rendered text (the encoder reads
/// the first 128 tokens of it).
pub const EXEMPLAR_TEXT_BYTES: usize = 16 * 1024;

/// An aligned question, parsed.
#[derive(Debug, Clone, PartialEq)]
pub struct Alignment {
    /// The instructions the question had before alignment.
    pub task: Option<Value>,
    pub exemplars: Vec<Exemplar>,
    /// Per outcome, the text its cue similarity is taken from (none without cues).
    pub cues: Vec<Option<String>>,
    pub weights: [f64; FEATURES],
    /// Per outcome.
    pub bias: Vec<f64>,
}

/// One exemplar: an annotated state and the outcome it is an example of.
#[derive(Debug, Clone, PartialEq)]
pub struct Exemplar {
    pub example_id: Option<String>,
    /// The rendered state, cut to [`EXEMPLAR_TEXT_BYTES`].
    pub text: String,
    pub outcome: usize,
}

/// The outcome keys of a question: `true`/`false`, the option keys, or `"0".."N-1"`.
pub fn outcome_keys(kind: &QuestionKind) -> Vec<String> {
    match kind {
        QuestionKind::Noul { .. } => vec!["true".into(), "false".into()],
        QuestionKind::Choice { options } => options.iter().map(|(k, _)| k.clone()).collect(),
        QuestionKind::Score { levels } => (0..levels.len()).map(|i| i.to_string()).collect(),
    }
}

/// The outcome an annotated answer names: a noul's `true`/`false` (a probability counts as
/// its nearer side), an option key, a level index. `None` when it names none.
pub fn answer_outcome(kind: &QuestionKind, answer: &Value) -> Option<usize> {
    match (kind, answer) {
        (QuestionKind::Noul { .. }, Value::Bool(b)) => Some(usize::from(!b)),
        (QuestionKind::Noul { .. }, Value::Number(n)) => {
            let p = n.as_f64().filter(|p| (0.0..=1.0).contains(p))?;
            Some(usize::from(p < 0.5))
        }
        (QuestionKind::Choice { options }, Value::String(key)) => {
            options.iter().position(|(k, _)| k == key)
        }
        (QuestionKind::Score { levels }, Value::Number(n)) => {
            let level = n.as_u64().or_else(|| {
                n.as_f64()
                    .filter(|f| f.fract() == 0.0 && *f >= 0.0)
                    .map(|f| f as u64)
            })?;
            usize::try_from(level).ok().filter(|l| *l < levels.len())
        }
        _ => None,
    }
}

/// The text an exemplar state is embedded from.
pub fn exemplar_text(state: &Value) -> String {
    let mut text = render(state);
    if text.len() > EXEMPLAR_TEXT_BYTES {
        let mut end = EXEMPLAR_TEXT_BYTES;
        while !text.is_char_boundary(end) {
            end -= 1;
        }
        text.truncate(end);
    }
    text
}

/// The text of an outcome's cues, as embedded: `key: phrase; phrase; …`.
pub fn cue_text(key: &str, phrases: &[String]) -> String {
    format!("{key}: {}", phrases.join("; "))
}

/// Whether `question` has `example_id` among its exemplars (an aligned question's) or its
/// demonstrations.
pub fn has_exemplar(question: &Question, example_id: &str) -> bool {
    AlignedInstructions::has_exemplar(question.instructions.as_ref(), example_id)
        || question.demonstrates(example_id)
}

/// The question without its exemplar or demonstration of `example_id` (so an example is
/// never its own neighbour when a checkpoint is scored); `None` when it has none.
pub fn without_exemplar(question: &Question, example_id: &str) -> Option<Question> {
    if question.demonstrates(example_id) {
        return question.without_demonstration(example_id);
    }
    if !has_exemplar(question, example_id) {
        return None;
    }
    let mut instructions = question.instructions.clone()?;
    AlignedInstructions::remove_exemplar(&mut instructions, example_id);
    Some(Question {
        instructions: Some(instructions),
        kind: question.kind.clone(),
    })
}

/// Whether `question` carries an alignment (it may still be malformed).
pub fn is_aligned(question: &Question) -> bool {
    AlignedInstructions::is_aligned(question.instructions.as_ref())
}

/// Parse the alignment of `question` (at `loc`, the question's location) into what the
/// engine computes with; `Ok(None)` when it has none.
pub fn parse(question: &Question, loc: &Loc) -> Result<Option<Alignment>, Vec<FieldError>> {
    let read = AlignedInstructions::read(question.instructions.as_ref(), &question.kind, loc)?;
    Ok(read.map(|format| Alignment::new(format, &question.kind)))
}

impl Alignment {
    /// The engine's form of a read alignment (whose answers and keys were checked).
    fn new(format: AlignedInstructions, kind: &QuestionKind) -> Self {
        let keys = outcome_keys(kind);
        let exemplars = format
            .examples
            .into_iter()
            .filter_map(|entry| {
                let outcome = answer_outcome(kind, &entry.answer)?;
                let text = match (entry.text, &entry.state) {
                    (Some(text), _) => text,
                    (None, Some(state)) => exemplar_text(state),
                    (None, None) => String::new(),
                };
                // Nothing the encoder can read (an image-only state): it cannot be a
                // neighbour.
                (!text.trim().is_empty()).then_some(Exemplar {
                    example_id: entry.example_id,
                    text,
                    outcome,
                })
            })
            .collect();
        let cues = keys
            .iter()
            .map(|key| {
                format
                    .cues
                    .get(key)
                    .filter(|phrases| !phrases.is_empty())
                    .map(|phrases| cue_text(key, phrases))
            })
            .collect();
        let calibration = format.arbiter_alignment;
        // A feature without a weight does not count.
        let weights =
            FEATURE_NAMES.map(|name| calibration.weights.get(name).copied().unwrap_or(0.0));
        let bias = keys
            .iter()
            .map(|key| calibration.bias.get(key).copied().unwrap_or(0.0))
            .collect();
        Self {
            task: format.task,
            exemplars,
            cues,
            weights,
            bias,
        }
    }
}

/// The question the zero-shot feature reads: the same outcomes, with the original
/// instructions (`task`) in place of the alignment.
pub fn base_question(question: &Question, alignment: &Alignment) -> Question {
    Question {
        instructions: alignment.task.clone(),
        kind: question.kind.clone(),
    }
}

/// Per-outcome features.
///
/// - `zero_shot`: the outcome similarities of the base question (`[s_true, s_false]` for a
///   noul; empty when it has nothing to compare);
/// - `neighbours[c]`: similarities of the state to outcome `c`'s exemplars, in any order;
/// - `cues[c]`: similarity to outcome `c`'s cue text, if it has one.
pub fn features(
    kind: &QuestionKind,
    outcomes: usize,
    zero_shot: &[f64],
    neighbours: &mut [Vec<f64>],
    cues: &[Option<f64>],
) -> Vec<[f64; FEATURES]> {
    let center = match kind {
        QuestionKind::Score { .. } => nearest_level(neighbours),
        _ => None,
    };
    (0..outcomes)
        .map(|c| {
            let similarity = match kind {
                QuestionKind::Noul { .. } => match (c, zero_shot) {
                    (0, [t, f]) => t - f,
                    _ => 0.0,
                },
                _ => zero_shot.get(c).copied().unwrap_or(0.0),
            };
            let sims = neighbours
                .get_mut(c)
                .map(std::mem::take)
                .unwrap_or_default();
            let [nearest, top3, top10] = top_means(sims);
            let cue = cues.get(c).copied().flatten().unwrap_or(0.0);
            // Levels are ordered: how far this level is from where the nearest exemplars sit.
            let level_distance = center.map_or(0.0, |m| -(c as f64 - m).abs());
            [similarity, nearest, top3, top10, cue, level_distance]
        })
        .collect()
}

/// The similarity-weighted mean level of the 10 nearest exemplars of any level.
fn nearest_level(neighbours: &[Vec<f64>]) -> Option<f64> {
    let mut all: Vec<(f64, usize)> = neighbours
        .iter()
        .enumerate()
        .flat_map(|(level, sims)| sims.iter().map(move |s| (*s, level)))
        .collect();
    if all.is_empty() {
        return None;
    }
    all.sort_unstable_by(|a, b| b.0.total_cmp(&a.0));
    all.truncate(10);
    let weight: f64 = all.iter().map(|(s, _)| s.max(0.0)).sum();
    if weight <= 0.0 {
        return Some(all.iter().map(|(_, l)| *l as f64).sum::<f64>() / all.len() as f64);
    }
    Some(all.iter().map(|(s, l)| s.max(0.0) * *l as f64).sum::<f64>() / weight)
}

/// The max, the mean of the 3 largest and the mean of the 10 largest (0 when empty).
fn top_means(mut sims: Vec<f64>) -> [f64; 3] {
    if sims.is_empty() {
        return [0.0; 3];
    }
    sims.sort_unstable_by(|a, b| b.total_cmp(a));
    let mean = |n: usize| {
        let n = n.min(sims.len());
        sims[..n].iter().sum::<f64>() / n as f64
    };
    [sims[0], mean(3), mean(10)]
}

/// The logit of each outcome.
pub fn logits(weights: &[f64; FEATURES], bias: &[f64], features: &[[f64; FEATURES]]) -> Vec<f64> {
    features
        .iter()
        .enumerate()
        .map(|(c, f)| {
            bias.get(c).copied().unwrap_or(0.0)
                + f.iter().zip(weights).map(|(x, w)| x * w).sum::<f64>()
        })
        .collect()
}

/// The softmax of [`logits`].
pub fn probabilities(
    weights: &[f64; FEATURES],
    bias: &[f64],
    features: &[[f64; FEATURES]],
) -> Vec<f64> {
    softmax(&logits(weights, bias, features))
}

/// Numerically stable softmax (the learned heads').
pub use arbiter_learn::head::softmax;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::wire::question::parse_question;
    use serde_json::json;

    fn question(value: &Value) -> Question {
        let mut errors = Vec::new();
        let q = parse_question(value, &Loc::body(), &mut errors).unwrap();
        assert!(errors.is_empty(), "{errors:?}");
        q
    }

    fn aligned_choice() -> Question {
        question(&json!({
            "type": "choice",
            "instructions": {
                "task": "What does the customer want?",
                "examples": [
                    {"example_id": "e1", "answer": "refund", "state": {"body": "money back please"}},
                    {"answer": "bug", "state": "it crashes"}
                ],
                "cues": {"refund": ["money back"]},
                "arbiter_alignment": {
                    "version": 1,
                    "weights": {"similarity": 10, "nearest": 5},
                    "bias": {"bug": 0.5}
                }
            },
            "criteria": {"refund": null, "bug": null}
        }))
    }

    // Exact on purpose: weights and biases are copied from the JSON.
    #[allow(clippy::float_cmp)]
    #[test]
    fn an_aligned_question_parses() {
        let q = aligned_choice();
        assert!(is_aligned(&q));
        let a = parse(&q, &Loc::body().key("intent")).unwrap().unwrap();
        assert_eq!(a.task, Some(json!("What does the customer want?")));
        assert_eq!(a.exemplars.len(), 2);
        assert_eq!(a.exemplars[0].example_id.as_deref(), Some("e1"));
        assert_eq!(a.exemplars[0].text, "body: money back please");
        assert_eq!(a.exemplars[1].outcome, 1);
        assert_eq!(a.cues, vec![Some("refund: money back".into()), None]);
        assert_eq!(a.weights, [10.0, 5.0, 0.0, 0.0, 0.0, 0.0]);
        assert_eq!(a.bias, vec![0.0, 0.5]);
        let base = base_question(&q, &a);
        assert_eq!(
            base.instructions,
            Some(json!("What does the customer want?"))
        );
    }

    #[test]
    fn plain_instructions_are_not_an_alignment() {
        let q = question(&json!({"type": "noul", "instructions": {"rubric": "x"}}));
        assert!(!is_aligned(&q));
        assert_eq!(parse(&q, &Loc::body()).unwrap(), None);
    }

    #[test]
    fn a_malformed_alignment_is_located() {
        let q = question(&json!({
            "type": "score",
            "instructions": {
                "examples": [{"answer": 7, "state": "x"}, {"answer": 1}],
                "cues": {"9": ["a"]},
                "arbiter_alignment": {"version": 2, "weights": {"similarity": "hot", "magic": 1}, "bias": {"x": 1}}
            },
            "criteria": ["low", "high"]
        }));
        let errors = parse(&q, &Loc::body().key("urgency")).unwrap_err();
        let locs: Vec<String> = errors.iter().map(|e| e.loc.to_string()).collect();
        for expected in [
            "urgency.instructions.arbiter_alignment.version",
            "urgency.instructions.arbiter_alignment.weights.magic",
            "urgency.instructions.arbiter_alignment.weights.similarity",
            "urgency.instructions.arbiter_alignment.bias.x",
            "urgency.instructions.examples[0].answer",
            "urgency.instructions.examples[1].text",
            "urgency.instructions.cues.9",
        ] {
            assert!(
                locs.iter().any(|l| l == expected),
                "{expected} not in {locs:?}"
            );
        }
    }

    #[test]
    fn answers_name_outcomes() {
        let noul = QuestionKind::Noul {
            when_true: Value::Null,
            when_false: Value::Null,
        };
        assert_eq!(answer_outcome(&noul, &json!(true)), Some(0));
        assert_eq!(answer_outcome(&noul, &json!(0.2)), Some(1));
        assert_eq!(answer_outcome(&noul, &json!(1.5)), None);
        let score = QuestionKind::Score {
            levels: vec![json!("a"), json!("b")],
        };
        assert_eq!(answer_outcome(&score, &json!(1)), Some(1));
        assert_eq!(answer_outcome(&score, &json!(1.0)), Some(1));
        assert_eq!(answer_outcome(&score, &json!(2)), None);
        assert_eq!(answer_outcome(&score, &json!("1")), None);
    }

    // Exact on purpose: the top and cue similarities are copied unchanged, absent ones
    // are exactly 0.0.
    #[allow(clippy::float_cmp)]
    #[test]
    fn features_take_the_gap_for_a_noul_and_top_means() {
        let noul = QuestionKind::Noul {
            when_true: Value::Null,
            when_false: Value::Null,
        };
        let mut neighbours = vec![vec![0.1, 0.9, 0.5, 0.3], vec![]];
        let f = features(&noul, 2, &[0.6, 0.4], &mut neighbours, &[None, Some(0.2)]);
        assert!((f[0][0] - 0.2).abs() < 1e-12);
        assert_eq!(f[0][1], 0.9);
        assert!((f[0][2] - (0.9 + 0.5 + 0.3) / 3.0).abs() < 1e-12);
        assert!((f[0][3] - 1.8 / 4.0).abs() < 1e-12);
        assert_eq!(f[1], [0.0, 0.0, 0.0, 0.0, 0.2, 0.0]);
        let p = probabilities(&[1.0, 0.0, 0.0, 0.0, 0.0, 0.0], &[0.0, 0.0], &f);
        assert!((p.iter().sum::<f64>() - 1.0).abs() < 1e-12);
        assert!(p[0] > p[1]);
    }
}
