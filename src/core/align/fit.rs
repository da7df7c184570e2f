//! The head a question keeps, as a checkpoint keeps it: its tensors and manifest entry,
//! with how it was chosen and what it was fitted on; and its abstain rule.

#[allow(clippy::wildcard_imports)]
use super::*;
use crate::engine::builtin::learned::{Head, Penalty, Prior};
use crate::wire::QuestionKind;
use question::describe_scores;
use select::{Candidate, Selection};

/// The head kept (the learned one, or the majority prior as a head), with how it was
/// chosen and what it was fitted on.
pub(super) struct Fit<'a> {
    pub(super) head: Head,
    pub(super) selection: select::Selection,
    /// The fitted examples, as indices into `ids`.
    pub(super) fitted: Vec<usize>,
    pub(super) ids: Vec<&'a str>,
    /// Whether the head reads the fine-tuned encoder.
    pub(super) tuned: bool,
}

impl Fit<'_> {
    /// The head as the checkpoint keeps it (tensors and manifest entry, each fitted
    /// example's out-of-fold answer), and what `report` says of it.
    pub(super) fn learned(
        self,
        id: &str,
        kind: &QuestionKind,
        settings: &Settings,
        after: &[Scored],
        report: &mut QuestionReport,
    ) -> Learned {
        let Self {
            head,
            selection,
            fitted,
            ids,
            tuned,
        } = self;
        let cv = &selection.cv;
        report.improved = true;
        let (what, penalty) = described(&selection, &head, tuned, fitted.len());
        report.candidate = Some(format!(
            "{what}; out of fold over {} folds: {}",
            cv.folds,
            describe_scores(&selection.scores)
        ));
        let out_of_fold: IndexMap<String, crate::engine::builtin::learned::file::Fitted> = fitted
            .iter()
            .zip(cv.fold_of.iter().zip(&selection.out_of_fold))
            .map(|(&i, (&fold, answer))| {
                let fitted = crate::engine::builtin::learned::file::Fitted {
                    fold,
                    answer: answer.clone(),
                };
                (ids[i].to_owned(), fitted)
            })
            .collect();
        let tensors = crate::engine::builtin::learned::file::tensors(&head);
        let entry = crate::engine::builtin::learned::file::entry(
            id,
            &head,
            outcome_keys(kind),
            penalty,
            (settings.seed, cv.folds),
            abstain_rule(after),
            out_of_fold,
            &tensors,
        );
        let mut features = entry.features.clone();
        if tuned && selection.chosen == Candidate::Head {
            crate::engine::builtin::learned::file::POOLED_TUNED.clone_into(&mut features.embedding);
        }
        let entry = crate::engine::builtin::learned::file::Entry {
            features,
            curve: report.curve.as_ref().map(|curve| curve.points.clone()),
            chosen: report.chosen.clone(),
            candidates: report.candidates.clone(),
            prior: settings.remote.clone(),
            ..entry
        };
        let mut fitted_ids: Vec<ExampleId> = fitted.iter().map(|&i| ids[i].into()).collect();
        fitted_ids.sort();
        Learned {
            file: None,
            head: Some(LearnedHead { tensors, entry }),
            fit_id: Some(fit_id(id, &fitted_ids)),
            fitted: fitted_ids,
            documents: Vec::new(),
            instructions: None,
        }
    }
}

/// The error rate an aligned question's abstain threshold is chosen for.
pub(super) const ABSTAIN_TARGET: f64 = 0.05;

/// The abstain rule of an aligned question: the threshold under which its held-out error is
/// at most [`ABSTAIN_TARGET`] with 95% confidence ([`metrics::bounded_coverage`]); none when
/// the held-out examples are too few, or too often wrong, to show that.
pub(super) fn abstain_rule(held_out: &[Scored]) -> Option<format::Abstain> {
    let at = metrics::bounded_coverage(held_out, ABSTAIN_TARGET);
    Some(format::Abstain {
        // Down, so the examples the threshold kept are kept by the rounded one too.
        below: (at.threshold? * 1e6).floor() / 1e6,
        target_error: Some(ABSTAIN_TARGET),
        coverage: Some(round(at.coverage)),
    })
}

/// What `learned` says a chosen head is, and the penalty the manifest records for it.
fn described(selection: &Selection, head: &Head, tuned: bool, fitted: usize) -> (String, Penalty) {
    match selection.chosen {
        Candidate::Majority => (
            format!(
                "the majority prior (the {fitted} annotated answers' frequencies, whatever the \
                 state)"
            ),
            Penalty {
                embedding: 0.0,
                words: 0.0,
            },
        ),
        _ => (
            format!(
                "{} head over the {}pooled embedding and word 1-2-grams{} (penalty {} on \
                 words, {} on the embedding)",
                head.link.name(),
                if tuned { "fine-tuned encoder's " } else { "" },
                without_zero_shot(selection.cv.prior),
                round(selection.cv.penalty.words),
                round(selection.cv.penalty.embedding),
            ),
            selection.cv.penalty,
        ),
    }
}

/// What a head's description adds for its prior.
fn without_zero_shot(prior: Prior) -> &'static str {
    match prior {
        Prior::ZeroShot => "",
        Prior::None => ", without zero-shot",
    }
}
