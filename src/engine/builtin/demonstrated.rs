//! How the built-in engine reads a question's demonstrations
//! ([`crate::wire::question::demonstrations`]): the answer it reads otherwise leans to each
//! outcome by how much nearer the state is to that outcome's nearest demonstration than to
//! the demonstrations' outcomes on average, on the scale of the engine's own similarities
//! (a log-probability of `(nearest − mean) / CHOICE_TEMPERATURE`). A state like a
//! demonstration of `refund` leans to `refund`; an outcome without a demonstration is
//! left where it was. The rule has nothing fitted: which demonstrations a question carries
//! is what `align --instructions` chooses, by what this rule scores on the annotated
//! examples they leave out.

use super::BuiltinEngine;
use super::EmbeddedState;
use super::aligned::{answer_outcome, exemplar_text, outcome_keys};
use super::scoring::CHOICE_TEMPERATURE;
use crate::error::Result;
use crate::wire::Question;
use crate::wire::answer::Distribution;

impl BuiltinEngine {
    /// `distribution` leaned by the question's demonstrations, with the tokens their texts
    /// took to embed (once each: they are cached).
    pub(super) fn demonstrated(
        &self,
        state: &EmbeddedState,
        question: &Question,
        distribution: Distribution,
    ) -> Result<(Distribution, u64)> {
        let demonstrations = question.demonstrations();
        if demonstrations.is_empty() || state.windows.is_empty() {
            return Ok((distribution, 0));
        }
        let outcomes = outcome_keys(&question.kind).len();
        let mut nearest: Vec<Option<f64>> = vec![None; outcomes];
        let mut tokens = 0;
        for demonstration in &demonstrations {
            let Some(outcome) = answer_outcome(&question.kind, &demonstration.answer) else {
                continue;
            };
            let text = match (&demonstration.excerpt, &demonstration.state) {
                (Some(excerpt), _) => excerpt.clone(),
                (None, Some(state)) => exemplar_text(state),
                (None, None) => continue,
            };
            let Some(embedding) = self.embedder().embed_document_cached(&text)? else {
                continue;
            };
            tokens += embedding.tokens;
            let similarity = super::combine(&state.windows, &embedding.vector);
            if let Some(slot) = nearest.get_mut(outcome) {
                *slot = Some(slot.map_or(similarity, |s: f64| s.max(similarity)));
            }
        }
        let present: Vec<f64> = nearest.iter().flatten().copied().collect();
        if present.is_empty() {
            return Ok((distribution, tokens));
        }
        let mean = present.iter().sum::<f64>() / present.len() as f64;
        let ps = match &distribution {
            Distribution::Noul(p) => vec![*p, 1.0 - p],
            Distribution::Outcomes(ps) => ps.clone(),
        };
        let logits: Vec<f64> = ps
            .iter()
            .zip(&nearest)
            .map(|(p, near)| {
                p.max(1e-9).ln() + near.map_or(0.0, |n| (n - mean) / CHOICE_TEMPERATURE)
            })
            .collect();
        let top = logits.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let exp: Vec<f64> = logits.iter().map(|l| (l - top).exp()).collect();
        let sum: f64 = exp.iter().sum();
        let leaned: Vec<f64> = exp.iter().map(|e| e / sum).collect();
        Ok((
            super::answer::distribution_of(&question.kind, leaned),
            tokens,
        ))
    }
}
