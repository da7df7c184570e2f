//! Choosing what a question answers with, by how it is expected to do on fresh states.
//!
//! The candidates: zero-shot (the engine's answer, nothing fitted), the majority prior (the
//! annotated answers' frequencies, whatever the state) and the learned head (its family
//! and strength chosen by [`cross_validation::cross_validate`]). Each is scored out of fold on the
//! same examples, and the best is kept: the lowest log loss, then the highest accuracy, a
//! tie to the simpler candidate. No candidate is refused for its gain being within noise:
//! with 8 labels a question changes when the 8 say so, and the interval is reported
//! beside it, not used as a veto (`--margin` puts a veto back for a cautious user).
//!
//! Choosing on the figures it reports would flatter the choice, most at a few examples. So
//! below [`cross_validation::NESTED_BELOW`] examples the figure is that of the whole procedure, nested:
//! each fold is answered by the candidate chosen on the other folds alone (the head's
//! strength chosen there too), so that no example's answer was chosen with it. The head's
//! own figure, which the choice compares, is nested the same way.

use super::cross_validation::{self, CrossValidated, Problem};
use crate::engine::builtin::learned::{Head, Link, Prior};
use crate::wire::align::CurvePoint;

/// What a question may answer with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Candidate {
    ZeroShot,
    Majority,
    Head,
}

impl Candidate {
    /// As reports and the manifest name it.
    pub(super) fn name(self) -> &'static str {
        match self {
            Self::ZeroShot => "zero_shot",
            Self::Majority => "majority",
            Self::Head => "head",
        }
    }

    /// Simplest first: the order ties are broken in.
    const ALL: [Self; 3] = [Self::ZeroShot, Self::Majority, Self::Head];
}

/// Each candidate's out-of-fold figures, in [`Candidate::ALL`]'s order.
pub(super) type Scores = [(Candidate, CurvePoint); 3];

/// What the choice found for one question.
pub(super) struct Selection {
    pub(super) chosen: Candidate,
    /// The head's cross-validation: its family and strength, the folds; its `out_of_fold`
    /// are the head's own answers (nested below [`cross_validation::NESTED_BELOW`]).
    pub(super) cv: CrossValidated,
    pub(super) scores: Scores,
    /// Each example's answer from the whole procedure, out of fold.
    pub(super) out_of_fold: Vec<Vec<f64>>,
}

/// Choose among the candidates for the examples `subset` (indices into `problem`) with
/// `k` folds. `cancelled` is looked at between folds.
pub(super) fn select(
    problem: &Problem<'_>,
    subset: &[usize],
    k: usize,
    seed: u64,
    cancelled: &dyn Fn() -> bool,
) -> Selection {
    let tried = cross_validation::priors_for(subset.len());
    let mut cv = cross_validation::cross_validate(problem, subset, tried, k, seed, cancelled);
    let zero = priors(problem, subset);
    let majority = cross_validation::majority_out_of_fold(problem, subset, &cv.fold_of, cv.folds);
    let nested = if subset.len() < cross_validation::NESTED_BELOW {
        let (head, procedure) = nested(problem, subset, &cv, seed, cancelled);
        cv.out_of_fold = head;
        Some(procedure)
    } else {
        None
    };
    let scores = scores(problem, subset, [&zero, &majority, &cv.out_of_fold]);
    let chosen = best(&scores);
    let out_of_fold = nested.unwrap_or_else(|| match chosen {
        Candidate::ZeroShot => zero,
        Candidate::Majority => majority,
        Candidate::Head => cv.out_of_fold.clone(),
    });
    Selection {
        chosen,
        cv,
        scores,
        out_of_fold,
    }
}

/// [`select`] over a fine-tuned encoder. Fold `f`'s examples are answered over the
/// encoder tuned without any label of theirs (`by_fold[f]`, folds of the model's examples,
/// `fold_of` per position in `subset`), by a head fitted on the other folds, and by the
/// candidate chosen on those folds alone (as [`nested`] chooses): no answer comes from an
/// encoder or a choice that saw its label. `full` (the encoder tuned on every label) gives
/// the kept head's family and strength.
pub(super) fn select_tuned(
    by_fold: &[Problem<'_>],
    full: &Problem<'_>,
    subset: &[usize],
    fold_of: &[usize],
    (k, seed): (usize, u64),
    cancelled: &dyn Fn() -> bool,
) -> Selection {
    let tried = cross_validation::priors_for(subset.len());
    let mut cv = cross_validation::cross_validate(full, subset, tried, k, seed, cancelled);
    let zero = priors(full, subset);
    let mut head_answers = zero.clone();
    let mut majority = zero.clone();
    let mut procedure = zero.clone();
    for (fold, problem) in by_fold.iter().enumerate() {
        if cancelled() {
            break;
        }
        let train: Vec<usize> = (0..subset.len())
            .filter(|&j| fold_of[j] != fold)
            .map(|j| subset[j])
            .collect();
        let held: Vec<usize> = (0..subset.len()).filter(|&j| fold_of[j] == fold).collect();
        if train.len() < 2 || held.is_empty() {
            continue;
        }
        let answered = FoldChoice::of(problem, &train, (tried, k), seed, cancelled);
        for j in held {
            (head_answers[j], procedure[j]) = answered.answer(&problem.readings[subset[j]]);
            majority[j].clone_from(&answered.majority);
        }
    }
    let scores = scores(full, subset, [&zero, &majority, &head_answers]);
    cv.out_of_fold = head_answers;
    cv.fold_of = fold_of.to_vec();
    cv.folds = by_fold.len();
    Selection {
        chosen: best(&scores),
        cv,
        scores,
        out_of_fold: procedure,
    }
}

/// The best of `scores`: the lowest log loss, then the highest accuracy; a tie goes to
/// the earlier (simpler) candidate.
fn best(scores: &Scores) -> Candidate {
    let mut best = scores[0];
    for &(candidate, point) in &scores[1..] {
        if better(&point, &best.1) {
            best = (candidate, point);
        }
    }
    best.0
}

/// Whether `a` is better than `b`: a lower log loss, or as low with a higher accuracy.
/// Log loss first: over a few examples accuracy moves in steps of one example, and the
/// loss, a proper score of the same answers, tells the candidates apart with less noise
/// (on the development split it chose as well or better at 8 and 16 examples).
fn better(a: &CurvePoint, b: &CurvePoint) -> bool {
    a.log_loss < b.log_loss - 1e-9
        || ((a.log_loss - b.log_loss).abs() <= 1e-9 && a.accuracy > b.accuracy + 1e-9)
}

/// Whether `a` does at least as well as `b` ([`best`]'s order).
pub(super) fn at_least_as_good(a: &CurvePoint, b: &CurvePoint) -> bool {
    !better(b, a)
}

fn scores(problem: &Problem<'_>, subset: &[usize], answers: [&[Vec<f64>]; 3]) -> Scores {
    let labels: Vec<usize> = subset.iter().map(|&i| problem.labels[i]).collect();
    let point = |a: &[Vec<f64>]| cross_validation::figures(a, &labels, problem.outcomes);
    [
        (Candidate::ALL[0], point(answers[0])),
        (Candidate::ALL[1], point(answers[1])),
        (Candidate::ALL[2], point(answers[2])),
    ]
}

/// The zero-shot answers of `subset`.
fn priors(problem: &Problem<'_>, subset: &[usize]) -> Vec<Vec<f64>> {
    subset
        .iter()
        .map(|&i| problem.readings[i].prior.to_vec())
        .collect()
}

/// The nested answers: for each fold of `cv`, the head and the choice made on the other
/// folds alone answer it. Returns the head's answers and the procedure's.
fn nested(
    problem: &Problem<'_>,
    subset: &[usize],
    cv: &CrossValidated,
    seed: u64,
    cancelled: &dyn Fn() -> bool,
) -> (Vec<Vec<f64>>, Vec<Vec<f64>>) {
    let mut head_answers = cv.out_of_fold.clone();
    let mut procedure = cv.out_of_fold.clone();
    for fold in 0..cv.folds {
        if cancelled() {
            break;
        }
        let train: Vec<usize> = (0..subset.len())
            .filter(|&j| cv.fold_of[j] != fold)
            .map(|j| subset[j])
            .collect();
        let held: Vec<usize> = (0..subset.len())
            .filter(|&j| cv.fold_of[j] == fold)
            .collect();
        if train.len() < 2 || held.is_empty() {
            continue;
        }
        let answered = FoldChoice::of(problem, &train, (cv.priors, cv.folds), seed, cancelled);
        for j in held {
            (head_answers[j], procedure[j]) = answered.answer(&problem.readings[subset[j]]);
        }
    }
    (head_answers, procedure)
}

/// What the examples `train` choose and fit, to answer a fold held out of them: the
/// candidate chosen on their plain out-of-fold figures (a level deeper would cost a
/// cross-validation per inner fold, for a choice that is already never made on the fold it
/// answers), the head fitted on them, and their majority prior.
struct FoldChoice {
    choice: Candidate,
    head: Head,
    majority: Vec<f64>,
}

impl FoldChoice {
    /// `tried`: the priors the choice these examples are part of tries (those of all of
    /// them, not of these alone, so that the nested choice is the same procedure).
    fn of(
        problem: &Problem<'_>,
        train: &[usize],
        (tried, k): (&'static [Prior], usize),
        seed: u64,
        cancelled: &dyn Fn() -> bool,
    ) -> Self {
        let inner = cross_validation::cross_validate(problem, train, tried, k, seed, cancelled);
        let choice = best(&scores(
            problem,
            train,
            [
                &priors(problem, train),
                &cross_validation::majority_out_of_fold(
                    problem,
                    train,
                    &inner.fold_of,
                    inner.folds,
                ),
                &inner.out_of_fold,
            ],
        ));
        Self {
            choice,
            head: cross_validation::fit(problem, train, (inner.link, inner.prior), inner.penalty),
            majority: cross_validation::frequencies(problem, train),
        }
    }

    /// A held-out example's answers: the head's, and the chosen candidate's.
    fn answer(
        &self,
        reading: &crate::engine::builtin::learned::Reading<'_>,
    ) -> (Vec<f64>, Vec<f64>) {
        let head = self.head.probabilities(reading);
        let chosen = match self.choice {
            Candidate::ZeroShot => reading.prior.to_vec(),
            Candidate::Majority => self.majority.clone(),
            Candidate::Head => head.clone(),
        };
        (head, chosen)
    }
}

/// The majority prior as a head: no weight on zero-shot or on any feature, the
/// frequencies of `subset` as its biases. Written and read as any other head.
pub(super) fn majority_head(problem: &Problem<'_>, subset: &[usize]) -> Head {
    let dim = problem
        .readings
        .iter()
        .map(|r| r.pooled.len())
        .max()
        .unwrap_or(0);
    let outcomes = problem.outcomes;
    Head {
        link: Link::Multinomial,
        outcomes,
        prior_weight: 0.0,
        bias: cross_validation::frequencies(problem, subset)
            .iter()
            .map(|p| p.ln())
            .collect(),
        center: vec![0.0; dim],
        scale: 1.0,
        embedding: vec![0.0; dim * outcomes],
        vocabulary: crate::engine::builtin::learned::words::Vocabulary::default(),
        words: Vec::new(),
    }
}

/// The learning curve: at each size, a stratified seeded draw of that many examples goes
/// through the whole choice, and its out-of-fold figures are the point (so a point is
/// never below what a checkpoint aligned on those examples scores out of fold).
pub(super) fn curve(
    problem: &Problem<'_>,
    k: usize,
    seed: u64,
    cancelled: &dyn Fn() -> bool,
) -> Vec<CurvePoint> {
    let n = problem.ids.len();
    // One stratified order, cut at each size: a smaller draw is part of every larger one.
    let all: Vec<usize> = (0..n).collect();
    let order = cross_validation::stratified_order(problem, &all, seed);
    cross_validation::curve_sizes(n)
        .into_iter()
        .filter(|_| !cancelled())
        .map(|size| {
            let subset = &order[..size];
            let answers = select(problem, subset, k, seed, cancelled).out_of_fold;
            let labels: Vec<usize> = subset.iter().map(|&i| problem.labels[i]).collect();
            cross_validation::figures(&answers, &labels, problem.outcomes)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::builtin::learned::Reading;
    use crate::engine::builtin::learned::words::{Counts, counts};

    /// `n` examples of two outcomes: label `i % 2`, each state's text naming its label
    /// when `words`, and a zero-shot answer that puts `prior_on_zero` on outcome 0.
    struct Fixture {
        ids: Vec<String>,
        pooled: Vec<Vec<f32>>,
        counts: Vec<Counts>,
        priors: Vec<Vec<f64>>,
        labels: Vec<usize>,
    }

    impl Fixture {
        fn new(labels: &[usize], words: bool, prior: &dyn Fn(usize) -> Vec<f64>) -> Self {
            let n = labels.len();
            Self {
                ids: (0..n).map(|i| format!("ex-{i:03}")).collect(),
                pooled: (0..n)
                    .map(|i| vec![(i % 3) as f32 * 0.1, 1.0, 0.5])
                    .collect(),
                counts: (0..n)
                    .map(|i| {
                        let text = match (words, labels[i]) {
                            (true, 0) => format!("parcel late {i}"),
                            (true, _) => format!("refund money {i}"),
                            (false, _) => format!("ticket number {i}"),
                        };
                        counts(&text)
                    })
                    .collect(),
                priors: (0..n).map(prior).collect(),
                labels: labels.to_vec(),
            }
        }

        fn problem(&self) -> Problem<'_> {
            Problem {
                link: Link::Multinomial,
                outcomes: 2,
                ids: self.ids.iter().map(String::as_str).collect(),
                readings: (0..self.ids.len())
                    .map(|i| Reading {
                        pooled: &self.pooled[i],
                        counts: &self.counts[i],
                        prior: &self.priors[i],
                    })
                    .collect(),
                labels: self.labels.clone(),
            }
        }
    }

    /// How many of `labels` the whole choice answers right, out of fold.
    fn right_out_of_fold(selection: &Selection, labels: &[usize]) -> usize {
        selection
            .out_of_fold
            .iter()
            .zip(labels)
            .filter(|(p, y)| crate::core::metrics::argmax(p) == **y)
            .count()
    }

    fn chosen(fixture: &Fixture) -> Selection {
        let problem = fixture.problem();
        let all: Vec<usize> = (0..problem.ids.len()).collect();
        select(&problem, &all, 5, 0, &|| false)
    }

    fn point(accuracy: f64, log_loss: f64) -> CurvePoint {
        CurvePoint {
            examples: 8,
            accuracy,
            log_loss,
            interval: None,
        }
    }

    #[test]
    fn from_sixty_four_examples_heads_are_also_tried_without_zero_shot() {
        let labels: Vec<usize> = (0..96).map(|i| i % 2).collect();
        let uniform = |_: usize| vec![0.5, 0.5];
        let fixture = Fixture::new(&labels, true, &uniform);
        let problem = fixture.problem();
        let all: Vec<usize> = (0..labels.len()).collect();
        let from = cross_validation::PRIOR_OPTIONAL_FROM;
        let below = select(&problem, &all[..from - 1], 5, 0, &|| false);
        assert_eq!(below.cv.priors, [Prior::ZeroShot]);
        assert_eq!(below.cv.prior, Prior::ZeroShot);
        // At 64, where the figures are nested, as at 96.
        for n in [from, all.len()] {
            let selection = select(&problem, &all[..n], 5, 0, &|| false);
            assert_eq!(selection.cv.priors, [Prior::ZeroShot, Prior::None]);
            let head = cross_validation::fit(
                &problem,
                &all[..n],
                (selection.cv.link, Prior::None),
                selection.cv.penalty,
            );
            // Held at exactly 0, never moved.
            assert_eq!(head.prior_weight.to_bits(), 0f64.to_bits());
        }
    }

    #[test]
    fn below_a_hundred_examples_the_folds_do_not_depend_on_the_answers() {
        let uniform = |_: usize| vec![0.5, 0.5];
        let grouped = Fixture::new(&[0, 0, 0, 0, 0, 1, 1, 1, 1, 1], false, &uniform);
        let alternating = Fixture::new(&[0, 1, 0, 1, 0, 1, 0, 1, 0, 1], false, &uniform);
        assert_eq!(chosen(&grouped).cv.fold_of, chosen(&alternating).cv.fold_of);
    }

    #[test]
    fn the_best_has_the_least_loss_then_the_most_accuracy_and_a_tie_the_simplest() {
        let scores = |z: CurvePoint, m: CurvePoint, h: CurvePoint| -> Scores {
            [
                (Candidate::ZeroShot, z),
                (Candidate::Majority, m),
                (Candidate::Head, h),
            ]
        };
        // The loss first, whatever the accuracy.
        let chosen = best(&scores(point(0.5, 0.3), point(0.625, 0.9), point(0.5, 0.2)));
        assert_eq!(chosen, Candidate::Head);
        // Equal loss: the higher accuracy.
        let chosen = best(&scores(
            point(0.5, 0.6),
            point(0.625, 0.6),
            point(0.75, 0.7),
        ));
        assert_eq!(chosen, Candidate::Majority);
        // Equal in both: the simpler, zero-shot first.
        let chosen = best(&scores(
            point(0.75, 0.5),
            point(0.75, 0.5),
            point(0.75, 0.5),
        ));
        assert_eq!(chosen, Candidate::ZeroShot);
    }

    #[test]
    fn a_zero_shot_that_is_right_where_nothing_else_is_stays() {
        // Zero-shot knows what the words do not: the texts are alike, and half of each
        // answer; the majority and any head are at chance.
        let labels = [0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1];
        let fixture = Fixture::new(&labels, false, &|i| {
            if labels[i] == 0 {
                vec![0.6, 0.4]
            } else {
                vec![0.4, 0.6]
            }
        });
        let selection = chosen(&fixture);
        assert!((selection.scores[0].1.accuracy - 1.0).abs() < 1e-9);
        assert!(
            selection.scores[1].1.accuracy < 0.75,
            "{:?}",
            selection.scores
        );
        // The head keeps the prior (and may sharpen it): either answers every example right.
        assert_ne!(selection.chosen, Candidate::Majority);
        let right = right_out_of_fold(&selection, &labels);
        assert_eq!(right, labels.len(), "{:?}", selection.out_of_fold);
    }

    #[test]
    fn eight_labels_that_contradict_zero_shot_move_it() {
        // Zero-shot says outcome 0 everywhere; seven of eight are outcome 1, and no text
        // tells them apart: the majority prior is the better answer, and is kept.
        let labels = [1, 1, 1, 0, 1, 1, 1, 1];
        let fixture = Fixture::new(&labels, false, &|_| vec![0.8, 0.2]);
        let selection = chosen(&fixture);
        assert_eq!(
            selection.chosen,
            Candidate::Majority,
            "{:?}",
            selection.scores
        );
        assert!(selection.scores[1].1.accuracy > selection.scores[0].1.accuracy);
        // The whole choice's figure, nested: one fold of the eight answers with outcome 1
        // wherever the other folds chose the majority.
        let right = right_out_of_fold(&selection, &labels);
        assert!(right >= 6, "{:?}", selection.out_of_fold);
    }

    #[test]
    fn words_that_tell_the_answers_apart_make_a_head() {
        let labels: Vec<usize> = (0..16).map(|i| i % 2).collect();
        let fixture = Fixture::new(&labels, true, &|_| vec![0.5, 0.5]);
        let selection = chosen(&fixture);
        assert_eq!(selection.chosen, Candidate::Head, "{:?}", selection.scores);
        assert!(
            selection.scores[2].1.accuracy > 0.9,
            "{:?}",
            selection.scores
        );
    }

    #[test]
    fn the_majority_head_answers_the_frequencies_and_round_trips() {
        let labels = [1, 1, 1, 0, 1, 1, 1, 1];
        let fixture = Fixture::new(&labels, false, &|_| vec![0.8, 0.2]);
        let problem = fixture.problem();
        let head = majority_head(&problem, &(0..8).collect::<Vec<_>>());
        let p = head.probabilities(&problem.readings[0]);
        assert!(
            (p[0] - 0.2).abs() < 1e-9 && (p[1] - 0.8).abs() < 1e-9,
            "{p:?}"
        );
        let files = crate::engine::builtin::learned::file::test_files(
            &head,
            crate::engine::builtin::learned::file::VERSION,
        );
        let read = crate::engine::builtin::learned::file::read(&files, &|_| {
            Some(vec!["true".into(), "false".into()])
        })
        .expect("read back");
        assert_eq!(read.get("q").unwrap().head, head);
    }
}
