//! How a learned head answers: over this engine's features of the state, with its prior
//! the built-in engine's zero-shot answer, or a remote engine's answer
//! ([`crate::engine::headed`]) when the head was fitted over that engine's answers.

use super::answer::{Read, distribution_of};
use super::learned::{Heads, Learned};
use super::{BuiltinEngine, EmbeddedState, aligned};
use crate::error::Result;
use crate::wire::answer::Distribution;
use crate::wire::{Answer, Answers, Question, Questions};
use serde_json::Value;
use std::sync::atomic::AtomicBool;

impl BuiltinEngine {
    /// The distribution of a question with a learned head ([`learned`]): its
    /// zero-shot answer (the question as it is without the head) is the head's prior.
    pub(super) fn distribution_learned(
        &self,
        state: &EmbeddedState,
        question: &Question,
        learned: &Learned,
    ) -> Result<(Distribution, u64)> {
        if learned.encoder != self.head_encoder() {
            return Err(crate::error::Error::Validation(vec![
                crate::wire::validate::FieldError::new(
                    crate::wire::Loc(vec![crate::wire::validate::Segment::Key(format!(
                        "{}/{}",
                        super::learned::file::DIR,
                        super::learned::file::MANIFEST
                    ))])
                    .key("encoder"),
                    format!(
                        "the head of `{}` reads the embeddings of `{}`; this base model's \
                         encoder is `{}`: align the question again on this base model",
                        learned.question,
                        learned.encoder,
                        self.head_encoder()
                    ),
                    "encoder_mismatch",
                ),
            ]));
        }
        if let Some(engine) = &learned.entry.prior {
            return Err(prior_mismatch(learned, engine, "the built-in engine"));
        }
        let (prior, tokens) = self.zero_shot(state, question)?;
        Ok((Self::apply_head(state, question, learned, &prior)?, tokens))
    }

    /// A learned head's distribution over `prior` (one probability per outcome).
    pub(super) fn apply_head(
        state: &EmbeddedState,
        question: &Question,
        learned: &Learned,
        prior: &[f64],
    ) -> Result<Distribution> {
        let pooled = match (&learned.tuned, &state.tuned) {
            (None, _) => state.pooled(),
            (Some(_), Some(tuned)) => tuned.to_vec(),
            // A blank state has no window to tune: its head reads what it reads untuned.
            (Some(_), None) if state.is_blank() => state.pooled(),
            (Some(_), None) => {
                return Err(crate::error::Error::bug(
                    "a tuned head was given a state embedded without its encoder",
                ));
            }
        };
        let ps = learned.head.probabilities(&super::learned::Reading {
            pooled: &pooled,
            counts: state.words(),
            prior,
        });
        Ok(distribution_of(&question.kind, ps))
    }

    /// Apply `heads` over a remote engine's `answers` (those of `engine`, its name in
    /// `config.yaml`): each question with a head is answered by it, the remote answer its
    /// prior; the others keep the remote answer. The state is embedded once, as a decision
    /// of this engine reads it. Returns the tokens read.
    pub fn apply_heads(
        &self,
        engine: &str,
        state: &Value,
        questions: &Questions,
        heads: &Heads,
        answers: &mut Answers,
    ) -> Result<u64> {
        let read = Read {
            model: "",
            truncate: true,
            stop: &AtomicBool::new(false),
            progress: None,
        };
        let embedded = self.embed_state_as(state, &read)?;
        for (id, question) in questions {
            let (Some(learned), Some(answer)) = (heads.get(id), answers.get_mut(id)) else {
                continue;
            };
            match &learned.entry.prior {
                Some(fitted) if fitted == engine => {}
                Some(fitted) => {
                    return Err(prior_mismatch(learned, fitted, &format!("`{engine}`")));
                }
                None => {
                    return Err(prior_mismatch(
                        learned,
                        "the built-in engine",
                        &format!("`{engine}`"),
                    ));
                }
            }
            if learned.tuned.is_some() {
                return Err(crate::error::Error::bug(
                    "a head over a remote engine's answers reads a fine-tuned encoder",
                ));
            }
            let outcomes = aligned::outcome_keys(&question.kind).len();
            let prior = answer.outcome_probabilities(outcomes);
            let distribution = Self::apply_head(&embedded, question, learned, &prior)?;
            *answer = Answer::from_distribution(question, &distribution);
        }
        Ok(embedded.tokens)
    }
}

/// A head applied over another engine's answers than those it was fitted on: located in
/// the manifest, with what to do.
pub(super) fn prior_mismatch(learned: &Learned, fitted: &str, asked: &str) -> crate::error::Error {
    let fitted = if fitted.starts_with("the ") {
        fitted.to_owned()
    } else {
        format!("engine `{fitted}`")
    };
    crate::error::Error::Validation(vec![crate::wire::validate::FieldError::new(
        crate::wire::Loc(vec![crate::wire::validate::Segment::Key(format!(
            "{}/{}",
            super::learned::file::DIR,
            super::learned::file::MANIFEST
        ))])
        .key("questions")
        .key(&learned.question)
        .key("prior"),
        format!(
            "the head of `{}` was fitted over the answers of {fitted}; this base model is \
             answered by {asked}: route it back, or align the question again",
            learned.question
        ),
        "engine_mismatch",
    )])
}
