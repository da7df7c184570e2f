//! Answers, in the System One wire shape, and how one is built from an engine's distribution.
//!
//! Every engine yields a [`Distribution`]; [`Answer::from_distribution`] is the only place
//! where argmax, expected score and confidence are computed, so the invariants hold for all
//! engines alike.
//!
//! What "the answer" to a question is, read as a person reads it, is [`Answer::most_likely`]:
//! its most likely outcome, for a score its most likely level (ties: the lower), the spec's
//! `k*`. The score's `score` member, the expected level, stays as the spec has it; tables
//! show it beside the answer, and metrics count a score as right by its most likely level.

use super::question::{Question, QuestionKind};
use indexmap::IndexMap;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// Question ID → answer, in question order.
pub type Answers = IndexMap<String, Answer>;

/// One answer; the `type` member names the question type.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(tag = "type", rename_all = "lowercase")]
pub enum Answer {
    /// The answer to a `noul` question.
    #[schema(title = "NoulAnswer")]
    Noul {
        /// Probability, from 0 to 1, that the answer is true.
        #[schema(minimum = 0, maximum = 1)]
        noul: f64,
        /// Share of a chat model's probability mass that fell on the offered letters
        /// (chat-logprobs engines only; absent otherwise).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[schema(value_type = f64, minimum = 0, maximum = 1)]
        x_option_mass: Option<f64>,
        /// `true` when the checkpoint's abstain threshold leaves this answer to a person
        /// (its most likely outcome is less probable than the threshold); absent otherwise.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[schema(value_type = bool)]
        x_abstain: Option<bool>,
    },
    /// The answer to a `choice` question.
    #[schema(title = "ChoiceAnswer")]
    Choice {
        /// The most likely option key (ties: the first in request order); null when the
        /// question has no options.
        #[schema(required = true)]
        choice: Option<String>,
        /// A probability for every option key, in request order; they sum to 1.
        probabilities: IndexMap<String, f64>,
        /// `(K·p_max − 1)/(K − 1)` over K options (1 when K = 1, 0 when K = 0).
        #[schema(minimum = 0, maximum = 1)]
        confidence: f64,
        /// Share of a chat model's probability mass that fell on the offered letters
        /// (chat-logprobs engines only; absent otherwise).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[schema(value_type = f64, minimum = 0, maximum = 1)]
        x_option_mass: Option<f64>,
        /// `true` when the checkpoint's abstain threshold leaves this answer to a person
        /// (its most likely outcome is less probable than the threshold); absent otherwise.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[schema(value_type = bool)]
        x_abstain: Option<bool>,
    },
    /// The answer to a `score` question.
    #[schema(title = "ScoreAnswer")]
    Score {
        /// The expected level `Σ i·pᵢ`, from 0 to N−1 (may be fractional).
        #[schema(minimum = 0)]
        score: f64,
        /// Level (`"0"` to `"N-1"`) → its description, in the form given (string, object or array).
        legend: IndexMap<String, Value>,
        /// Level (`"0"` to `"N-1"`) → probability; they sum to 1.
        probabilities: IndexMap<String, f64>,
        /// `max(0, 1 − Σ pᵢ·|i − k*| / D)`, k* the most likely level.
        #[schema(minimum = 0, maximum = 1)]
        confidence: f64,
        /// Share of a chat model's probability mass that fell on the offered letters
        /// (chat-logprobs engines only; absent otherwise).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[schema(value_type = f64, minimum = 0, maximum = 1)]
        x_option_mass: Option<f64>,
        /// `true` when the checkpoint's abstain threshold leaves this answer to a person
        /// (its most likely outcome is less probable than the threshold); absent otherwise.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[schema(value_type = bool)]
        x_abstain: Option<bool>,
    },
}

/// What an engine computes for one question: the probability of `true` for noul, or one
/// probability per option (choice) or level (score), in question order.
#[derive(Debug, Clone, PartialEq)]
pub enum Distribution {
    Noul(f64),
    Outcomes(Vec<f64>),
}

impl Answer {
    pub fn type_name(&self) -> &'static str {
        match self {
            Self::Noul { .. } => "noul",
            Self::Choice { .. } => "choice",
            Self::Score { .. } => "score",
        }
    }

    /// The answer as a person reads it: the index of the most likely outcome, in question
    /// order, and its probability. A noul's outcomes are true (0) and false (1); a choice's,
    /// its options; a score's, its levels, so a score's answer is its most likely level,
    /// never the level nearest its expected `score`. Ties go to the first outcome (a score:
    /// the lower level; a noul at 0.5: true), as the spec's `k*`. `None` only for a choice
    /// without options.
    ///
    /// This is the one rule for "the answer": the tables of `decide` and `examples next`
    /// show it, and metrics count a prediction as right when it names the label.
    pub fn most_likely(&self) -> Option<(usize, f64)> {
        let ps: Vec<f64> = match self {
            Self::Noul { noul, .. } => vec![*noul, 1.0 - noul],
            Self::Choice { probabilities, .. } | Self::Score { probabilities, .. } => {
                probabilities.values().copied().collect()
            }
        };
        argmax(&ps).map(|i| (i, ps[i]))
    }

    /// Build the answer to `question` from `distribution`. The probabilities are normalized
    /// (negative, non-finite or all-zero mass becomes uniform) so every answer is valid.
    pub fn from_distribution(question: &Question, distribution: &Distribution) -> Self {
        match (&question.kind, distribution) {
            (QuestionKind::Noul { .. }, Distribution::Noul(p)) => Self::Noul {
                noul: if p.is_finite() {
                    p.clamp(0.0, 1.0)
                } else {
                    0.5
                },
                x_option_mass: None,
                x_abstain: None,
            },
            (QuestionKind::Noul { .. }, Distribution::Outcomes(ps)) => {
                let ps = normalize(ps, 2);
                Self::Noul {
                    noul: ps[0],
                    x_option_mass: None,
                    x_abstain: None,
                }
            }
            (QuestionKind::Choice { options }, dist) => {
                let ps = normalize(outcomes(dist), options.len());
                let best = argmax(&ps);
                Self::Choice {
                    choice: best.map(|i| options[i].0.clone()),
                    probabilities: options
                        .iter()
                        .map(|(k, _)| k.clone())
                        .zip(ps.iter().copied())
                        .collect(),
                    confidence: best.map_or(0.0, |i| choice_confidence(&ps, i)),
                    x_option_mass: None,
                    x_abstain: None,
                }
            }
            (QuestionKind::Score { levels }, dist) => {
                let ps = normalize(outcomes(dist), levels.len());
                let best = argmax(&ps).unwrap_or(0);
                Self::Score {
                    score: ps.iter().enumerate().map(|(i, p)| i as f64 * p).sum(),
                    legend: levels
                        .iter()
                        .enumerate()
                        .map(|(i, d)| (i.to_string(), d.clone()))
                        .collect(),
                    probabilities: ps
                        .iter()
                        .enumerate()
                        .map(|(i, p)| (i.to_string(), *p))
                        .collect(),
                    confidence: score_confidence(&ps, best),
                    x_option_mass: None,
                    x_abstain: None,
                }
            }
        }
    }

    /// This answer with the share of probability mass that fell on the offered options
    /// (clamped to 0..=1; a non-finite share is dropped).
    #[must_use]
    pub fn with_option_mass(mut self, mass: f64) -> Self {
        let mass = mass.is_finite().then(|| mass.clamp(0.0, 1.0));
        match &mut self {
            Self::Noul { x_option_mass, .. }
            | Self::Choice { x_option_mass, .. }
            | Self::Score { x_option_mass, .. } => *x_option_mass = mass,
        }
        self
    }

    /// This answer marked as left to a person (`x_abstain: true`).
    #[must_use]
    pub fn abstaining(mut self) -> Self {
        match &mut self {
            Self::Noul { x_abstain, .. }
            | Self::Choice { x_abstain, .. }
            | Self::Score { x_abstain, .. } => *x_abstain = Some(true),
        }
        self
    }

    /// Its probabilities, one per outcome in question order (a noul: true, false).
    pub fn outcome_probabilities(&self, outcomes: usize) -> Vec<f64> {
        match self.distribution() {
            Distribution::Noul(p) => vec![p, 1.0 - p],
            Distribution::Outcomes(ps) => normalize(&ps, outcomes),
        }
    }

    /// The distribution this answer carries, in question order (the inverse of
    /// [`Answer::from_distribution`] for a valid answer).
    pub fn distribution(&self) -> Distribution {
        match self {
            Self::Noul { noul, .. } => Distribution::Noul(*noul),
            Self::Choice { probabilities, .. } | Self::Score { probabilities, .. } => {
                Distribution::Outcomes(probabilities.values().copied().collect())
            }
        }
    }
}

fn outcomes(distribution: &Distribution) -> &[f64] {
    match distribution {
        Distribution::Outcomes(ps) => ps,
        Distribution::Noul(_) => &[],
    }
}

/// Probabilities over `n` outcomes that are finite, non-negative and sum to 1.
pub fn normalize(ps: &[f64], n: usize) -> Vec<f64> {
    if n == 0 {
        return Vec::new();
    }
    let clean: Vec<f64> = (0..n)
        .map(|i| {
            ps.get(i)
                .copied()
                .filter(|p| p.is_finite() && *p > 0.0)
                .unwrap_or(0.0)
        })
        .collect();
    let total: f64 = clean.iter().sum();
    if !(total.is_finite() && total > 0.0) {
        return vec![1.0 / n as f64; n];
    }
    clean.into_iter().map(|p| p / total).collect()
}

/// Index of the largest probability; ties go to the first in order (`None` when empty).
/// The tie rule of [`Answer::most_likely`], and so of every "most likely" in the crate.
pub fn argmax(ps: &[f64]) -> Option<usize> {
    let mut best: Option<usize> = None;
    for (i, p) in ps.iter().enumerate() {
        if best.is_none_or(|b| *p > ps[b]) {
            best = Some(i);
        }
    }
    best
}

/// `(K·p_max − 1)/(K − 1)`, 1 when K = 1.
fn choice_confidence(ps: &[f64], best: usize) -> f64 {
    let k = ps.len() as f64;
    if ps.len() <= 1 {
        return 1.0;
    }
    ((k * ps[best] - 1.0) / (k - 1.0)).clamp(0.0, 1.0)
}

/// `max(0, 1 − Σ pᵢ·|i − k*| / D)` with `D = (1/K)·Σ|i − (K−1)/2|`, D = 1 when K = 1.
fn score_confidence(ps: &[f64], best: usize) -> f64 {
    let k = ps.len();
    let centre = (k as f64 - 1.0) / 2.0;
    let spread = if k == 1 {
        1.0
    } else {
        (0..k).map(|i| (i as f64 - centre).abs()).sum::<f64>() / k as f64
    };
    let distance: f64 = ps
        .iter()
        .enumerate()
        .map(|(i, p)| p * (i as f64 - best as f64).abs())
        .sum();
    (1.0 - distance / spread).clamp(0.0, 1.0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use serde_json::json;

    fn choice(keys: &[&str]) -> Question {
        Question {
            instructions: None,
            kind: QuestionKind::Choice {
                options: keys
                    .iter()
                    .map(|k| ((*k).to_owned(), Value::Null))
                    .collect(),
            },
        }
    }

    fn score(levels: usize) -> Question {
        Question {
            instructions: None,
            kind: QuestionKind::Score {
                levels: (0..levels).map(|i| json!(format!("level {i}"))).collect(),
            },
        }
    }

    #[test]
    fn choice_answer_has_the_wire_shape() {
        let answer = Answer::from_distribution(
            &choice(&["b", "a"]),
            &Distribution::Outcomes(vec![0.25, 0.75]),
        );
        assert_eq!(
            serde_json::to_value(&answer).unwrap(),
            json!({"type": "choice", "choice": "a", "probabilities": {"b": 0.25, "a": 0.75}, "confidence": 0.5})
        );
    }

    #[test]
    fn empty_choice_answers_null() {
        let answer = Answer::from_distribution(&choice(&[]), &Distribution::Outcomes(vec![]));
        assert_eq!(
            serde_json::to_value(&answer).unwrap(),
            json!({"type": "choice", "choice": null, "probabilities": {}, "confidence": 0.0})
        );
    }

    // Exact on purpose: one outcome is certain, exactly 1.0 (its score exactly 0.0).
    #[allow(clippy::float_cmp)]
    #[test]
    fn single_option_and_single_level_are_certain() {
        let c = Answer::from_distribution(&choice(&["only"]), &Distribution::Outcomes(vec![0.3]));
        assert!(matches!(c, Answer::Choice { confidence, .. } if confidence == 1.0));
        let s = Answer::from_distribution(&score(1), &Distribution::Outcomes(vec![1.0]));
        assert!(
            matches!(s, Answer::Score { confidence, score, .. } if confidence == 1.0 && score == 0.0)
        );
    }

    #[test]
    fn score_answer_keeps_legend_forms() {
        let q = Question {
            instructions: None,
            kind: QuestionKind::Score {
                levels: vec![json!("low"), json!({"k": [1]}), json!(["x"])],
            },
        };
        let answer = Answer::from_distribution(&q, &Distribution::Outcomes(vec![0.0, 0.5, 0.5]));
        let value = serde_json::to_value(&answer).unwrap();
        assert_eq!(
            value["legend"],
            json!({"0": "low", "1": {"k": [1]}, "2": ["x"]})
        );
        assert_eq!(value["score"], json!(1.5));
        // k* = 1 (first of the tie); Σ p·|i−1| = 0.5; D = (1+0+1)/3.
        let confidence = value["confidence"].as_f64().unwrap();
        assert!((confidence - (1.0 - 0.5 / (2.0 / 3.0))).abs() < 1e-12);
    }

    #[test]
    fn option_mass_is_omitted_unless_set() {
        let q = Question {
            instructions: None,
            kind: QuestionKind::Noul {
                when_true: Value::Null,
                when_false: Value::Null,
            },
        };
        let plain = Answer::from_distribution(&q, &Distribution::Noul(0.25));
        assert_eq!(
            serde_json::to_value(&plain).unwrap(),
            json!({"type": "noul", "noul": 0.25})
        );
        let chat = plain.with_option_mass(0.875);
        assert_eq!(
            serde_json::to_value(&chat).unwrap(),
            json!({"type": "noul", "noul": 0.25, "x_option_mass": 0.875})
        );
        let s = Answer::from_distribution(&score(2), &Distribution::Outcomes(vec![0.5, 0.5]))
            .with_option_mass(f64::NAN);
        assert!(
            serde_json::to_value(&s)
                .unwrap()
                .get("x_option_mass")
                .is_none()
        );
    }

    #[test]
    fn answers_parse_back() {
        let answer =
            Answer::from_distribution(&score(3), &Distribution::Outcomes(vec![0.2, 0.3, 0.5]));
        let text = serde_json::to_string(&answer).unwrap();
        assert_eq!(serde_json::from_str::<Answer>(&text).unwrap(), answer);
    }

    fn score_answer(ps: &[f64]) -> Answer {
        Answer::from_distribution(&score(ps.len()), &Distribution::Outcomes(ps.to_vec()))
    }

    // Exact on purpose: these probabilities are binary fractions summing to exactly 1, so
    // the answer carries them unchanged.
    #[allow(clippy::float_cmp)]
    #[test]
    fn a_scores_answer_is_its_most_likely_level_not_the_nearest_to_its_mean() {
        // Expected level 2.625, nearest level 3: the answer is level 4, at 0.375.
        let answer = score_answer(&[0.125, 0.125, 0.125, 0.25, 0.375]);
        assert!(matches!(answer, Answer::Score { score, .. } if score == 2.625));
        assert_eq!(answer.most_likely(), Some((4, 0.375)));
        // Two modes: the mean (2.0) is a level with no chance at all.
        let answer = score_answer(&[0.375, 0.0, 0.25, 0.0, 0.375]);
        assert!(matches!(answer, Answer::Score { score, .. } if score == 2.0));
        assert_eq!(answer.most_likely(), Some((0, 0.375)));
    }

    #[test]
    fn ties_go_to_the_lower_level_as_the_spec_k_star() {
        assert_eq!(score_answer(&[0.5, 0.5]).most_likely(), Some((0, 0.5)));
        assert_eq!(score_answer(&[0.25; 4]).most_likely(), Some((0, 0.25)));
        let answer = score_answer(&[0.25, 0.375, 0.375, 0.0]);
        assert_eq!(answer.most_likely(), Some((1, 0.375)));
        // The confidence is measured from the same level: with k* = 1, Σ p·|i − 1| = 0.625
        // and D = (1.5 + 0.5 + 0.5 + 1.5)/4 = 1 give 0.375 (k* = 2 would give 0.125).
        let Answer::Score { confidence, .. } = answer else {
            panic!()
        };
        assert!((confidence - 0.375).abs() < 1e-12, "{confidence}");
    }

    #[test]
    fn a_single_level_is_the_answer_with_certainty() {
        assert_eq!(score_answer(&[0.2]).most_likely(), Some((0, 1.0)));
    }

    #[test]
    fn nouls_and_choices_follow_the_same_rule() {
        let noul = |p: f64| Answer::Noul {
            noul: p,
            x_option_mass: None,
            x_abstain: None,
        };
        assert_eq!(noul(0.7).most_likely(), Some((0, 0.7)));
        assert_eq!(noul(0.25).most_likely(), Some((1, 0.75)));
        assert_eq!(noul(0.5).most_likely(), Some((0, 0.5)));
        let c = Answer::from_distribution(
            &choice(&["b", "a", "c"]),
            &Distribution::Outcomes(vec![0.375, 0.375, 0.25]),
        );
        assert_eq!(c.most_likely(), Some((0, 0.375)));
        assert!(matches!(c, Answer::Choice { choice: Some(k), .. } if k == "b"));
        let none = Answer::from_distribution(&choice(&[]), &Distribution::Outcomes(vec![]));
        assert_eq!(none.most_likely(), None);
    }

    fn distribution(max_len: usize) -> impl Strategy<Value = Vec<f64>> {
        prop::collection::vec(
            prop_oneof![
                Just(0.0),
                0.0..1.0f64,
                0.0..1e6f64,
                Just(f64::NAN),
                Just(-1.0)
            ],
            0..max_len,
        )
    }

    proptest! {
        // Exact on purpose: no options give a confidence of exactly 0.0, and the choice
        // is the first probability equal to the maximum.
        #[allow(clippy::float_cmp)]
        #[test]
        fn choice_invariants(raw in distribution(12), n in 0usize..12) {
            let keys: Vec<String> = (0..n).map(|i| format!("k{i}")).collect();
            let refs: Vec<&str> = keys.iter().map(String::as_str).collect();
            let Answer::Choice { choice, probabilities, confidence, .. } =
                Answer::from_distribution(&choice(&refs), &Distribution::Outcomes(raw)) else { panic!() };
            prop_assert_eq!(probabilities.len(), n);
            prop_assert!(probabilities.keys().eq(keys.iter()));
            prop_assert!((0.0..=1.0).contains(&confidence));
            if n == 0 {
                prop_assert!(choice.is_none());
                prop_assert_eq!(confidence, 0.0);
            } else {
                let ps: Vec<f64> = probabilities.values().copied().collect();
                prop_assert!(ps.iter().all(|p| p.is_finite() && (0.0..=1.0).contains(p)));
                prop_assert!((ps.iter().sum::<f64>() - 1.0).abs() < 1e-9);
                let max = ps.iter().copied().fold(f64::MIN, f64::max);
                let first = ps.iter().position(|p| *p == max).unwrap();
                prop_assert_eq!(choice, Some(keys[first].clone()));
            }
        }

        // Exact on purpose: the score is exactly this expectation, summed the same way.
        #[allow(clippy::float_cmp)]
        #[test]
        fn score_invariants(raw in distribution(12), n in 1usize..12) {
            let Answer::Score { score: s, probabilities, confidence, legend, .. } =
                Answer::from_distribution(&score(n), &Distribution::Outcomes(raw)) else { panic!() };
            let ps: Vec<f64> = probabilities.values().copied().collect();
            prop_assert_eq!(ps.len(), n);
            prop_assert_eq!(legend.len(), n);
            prop_assert!(probabilities.keys().enumerate().all(|(i, k)| *k == i.to_string()));
            prop_assert!(ps.iter().all(|p| p.is_finite() && (0.0..=1.0).contains(p)));
            prop_assert!((ps.iter().sum::<f64>() - 1.0).abs() < 1e-9);
            let expected: f64 = ps.iter().enumerate().map(|(i, p)| i as f64 * p).sum();
            prop_assert_eq!(s, expected);
            prop_assert!((0.0..=(n - 1) as f64).contains(&s));
            prop_assert!((0.0..=1.0).contains(&confidence));
        }

        #[test]
        fn noul_invariant(p in prop_oneof![any::<f64>(), 0.0..=1.0f64]) {
            let q = Question { instructions: None, kind: QuestionKind::Noul { when_true: Value::Null, when_false: Value::Null } };
            let Answer::Noul { noul, .. } = Answer::from_distribution(&q, &Distribution::Noul(p)) else { panic!() };
            prop_assert!(noul.is_finite() && (0.0..=1.0).contains(&noul));
        }
    }
}
