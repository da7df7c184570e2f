//! Similarities to probabilities: a softmax of the outcome similarities over a temperature
//! for choice and score, the logistic of the true − false similarity gap over a temperature
//! for noul.
//!
//! # How the temperatures were chosen
//!
//! On `examples/support/labelled.jsonl` (600 synthetic support tickets, labelled for the
//! three questions of `examples/support/questions.yaml`), reading the first window (`mo`), by
//! `cargo bench --bench calibrate`. The tickets are split 50/50 by SHA-256 of `example_id`
//! (326 fit, 274 held out). Each temperature is the point of a 91-point log-spaced grid over
//! 0.002..2 with the lowest mean log loss on the fit half; the held-out half was used for
//! nothing but the figures below (log loss in nats, accuracy, 10-bin ECE; reference: the
//! fit half's label frequencies score 1.799 / 1.547 / 0.611 held-out log loss for intent /
//! urgency / escalate, uniform 1.792 / 1.609 / 0.693).
//!
//! The engine renders outcomes differently depending on what a question states
//! ([`super::outcomes`]), and the similarity spreads differ by an order of magnitude
//! between those renderings, so each rendering has its own temperature, fitted on the
//! labelled question put in that form. One question per type was labelled: these are
//! zero-shot figures on one synthetic domain, and weak ones. No form of escalate beats the
//! label frequencies (0.611), and urgency beats them only when framed (1.533 vs 1.547).
//! A noul with instructions and only a false criterion reads as unframed.
//!
//! The placeholder before calibration was 0.05 everywhere.

use super::outcomes::{framed_by_instructions, noul_is_negated, outcome_texts};
use crate::error::Result;
use crate::wire::answer::Distribution;
use crate::wire::{Question, QuestionKind};

/// Softmax temperature over option similarities. Held out (intent), options read as their
/// descriptions without the clauses that exclude: log loss 1.138, accuracy 0.588, ECE 0.060
/// (refitted on that reading: the same 0.0542). As `key: description`, before keys stopped
/// counting: 1.048, 0.620, 0.085 (at 0.05: 1.045, 0.620, 0.066).
pub const CHOICE_TEMPERATURE: f64 = 0.0542;
/// Softmax temperature over level similarities when the levels are framed by the
/// instructions. Held out (urgency): log loss 1.533, accuracy 0.307, ECE 0.042, Spearman
/// 0.48 (before, unframed at 0.05: 2.326, 0.223, 0.379, 0.36).
pub const SCORE_TEMPERATURE: f64 = 0.0542;
/// Softmax temperature over level similarities without instructions. Nearly flat: fitted on
/// urgency without its instructions, where the levels carry little signal. Held out: log
/// loss 1.605, accuracy 0.223, ECE 0.014 (at 0.05: 2.326, 0.223, 0.379).
pub const UNFRAMED_SCORE_TEMPERATURE: f64 = 0.542;
/// Logistic temperature over the true − false gap, both sides stated and framed by the
/// instructions. Held out (escalate): log loss 0.640, accuracy 0.635, ECE 0.029, ROC AUC
/// 0.60 (before, unframed at 0.05: 0.786, 0.500, 0.174, 0.59).
pub const NOUL_TEMPERATURE: f64 = 0.0431;
/// Logistic temperature over the true − false gap, both sides stated, no instructions.
/// Nearly flat: fitted on escalate without its instructions, where every gap leans true.
/// Held out: log loss 0.693, accuracy 0.500, ECE 0.023 (at 0.05: 0.786, 0.500, 0.174).
pub const UNFRAMED_NOUL_TEMPERATURE: f64 = 0.431;
/// Logistic temperature over the gap between a statement and its generated negation (one
/// side stated). Fitted on three one-sided forms of escalate pooled (instructions + true
/// criterion, true criterion only, instructions only). Held out: log loss 0.623 / 0.623 /
/// 0.649, accuracy 0.690 / 0.690 / 0.664, ROC AUC 0.54 / 0.54 / 0.44 (at 0.05: log loss
/// 0.618 / 0.618 / 0.671). The accuracy is mostly the 70 % base rate of false, not signal.
pub const NEGATED_NOUL_TEMPERATURE: f64 = 0.0683;

/// The temperature the engine uses for `question`, by how its outcomes are rendered.
pub fn temperature(question: &Question) -> f64 {
    let framed = framed_by_instructions(question);
    match &question.kind {
        QuestionKind::Noul { .. } if noul_is_negated(question) => NEGATED_NOUL_TEMPERATURE,
        QuestionKind::Noul { .. } if framed => NOUL_TEMPERATURE,
        QuestionKind::Noul { .. } => UNFRAMED_NOUL_TEMPERATURE,
        QuestionKind::Choice { .. } => CHOICE_TEMPERATURE,
        QuestionKind::Score { .. } if framed => SCORE_TEMPERATURE,
        QuestionKind::Score { .. } => UNFRAMED_SCORE_TEMPERATURE,
    }
}

/// The distribution for `question`, given the similarity of any outcome text to the state.
pub fn distribution(
    question: &Question,
    similarity: &mut dyn FnMut(&str) -> Result<f64>,
) -> Result<Distribution> {
    let sims = outcome_texts(question)
        .iter()
        .map(|t| similarity(t))
        .collect::<Result<Vec<_>>>()?;
    Ok(from_similarities(question, &sims))
}

/// The distribution for `question` from the similarities of its outcome texts
/// ([`outcome_texts`] order), at the engine's temperature for its type.
pub fn from_similarities(question: &Question, sims: &[f64]) -> Distribution {
    at_temperature(&question.kind, sims, temperature(question))
}

/// The distribution from outcome similarities at any `temperature`: the logistic of
/// `(s_true − s_false) / temperature` for a noul (0.5 unless there are exactly two sides),
/// the softmax of `sims / temperature` otherwise (empty, hence uniform once normalized,
/// when there are no similarities).
pub fn at_temperature(kind: &QuestionKind, sims: &[f64], temperature: f64) -> Distribution {
    match kind {
        QuestionKind::Noul { .. } => match sims {
            [truthy, falsy] => Distribution::Noul(sigmoid((truthy - falsy) / temperature)),
            _ => Distribution::Noul(0.5),
        },
        QuestionKind::Choice { .. } | QuestionKind::Score { .. } => {
            Distribution::Outcomes(softmax(sims, temperature))
        }
    }
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

    // Exact on purpose: each rendering returns one of the constants unchanged.
    #[allow(clippy::float_cmp)]
    #[test]
    fn each_rendering_has_its_temperature() {
        use serde_json::{Value, json};
        let q = |instructions: Option<Value>, kind: QuestionKind| Question { instructions, kind };
        let noul = |t: Value, f: Value| QuestionKind::Noul {
            when_true: t,
            when_false: f,
        };
        let levels = QuestionKind::Score {
            levels: vec![json!("low"), json!("high")],
        };
        let i = || Some(json!("Is it?"));
        assert_eq!(temperature(&q(i(), levels.clone())), SCORE_TEMPERATURE);
        assert_eq!(temperature(&q(None, levels)), UNFRAMED_SCORE_TEMPERATURE);
        let both = || noul(json!("yes"), json!("no"));
        assert_eq!(temperature(&q(i(), both())), NOUL_TEMPERATURE);
        assert_eq!(temperature(&q(None, both())), UNFRAMED_NOUL_TEMPERATURE);
        let one = noul(Value::Null, Value::Null);
        assert_eq!(temperature(&q(i(), one)), NEGATED_NOUL_TEMPERATURE);
        let choice = QuestionKind::Choice { options: vec![] };
        assert_eq!(temperature(&q(i(), choice)), CHOICE_TEMPERATURE);
    }

    #[test]
    fn noul_is_the_logistic_of_the_gap() {
        let kind = QuestionKind::Noul {
            when_true: serde_json::Value::Null,
            when_false: serde_json::Value::Null,
        };
        assert_eq!(
            at_temperature(&kind, &[0.4, 0.3], 0.05),
            Distribution::Noul(sigmoid((0.4 - 0.3) / 0.05))
        );
        assert_eq!(at_temperature(&kind, &[], 0.05), Distribution::Noul(0.5));
    }
}
