//! The one rule that turns several annotators' answers to a question into its ground truth.
//! Every reader of annotations (eval, align, list, show, export) gets the answer it picks,
//! because the store applies it wherever it loads them.

use super::{Annotation, Vote};
use crate::wire::value::canonical_json;

/// The majority answer of `votes`, which must be oldest first: the answer most annotators
/// gave, answers being equal when their canonical JSON is (so `1` and `1.0` agree, and a
/// noul `0.7` differs from `0.8`); a tie goes to the answer given most recently. The
/// annotation carries that answer's latest vote (its reasoning, time and annotator) and
/// every vote. `None` for no votes.
pub(super) fn resolve(votes: Vec<Vote>) -> Option<Annotation> {
    // (canonical answer, votes for it, index of its latest vote)
    let mut groups: Vec<(String, usize, usize)> = Vec::new();
    for (index, vote) in votes.iter().enumerate() {
        let key = canonical_json(&vote.answer);
        match groups.iter_mut().find(|group| group.0 == key) {
            Some(group) => {
                group.1 += 1;
                group.2 = index;
            }
            None => groups.push((key, 1, index)),
        }
    }
    let (_, _, latest) = groups
        .into_iter()
        .max_by_key(|&(_, count, latest)| (count, latest))?;
    let chosen = votes.get(latest)?.clone();
    Some(Annotation {
        answer: chosen.answer,
        reasoning: chosen.reasoning,
        annotated_at: chosen.annotated_at,
        annotator: chosen.annotator,
        votes,
    })
}

#[cfg(test)]
mod tests {
    use serde_json::{Value, json};

    use super::*;

    fn votes(answers: &[(&str, Value)]) -> Vec<Vote> {
        answers
            .iter()
            .enumerate()
            .map(|(i, (annotator, answer))| Vote {
                annotator: (*annotator).to_owned(),
                answer: answer.clone(),
                reasoning: Some(format!("{annotator}'s reason")),
                annotated_at: format!("2026-01-01T00:00:0{i}.000Z").parse().unwrap(),
            })
            .collect()
    }

    fn winner(answers: &[(&str, Value)]) -> (Value, String) {
        let resolved = resolve(votes(answers)).expect("some votes");
        assert_eq!(resolved.votes.len(), answers.len(), "every vote is kept");
        (resolved.answer, resolved.annotator)
    }

    #[test]
    fn no_votes_no_annotation() {
        assert_eq!(resolve(Vec::new()), None);
    }

    #[test]
    fn one_vote_is_the_answer() {
        let resolved = resolve(votes(&[("ann", json!("refund"))])).unwrap();
        assert_eq!(resolved.answer, json!("refund"));
        assert_eq!(resolved.annotator, "ann");
        assert_eq!(resolved.reasoning.as_deref(), Some("ann's reason"));
        assert_eq!(
            resolved.annotated_at.to_string(),
            "2026-01-01T00:00:00.000Z"
        );
    }

    #[test]
    fn the_majority_wins_even_when_outvoted_latest() {
        let answers = [("a", json!(true)), ("b", json!(true)), ("c", json!(false))];
        // The majority's latest vote speaks for it.
        assert_eq!(winner(&answers), (json!(true), "b".to_owned()));
    }

    #[test]
    fn a_tie_goes_to_the_latest_answer() {
        let answers = [
            ("a", json!(1)),
            ("b", json!(2)),
            ("c", json!(2)),
            ("d", json!(1)),
        ];
        assert_eq!(winner(&answers), (json!(1), "d".to_owned()));
        let answers = [("a", json!("x")), ("b", json!("y"))];
        assert_eq!(winner(&answers), (json!("y"), "b".to_owned()));
    }

    #[test]
    fn equal_answers_are_equal_canonical_json() {
        // 2 and 2.0 are one score level; 0.7 and 0.8 are different noul probabilities.
        let answers = [("a", json!(2)), ("b", json!(2.0)), ("c", json!(3))];
        assert_eq!(winner(&answers).1, "b");
        let answers = [("a", json!(0.7)), ("b", json!(0.8)), ("c", json!(0.70))];
        assert_eq!(winner(&answers), (json!(0.7), "c".to_owned()));
    }
}
