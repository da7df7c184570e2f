//! Aligned questions: what `arbiter align` writes into a question's `instructions`, and how
//! the built-in engine answers with it.
//!
//! An aligned question's `instructions` is an object:
//!
//! ```yaml
//! instructions:
//!   task: What does the customer mainly want?     # the instructions as they were (any JSON)
//!   examples:                                     # exemplars: annotated states and their answers
//!     - {example_id: s-0001, answer: shipping, reasoning: "...", state: {...}}
//!   cues:                                         # phrases that tell outcomes apart
//!     refund: [money back, return the payment]
//!   arbiter_alignment:                            # how to combine them (the calibration)
//!     version: 1
//!     weights: {similarity: 21.3, nearest: 9.1, top3: 4.2, top10: 2.0, cue: 0.0}
//!     bias: {refund: 0.12, billing: -0.3, ...}
//! ```
//!
//! A remote engine receives all of it as instructions. The built-in engine reads it: each
//! outcome gets five features (its zero-shot similarity, as the question with `task` as its
//! instructions would have; its exemplars' nearest, top-3 and top-10 mean similarity to the
//! state; its cue text's similarity) and its probability is the softmax of
//! `weights · features + bias`. For a noul the zero-shot feature is the true − false gap on
//! the true side, so the calibration is Platt scaling of that gap plus the neighbours.
//! [`features`] and [`probabilities`] are the one definition, used by the engine to answer
//! and by the alignment to fit.

use super::text::render;
use crate::wire::problem::{FieldError, Loc};
use crate::wire::question::json_type;
use crate::wire::{Question, QuestionKind};
use serde_json::{Map, Value};

/// The member of `instructions` that marks a question as aligned.
pub const ALIGNMENT_KEY: &str = "arbiter_alignment";
/// The alignment format this engine reads.
pub const VERSION: u64 = 1;
/// Features per outcome.
pub const FEATURES: usize = 6;
/// Their names in `weights`, in feature order.
pub const FEATURE_NAMES: [&str; FEATURES] = [
    "similarity",
    "nearest",
    "top3",
    "top10",
    "cue",
    "level_distance",
];
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

/// Whether `question` carries an alignment (it may still be malformed).
pub fn is_aligned(question: &Question) -> bool {
    matches!(&question.instructions, Some(Value::Object(o)) if o.contains_key(ALIGNMENT_KEY))
}

/// Parse the alignment of `question` (at `loc`, the question's location); `Ok(None)` when
/// it has none.
pub fn parse(question: &Question, loc: &Loc) -> Result<Option<Alignment>, Vec<FieldError>> {
    let Some(Value::Object(instructions)) = &question.instructions else {
        return Ok(None);
    };
    let Some(block) = instructions.get(ALIGNMENT_KEY) else {
        return Ok(None);
    };
    let loc = loc.key("instructions");
    let keys = outcome_keys(&question.kind);
    let mut errors = Vec::new();
    let block_loc = loc.key(ALIGNMENT_KEY);
    let Some(block) = object(block, &block_loc, &mut errors) else {
        return Err(errors);
    };
    match block.get("version").and_then(Value::as_u64) {
        Some(VERSION) => {}
        other => errors.push(FieldError::new(
            block_loc.key("version"),
            format!(
                "this arbiter reads alignment version {VERSION}, not {}",
                other.map_or_else(|| "a missing one".to_owned(), |v| v.to_string())
            ),
            "alignment_version",
        )),
    }
    let weights = parse_weights(block.get("weights"), &block_loc.key("weights"), &mut errors);
    let bias = parse_bias(
        block.get("bias"),
        &keys,
        &block_loc.key("bias"),
        &mut errors,
    );
    let exemplars = parse_exemplars(
        &question.kind,
        instructions.get("examples"),
        &loc.key("examples"),
        &mut errors,
    );
    let cues = parse_cues(
        instructions.get("cues"),
        &keys,
        &loc.key("cues"),
        &mut errors,
    );
    if !errors.is_empty() {
        return Err(errors);
    }
    Ok(Some(Alignment {
        task: instructions.get("task").cloned(),
        exemplars,
        cues,
        weights,
        bias,
    }))
}

fn object<'a>(
    value: &'a Value,
    loc: &Loc,
    errors: &mut Vec<FieldError>,
) -> Option<&'a Map<String, Value>> {
    if let Value::Object(map) = value {
        Some(map)
    } else {
        errors.push(FieldError::new(
            loc.clone(),
            format!("must be an object, not {}", json_type(value)),
            "object_expected",
        ));
        None
    }
}

fn finite(value: Option<&Value>, loc: &Loc, errors: &mut Vec<FieldError>) -> f64 {
    if let Some(x) = value.and_then(Value::as_f64).filter(|x| x.is_finite()) {
        x
    } else {
        errors.push(FieldError::new(
            loc.clone(),
            "must be a finite number",
            "number_expected",
        ));
        0.0
    }
}

fn parse_weights(
    value: Option<&Value>,
    loc: &Loc,
    errors: &mut Vec<FieldError>,
) -> [f64; FEATURES] {
    let mut weights = [0.0; FEATURES];
    let Some(map) = value.and_then(|v| object(v, loc, errors)) else {
        if value.is_none() {
            errors.push(FieldError::new(loc.clone(), "is required", "missing"));
        }
        return weights;
    };
    for key in map.keys() {
        if !FEATURE_NAMES.contains(&key.as_str()) {
            errors.push(FieldError::new(
                loc.key(key),
                format!("unknown feature (known: {})", FEATURE_NAMES.join(", ")),
                "unknown_feature",
            ));
        }
    }
    for (i, name) in FEATURE_NAMES.iter().enumerate() {
        // A feature without a weight does not count.
        if let Some(v) = map.get(*name) {
            weights[i] = finite(Some(v), &loc.key(name), errors);
        }
    }
    weights
}

fn parse_bias(
    value: Option<&Value>,
    keys: &[String],
    loc: &Loc,
    errors: &mut Vec<FieldError>,
) -> Vec<f64> {
    let mut bias = vec![0.0; keys.len()];
    let Some(value) = value else {
        return bias;
    };
    let Some(map) = object(value, loc, errors) else {
        return bias;
    };
    for (key, v) in map {
        match keys.iter().position(|k| k == key) {
            Some(i) => bias[i] = finite(Some(v), &loc.key(key), errors),
            None => errors.push(FieldError::new(
                loc.key(key),
                "not an outcome of this question",
                "unknown_outcome",
            )),
        }
    }
    bias
}

fn parse_exemplars(
    kind: &QuestionKind,
    value: Option<&Value>,
    loc: &Loc,
    errors: &mut Vec<FieldError>,
) -> Vec<Exemplar> {
    let Some(value) = value else {
        return Vec::new();
    };
    let Value::Array(items) = value else {
        errors.push(FieldError::new(
            loc.clone(),
            format!("must be an array of examples, not {}", json_type(value)),
            "array_expected",
        ));
        return Vec::new();
    };
    let mut exemplars = Vec::with_capacity(items.len());
    for (i, item) in items.iter().enumerate() {
        let at = loc.index(i);
        let Some(item) = object(item, &at, errors) else {
            continue;
        };
        let Some(state) = item.get("state") else {
            errors.push(FieldError::new(at.key("state"), "is required", "missing"));
            continue;
        };
        let Some(outcome) = item.get("answer").and_then(|a| answer_outcome(kind, a)) else {
            errors.push(FieldError::new(
                at.key("answer"),
                "must name an outcome of this question",
                "invalid_answer",
            ));
            continue;
        };
        let text = exemplar_text(state);
        if text.trim().is_empty() {
            // Nothing the encoder can read (an image-only state): it cannot be a neighbour.
            continue;
        }
        exemplars.push(Exemplar {
            example_id: item
                .get("example_id")
                .and_then(Value::as_str)
                .map(str::to_owned),
            text,
            outcome,
        });
    }
    exemplars
}

fn parse_cues(
    value: Option<&Value>,
    keys: &[String],
    loc: &Loc,
    errors: &mut Vec<FieldError>,
) -> Vec<Option<String>> {
    let mut cues = vec![None; keys.len()];
    let Some(value) = value else {
        return cues;
    };
    let Some(map) = object(value, loc, errors) else {
        return cues;
    };
    for (key, phrases) in map {
        let Some(i) = keys.iter().position(|k| k == key) else {
            errors.push(FieldError::new(
                loc.key(key),
                "not an outcome of this question",
                "unknown_outcome",
            ));
            continue;
        };
        let list: Option<Vec<String>> = phrases.as_array().and_then(|items| {
            items
                .iter()
                .map(|p| p.as_str().map(str::to_owned))
                .collect()
        });
        match list {
            Some(list) if !list.is_empty() => cues[i] = Some(cue_text(key, &list)),
            Some(_) => {}
            None => errors.push(FieldError::new(
                loc.key(key),
                "must be an array of phrases (strings)",
                "array_expected",
            )),
        }
    }
    cues
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

/// Numerically stable softmax.
pub fn softmax(z: &[f64]) -> Vec<f64> {
    let max = z.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let exps: Vec<f64> = z.iter().map(|x| (x - max).exp()).collect();
    let total: f64 = exps.iter().sum();
    exps.into_iter().map(|e| e / total).collect()
}

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
            "urgency.instructions.examples[1].state",
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
