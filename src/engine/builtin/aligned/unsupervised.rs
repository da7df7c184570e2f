//! The unsupervised correction ("calibrate before use"): each outcome's average pull over a
//! model's own captured states, estimated without annotations and removed.
//!
//! A zero-shot answer is the softmax of the outcome similarities over a temperature
//! ([`crate::engine::builtin::scoring`]). Some outcome texts are closer to any state than
//! others (a broad option such as "a question about an invoice, charge or plan", a middle
//! level of a rubric), and win more often than they should. Over many states of the domain
//! the model answers, that pull is each outcome's mean similarity; the corrected answer is
//! the softmax of `(similarity − mean) / temperature`. That is an aligned question's
//! calibration with the `similarity` weight `1 / temperature` and the bias `−mean /
//! temperature`, so the engine reads it as it reads any alignment, and nothing else changes.
//!
//! Measured by `cargo bench --bench quality` (`QUALITY_UNSUPERVISED=1`), which estimates the
//! pull on each set's states without their labels and answers them.
//!
//! A noul is left as it is: the mean gap between its true and false sides mixes the pull
//! with how often the statement holds, which only annotations tell apart. Removing it would
//! move every noul to "true half the time".

use super::format::{Calibration, VERSION};
use crate::engine::builtin::scoring;
use crate::wire::{Question, QuestionKind};
use indexmap::IndexMap;

/// The method name an unsupervised alignment records.
pub const METHOD: &str = "unsupervised";

/// Why a question gets no unsupervised correction, for people.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NotCorrected {
    /// A noul: see the module's documentation.
    Noul,
    /// Fewer states with something to read than `needed`.
    TooFewStates { states: usize, needed: usize },
}

impl std::fmt::Display for NotCorrected {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Noul => f.write_str(
                "a noul's pull cannot be told from how often it holds without annotations; \
                 left as it was",
            ),
            Self::TooFewStates { states, needed } => write!(
                f,
                "too few captured states with text to estimate the pull ({states} < {needed})"
            ),
        }
    }
}

/// The correction of `question` (zero-shot, not aligned) from the outcome similarities of
/// each captured state (in [`crate::engine::builtin::outcomes::outcome_texts`] order; a
/// state with nothing to read has none and is not counted), with at least `needed` states.
pub fn correction(
    question: &Question,
    similarities: &[Vec<f64>],
    needed: usize,
) -> Result<Calibration, NotCorrected> {
    if matches!(question.kind, QuestionKind::Noul { .. }) {
        return Err(NotCorrected::Noul);
    }
    let keys = super::outcome_keys(&question.kind);
    let read: Vec<&Vec<f64>> = similarities
        .iter()
        .filter(|sims| sims.len() == keys.len())
        .collect();
    if read.len() < needed.max(1) {
        return Err(NotCorrected::TooFewStates {
            states: read.len(),
            needed: needed.max(1),
        });
    }
    let temperature = scoring::temperature(question);
    let count = read.len() as f64;
    let bias = keys
        .iter()
        .enumerate()
        .map(|(c, key)| {
            let mean = read.iter().map(|sims| sims[c]).sum::<f64>() / count;
            (key.clone(), -mean / temperature)
        })
        .collect();
    Ok(Calibration {
        version: VERSION,
        method: Some(METHOD.to_owned()),
        seed: None,
        weights: IndexMap::from([("similarity".to_owned(), 1.0 / temperature)]),
        bias,
        fitted: None,
        abstain: None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::builtin::aligned::{FEATURES, probabilities};
    use serde_json::json;

    fn choice() -> Question {
        Question {
            instructions: Some(json!("Which?")),
            kind: QuestionKind::Choice {
                options: vec![("a".into(), json!("A")), ("b".into(), json!("B"))],
            },
        }
    }

    fn features(sims: &[f64]) -> Vec<[f64; FEATURES]> {
        sims.iter()
            .map(|s| {
                let mut f = [0.0; FEATURES];
                f[0] = *s;
                f
            })
            .collect()
    }

    #[test]
    fn the_pull_is_removed_and_the_rest_is_the_zero_shot_answer() {
        // Option a is 0.1 closer to every state: zero-shot, it wins all three.
        let sims = vec![vec![0.5, 0.3], vec![0.45, 0.4], vec![0.4, 0.35]];
        let calibration = correction(&choice(), &sims, 3).unwrap();
        assert_eq!(calibration.method.as_deref(), Some(METHOD));
        let t = scoring::temperature(&choice());
        let mut weights = [0.0; FEATURES];
        weights[0] = calibration.weights["similarity"];
        let bias: Vec<f64> = calibration.bias.values().copied().collect();
        // The mean pull of a is 0.45, of b 0.35: a state at exactly the means is even.
        let even = probabilities(&weights, &bias, &features(&[0.45, 0.35]));
        assert!((even[0] - 0.5).abs() < 1e-12, "{even:?}");
        // Otherwise it is the zero-shot softmax of the corrected similarities.
        let p = probabilities(&weights, &bias, &features(&sims[1]));
        let zero_shot = scoring::softmax(&[0.45 - 0.45, 0.4 - 0.35], t);
        assert!((p[1] - zero_shot[1]).abs() < 1e-12);
        assert!(
            p[1] > 0.5,
            "b wins the state where it is above its mean: {p:?}"
        );
    }

    #[test]
    fn blank_states_do_not_count_and_too_few_are_refused() {
        let sims = vec![vec![0.5, 0.3], vec![], vec![0.4, 0.35]];
        assert_eq!(
            correction(&choice(), &sims, 3),
            Err(NotCorrected::TooFewStates {
                states: 2,
                needed: 3
            })
        );
        let calibration = correction(&choice(), &sims, 2).unwrap();
        let t = scoring::temperature(&choice());
        assert!((calibration.bias["a"] + 0.45 / t).abs() < 1e-12);
    }

    #[test]
    fn a_noul_is_left_as_it_was() {
        let noul = Question {
            instructions: Some(json!("It holds.")),
            kind: QuestionKind::Noul {
                when_true: serde_json::Value::Null,
                when_false: serde_json::Value::Null,
            },
        };
        let sims = vec![vec![0.5, 0.3]; 20];
        assert_eq!(correction(&noul, &sims, 10), Err(NotCorrected::Noul));
    }
}
