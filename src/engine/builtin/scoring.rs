//! Similarities to probabilities.
//!
//! The temperatures were chosen on the labelled support set in `benches/data/` by a grid
//! search minimizing log loss of the zero-shot engine (see the README's "How the built-in
//! engine was calibrated"); alignment refits them per question.

use super::outcomes::{choice_texts, noul_sides, score_texts};
use crate::error::Result;
use crate::wire::answer::Distribution;
use crate::wire::{Question, QuestionKind};

/// Softmax temperature over option similarities.
pub const CHOICE_TEMPERATURE: f64 = 0.05;
/// Softmax temperature over level similarities.
pub const SCORE_TEMPERATURE: f64 = 0.05;
/// Logistic temperature over the true − false similarity gap.
pub const NOUL_TEMPERATURE: f64 = 0.05;

/// The distribution for `question`, given the similarity of any outcome text to the state.
pub fn distribution(
    question: &Question,
    similarity: &mut dyn FnMut(&str) -> Result<f64>,
) -> Result<Distribution> {
    Ok(match &question.kind {
        QuestionKind::Noul { .. } => match noul_sides(question) {
            Some((truthy, falsy)) => {
                let gap = similarity(&truthy)? - similarity(&falsy)?;
                Distribution::Noul(sigmoid(gap / NOUL_TEMPERATURE))
            }
            None => Distribution::Noul(0.5),
        },
        QuestionKind::Choice { options } => {
            let sims = choice_texts(options)
                .iter()
                .map(|t| similarity(t))
                .collect::<Result<Vec<_>>>()?;
            Distribution::Outcomes(softmax(&sims, CHOICE_TEMPERATURE))
        }
        QuestionKind::Score { levels } => {
            let sims = score_texts(levels)
                .iter()
                .map(|t| similarity(t))
                .collect::<Result<Vec<_>>>()?;
            Distribution::Outcomes(softmax(&sims, SCORE_TEMPERATURE))
        }
    })
}

/// Numerically stable softmax of `xs / temperature`.
pub fn softmax(xs: &[f64], temperature: f64) -> Vec<f64> {
    let max = xs.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let exps: Vec<f64> = xs.iter().map(|x| ((x - max) / temperature).exp()).collect();
    let total: f64 = exps.iter().sum();
    exps.into_iter().map(|e| e / total).collect()
}

pub fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn softmax_is_a_distribution_and_keeps_order() {
        let ps = softmax(&[0.2, 0.5, 0.1], 0.05);
        assert!((ps.iter().sum::<f64>() - 1.0).abs() < 1e-12);
        assert!(ps[1] > ps[0] && ps[0] > ps[2]);
        assert!(softmax(&[], 0.05).is_empty());
    }

    #[test]
    fn sigmoid_is_symmetric() {
        assert!((sigmoid(0.0) - 0.5).abs() < 1e-15);
        assert!((sigmoid(3.0) + sigmoid(-3.0) - 1.0).abs() < 1e-15);
    }
}
