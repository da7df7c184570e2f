//! How far a model's annotators agree (`examples agreement`): per question at the default
//! branch, from every annotator's answer as stored. Answers are equal when their canonical
//! JSON is, as in the majority rule; the arithmetic is [`super::kappa`]'s.

use super::Context;
use super::kappa::{self, Agreement};
use super::models;
use crate::error::{Error, Result};
use crate::ids::ModelRef;
use crate::store::ExampleFilter;
use crate::wire::Loc;
use crate::wire::agreement::{AgreementReport, AnnotatorCount, KappaMethod, QuestionAgreement};
use crate::wire::value::canonical_json;
use indexmap::IndexMap;
use std::collections::{BTreeMap, BTreeSet};

/// One example's answers to one question: (annotator, canonical answer), one per annotator.
type Ratings = Vec<(String, String)>;

/// The agreement of the annotators of `question` (else of every question at the default
/// branch) of `model`.
pub fn agreement(
    ctx: &Context,
    model: &ModelRef,
    question: Option<&str>,
) -> Result<AgreementReport> {
    let loaded = models::load(ctx, model, None)?;
    let ids: Vec<String> = match question {
        Some(id) if loaded.questions.contains_key(id) => vec![id.to_owned()],
        Some(id) => {
            return Err(Error::invalid(
                Loc::query().key("question"),
                format!(
                    "{} has no question `{id}` at {}",
                    loaded.path, loaded.revision.name
                ),
                "unknown_question",
            ));
        }
        None => loaded.questions.keys().cloned().collect(),
    };
    let mut ratings: IndexMap<String, Vec<Ratings>> =
        ids.into_iter().map(|id| (id, Vec::new())).collect();
    let filter = ExampleFilter {
        annotated: Some(true),
        question: question.map(str::to_owned),
        ..Default::default()
    };
    ctx.store()?
        .for_each_example(&loaded.model_id, &filter, &mut |example| {
            for (id, examples) in &mut ratings {
                if let Some(annotation) = example.annotations.get(id) {
                    let votes = &annotation.votes;
                    examples.push(
                        votes
                            .iter()
                            .map(|v| (v.annotator.clone(), canonical_json(&v.answer)))
                            .collect(),
                    );
                }
            }
            Ok(())
        })?;
    Ok(AgreementReport {
        model: loaded.path.to_string(),
        questions: ratings
            .into_iter()
            .map(|(id, examples)| (id, of_question(&examples)))
            .collect(),
    })
}

/// The figures of one question from its examples' ratings.
fn of_question(examples: &[Ratings]) -> QuestionAgreement {
    let mut counts: BTreeMap<&str, u64> = BTreeMap::new();
    for example in examples {
        for (annotator, _) in example {
            *counts.entry(annotator).or_default() += 1;
        }
    }
    let mut annotators: Vec<AnnotatorCount> = counts
        .into_iter()
        .map(|(annotator, examples)| AnnotatorCount {
            annotator: annotator.to_owned(),
            examples,
        })
        .collect();
    annotators.sort_by_key(|a| std::cmp::Reverse(a.examples));
    let shared: Vec<&Ratings> = examples.iter().filter(|e| e.len() >= 2).collect();
    let raters: BTreeSet<&str> = shared
        .iter()
        .flat_map(|e| e.iter().map(|(annotator, _)| annotator.as_str()))
        .collect();
    let (method, agreement) = match raters.len() {
        0 | 1 => (None, None),
        2 => (Some(KappaMethod::Cohen), cohen(&shared, &raters)),
        _ => {
            let labels: Vec<Vec<&str>> = shared
                .iter()
                .map(|e| e.iter().map(|(_, answer)| answer.as_str()).collect())
                .collect();
            (Some(KappaMethod::Fleiss), kappa::fleiss(&labels))
        }
    };
    let reason = match (annotators.as_slice(), agreement) {
        ([], _) => Some("no annotations".to_owned()),
        ([only], _) => Some(format!(
            "one annotator ({}): agreement needs two",
            only.annotator
        )),
        (_, None) => Some("no example was annotated by two annotators or more".to_owned()),
        (_, Some(Agreement { kappa: None, .. })) => Some(
            "every answer on the shared examples is the same, so chance agreement is 1 and \
             kappa is undefined"
                .to_owned(),
        ),
        (_, Some(_)) => None,
    };
    QuestionAgreement {
        annotators,
        examples: examples.len() as u64,
        shared_examples: shared.len() as u64,
        method,
        observed_agreement: agreement.map(|a| a.observed),
        expected_agreement: agreement.map(|a| a.expected),
        kappa: agreement.and_then(|a| a.kappa),
        reason,
    }
}

/// Cohen's kappa of the two `raters` over the shared examples, each of which both answered
/// (an annotator answers an example once, and only these two answered shared examples).
fn cohen(shared: &[&Ratings], raters: &BTreeSet<&str>) -> Option<Agreement> {
    let first = raters.first()?;
    let pairs: Vec<(&str, &str)> = shared
        .iter()
        .filter_map(|example| {
            let of = |wanted: bool| {
                example
                    .iter()
                    .find(|(annotator, _)| (annotator == first) == wanted)
                    .map(|(_, answer)| answer.as_str())
            };
            Some((of(true)?, of(false)?))
        })
        .collect();
    kappa::cohen(&pairs)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn example(ratings: &[(&str, &str)]) -> Ratings {
        ratings
            .iter()
            .map(|(a, r)| ((*a).to_owned(), (*r).to_owned()))
            .collect()
    }

    #[test]
    fn two_annotators_get_cohen() {
        let examples = [
            example(&[("ann", "true"), ("bob", "true")]),
            example(&[("ann", "false"), ("bob", "false")]),
            example(&[("ann", "true"), ("bob", "false")]),
            example(&[("bob", "true")]),
        ];
        let got = of_question(&examples);
        assert_eq!(got.method, Some(KappaMethod::Cohen));
        assert_eq!((got.examples, got.shared_examples), (4, 3));
        // ann: 2 true 1 false; bob: 1 true 2 false on the shared; chance = 2/9 + 2/9.
        let expected = 4.0 / 9.0;
        assert!((got.expected_agreement.unwrap() - expected).abs() < 1e-12);
        let kappa = (2.0 / 3.0 - expected) / (1.0 - expected);
        assert!((got.kappa.unwrap() - kappa).abs() < 1e-12, "{got:?}");
        assert_eq!(got.reason, None);
        let names: Vec<(&str, u64)> = got
            .annotators
            .iter()
            .map(|a| (a.annotator.as_str(), a.examples))
            .collect();
        assert_eq!(names, [("bob", 4), ("ann", 3)]);
    }

    #[test]
    fn three_annotators_get_fleiss() {
        let examples = [
            example(&[("a", "1"), ("b", "1"), ("c", "1")]),
            example(&[("a", "1"), ("c", "2")]),
            example(&[("b", "2"), ("c", "2")]),
        ];
        let got = of_question(&examples);
        assert_eq!(got.method, Some(KappaMethod::Fleiss));
        assert!((got.kappa.unwrap() - 23.0 / 72.0).abs() < 1e-12, "{got:?}");
    }

    #[test]
    fn no_kappa_says_why() {
        let none = of_question(&[]);
        assert_eq!((none.method, none.kappa), (None, None));
        assert_eq!(none.reason.as_deref(), Some("no annotations"));
        let one = of_question(&[example(&[("ann", "1")]), example(&[("ann", "2")])]);
        assert!(one.reason.unwrap().contains("one annotator (ann)"));
        let apart = of_question(&[example(&[("ann", "1")]), example(&[("bob", "2")])]);
        assert_eq!(apart.observed_agreement, None);
        assert!(apart.reason.unwrap().contains("no example"));
        let flat = of_question(&[example(&[("ann", "1"), ("bob", "1")])]);
        assert_eq!(flat.method, Some(KappaMethod::Cohen));
        assert_eq!((flat.observed_agreement, flat.kappa), (Some(1.0), None));
        assert!(flat.reason.unwrap().contains("undefined"));
    }
}
