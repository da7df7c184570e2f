//! One question's alignment: what it answers with chosen by cross-validation ([`select`])
//! and fitted, or its correction without annotations.

#[allow(clippy::wildcard_imports)]
use super::*;
use crate::wire::QuestionKind;
use correction::{Correction, correct_unsupervised};
use fit::Fit;
use select::Candidate;

// One question's alignment in order (filter, baseline, search, gate, write), over
// locals that every step shares.
#[allow(clippy::too_many_arguments, clippy::too_many_lines)]
pub(super) fn align_question(
    engine: &BuiltinEngine,
    id: &str,
    // The question, and whether the checkpoint has a head for it.
    (question, has_head): (&Question, bool),
    examples: &Examples,
    embedded: &[EmbeddedState],
    captured: &[EmbeddedState],
    items: &[Item],
    mut skipped: u64,
    settings: &Settings,
    tracker: &Tracker,
    tuned: Option<&tune::Tuned>,
) -> Result<Aligned> {
    let loc = Loc(vec![crate::wire::validate::Segment::Key(
        "questions.yaml".into(),
    )])
    .key(id);
    let current = aligned::parse(question, &loc).map_err(Error::Validation)?;
    let base = match &current {
        Some(alignment) => aligned::base_question(question, alignment),
        None => question.clone(),
    };
    // A state with nothing to read can be neither compared nor an exemplar.
    let items: Vec<&Item> = items
        .iter()
        .filter(|it| !embedded[it.example].is_blank())
        .collect();
    skipped += (examples_count(examples, id) - items.len()) as u64;
    let mut report = QuestionReport::unchanged(items.len() as u64, skipped);
    let outcomes = outcome_keys(&question.kind).len();
    let present: std::collections::BTreeSet<usize> = items.iter().map(|it| it.outcome).collect();
    let too_few = if items.len() < outcomes {
        Some(format!(
            "too few annotated examples ({} for {outcomes} outcomes); the zero-shot answer \
             stays",
            items.len()
        ))
    } else if present.len() < 2 {
        Some("every annotated example has the same answer; the zero-shot answer stays".to_owned())
    } else {
        None
    };
    if settings.unsupervised {
        return correct_unsupervised(
            engine,
            id,
            (current.as_ref(), &base),
            has_head,
            captured,
            settings,
            report,
        );
    }
    if let Some(mut reason) = too_few {
        // Captured states could still correct it, without a label: say so.
        let states = captured.iter().filter(|s| !s.is_blank()).count();
        if !matches!(base.kind, QuestionKind::Noul { .. }) && states >= MIN_EXAMPLES {
            let _ = write!(
                reason,
                "; `align --unsupervised` would correct it without annotations over the \
                 {states} captured states"
            );
        }
        report.reason = Some(reason);
        return Ok((report, None));
    }
    // The best prior there is: zero-shot without each outcome's pull over the captured
    // states, where there are enough of them (learn_question keeps it where it does at
    // least as well on the annotated examples).
    let correction = match settings.remote {
        None => Correction::of(engine, &base, captured, settings.seed)?.ok(),
        // A remote engine's answers are its own: nothing here corrects them.
        Some(_) => None,
    };
    let inputs = Inputs {
        engine,
        examples,
        embedded,
        items: &items,
        settings,
        tracker,
        tuned,
    };
    learn_question(&inputs, id, &base, correction.as_ref(), report)
}

/// What every question's alignment reads, as it is.
pub(super) struct Inputs<'a> {
    engine: &'a BuiltinEngine,
    examples: &'a Examples,
    embedded: &'a [EmbeddedState],
    items: &'a [&'a Item],
    settings: &'a Settings,
    tracker: &'a Tracker,
    /// The fine-tuned encoder the head reads, in the alignment's tuned variant.
    tuned: Option<&'a tune::Tuned>,
}

/// Choose what a question answers with from its annotated `items` ([`select`]): zero-shot,
/// the majority prior or a learned head, by cross-validated log loss and accuracy; write it
/// when it is not zero-shot (and, with a `margin`, when it also passes the gate against
/// zero-shot).
// One question's choice in order (readings, curve, split, choice, figures, verdict, write),
// over locals that every step shares.
#[allow(clippy::too_many_lines)]
pub(super) fn learn_question(
    inputs: &Inputs<'_>,
    id: &str,
    base: &Question,
    correction: Option<&Correction>,
    mut report: QuestionReport,
) -> Result<Aligned> {
    let Inputs {
        examples,
        items,
        settings,
        tracker,
        ..
    } = *inputs;
    let kind = &base.kind;
    let readings = Readings::of(inputs, id, base, correction)?;
    tracker.check()?;
    let correction = correction.filter(|_| readings.corrected);
    let problem = readings.problem(kind, examples, items);
    let cancelled = || tracker.cancelled();
    if settings.curve {
        // Over the base encoder: a fine-tune per size and fold would cost more than the
        // alignment (the tuned variant's own figure ends it, below).
        let base = readings.problem_over(kind, examples, items, readings.base());
        report.curve = Some(crate::wire::align::Curve {
            points: select::curve(&base, settings.folds, settings.seed, &cancelled),
            zero_shot: cross_validation::figures(
                &readings.priors,
                &problem.labels,
                problem.outcomes,
            ),
            majority: cross_validation::majority(&problem, settings.folds, settings.seed),
        });
    }
    let n = items.len();
    let held_out = if settings.holdout > 0.0 {
        folds::hold_out(
            &problem.ids,
            &problem.labels,
            settings.holdout,
            settings.seed,
        )
    } else {
        vec![false; n]
    };
    let fitted: Vec<usize> = (0..n).filter(|&i| !held_out[i]).collect();
    let set_aside: Vec<usize> = (0..n).filter(|&i| held_out[i]).collect();
    let mut selection = match (&readings.by_fold, inputs.tuned) {
        (Some(by_fold), Some(tuned)) => {
            let problems: Vec<cross_validation::Problem<'_>> = by_fold
                .iter()
                .map(|pooled| readings.problem_over(kind, examples, items, pooled))
                .collect();
            let fold_of: Vec<usize> = fitted
                .iter()
                .map(|&i| tuned.fold_of[items[i].example])
                .collect();
            select::select_tuned(
                &problems,
                &problem,
                &fitted,
                &fold_of,
                (settings.folds, settings.seed),
                &cancelled,
            )
        }
        _ => select::select(&problem, &fitted, settings.folds, settings.seed, &cancelled),
    };
    tracker.check()?;
    // The curve ends at every example: there, the figure of what is kept.
    if let Some(curve) = &mut report.curve
        && let Some(last) = curve.points.last_mut()
        && last.examples == fitted.len() as u64
    {
        let labels: Vec<usize> = fitted.iter().map(|&i| problem.labels[i]).collect();
        *last = crate::wire::align::CurvePoint {
            examples: last.examples,
            ..cross_validation::figures(&selection.out_of_fold, &labels, problem.outcomes)
        };
    }
    // As the manifest records them, so that `eval` scores exactly these.
    for answer in &mut selection.out_of_fold {
        for p in answer.iter_mut() {
            *p = round(*p);
        }
    }
    let changed = selection.chosen != Candidate::ZeroShot || correction.is_some();
    let kept = match selection.chosen {
        Candidate::ZeroShot => None,
        Candidate::Majority => Some(select::majority_head(&problem, &fitted)),
        Candidate::Head => Some(cross_validation::fit(
            &problem,
            &fitted,
            (selection.cv.link, selection.cv.prior),
            selection.cv.penalty,
        )),
    };
    report.fitted = fitted.len() as u64;
    report.held_out = set_aside.len() as u64;
    report.chosen = Some(selection.chosen.name().to_owned());
    report.candidates = Some(
        selection
            .scores
            .iter()
            .map(|(candidate, point)| (candidate.name().to_owned(), *point))
            .collect(),
    );
    // What the figures are on: the held-out examples when some are, else every fitted
    // one, answered out of fold by the whole choice.
    let (on, after): (Vec<usize>, Vec<Vec<f64>>) = if set_aside.is_empty() {
        report.figures = Some("out_of_fold".into());
        (fitted.clone(), selection.out_of_fold.clone())
    } else {
        report.figures = Some("held_out".into());
        let answers = set_aside
            .iter()
            .map(|&i| match &kept {
                Some(head) => head.probabilities(&problem.readings[i]),
                None => readings.priors[i].clone(),
            })
            .collect();
        (set_aside.clone(), answers)
    };
    let labels: Vec<Vec<f64>> = on.iter().map(|&i| items[i].label.clone()).collect();
    let before: Vec<Vec<f64>> = on.iter().map(|&i| readings.zero_shot[i].clone()).collect();
    let (before, after) = (scored(&before, &labels), scored(&after, &labels));
    let judged = Judged {
        id,
        kind,
        changed,
        scores: &selection.scores,
    };
    if !judged.judge(&before, &after, settings, &mut report) {
        return Ok((report, None));
    }
    let Some(head) = kept else {
        // Zero-shot, corrected: the correction alone is kept.
        let correction = correction.ok_or_else(|| Error::bug("a change with nothing to keep"))?;
        report.improved = true;
        report.states = Some(correction.states);
        report.candidate = Some(format!(
            "the zero-shot answer corrected over {} captured states ({}); out of fold: {}",
            correction.states,
            unsupervised::METHOD,
            describe_scores(&selection.scores)
        ));
        return Ok((report, Some(correction.learned(id))));
    };
    let chosen = selection.chosen;
    let fit = Fit {
        head,
        selection,
        fitted,
        ids: problem.ids,
        tuned: inputs.tuned.is_some(),
    };
    let mut learned = fit.learned(id, kind, settings, &after, &mut report);
    // A head reads the prior it was fitted on: the corrected one, kept beside it. (The
    // majority prior reads none.)
    if let Some(correction) = correction.filter(|_| chosen == Candidate::Head) {
        learned.file = correction.learned(id).file;
        report.states = Some(correction.states);
        if let Some(candidate) = &mut report.candidate {
            let _ = write!(
                candidate,
                "; its prior zero-shot corrected over {} captured states",
                correction.states
            );
        }
    }
    Ok((report, Some(learned)))
}

/// What a question's candidates read of each annotated example: its prior (the zero-shot
/// answer, corrected where that does at least as well), its pooled embedding and its
/// words' counts; and the zero-shot answer as the current checkpoint gives it.
struct Readings {
    priors: Vec<Vec<f64>>,
    zero_shot: Vec<Vec<f64>>,
    /// Whether `priors` are the corrected answers.
    corrected: bool,
    /// What the head reads: the base encoder's pooled embedding, or the tuned one's.
    pooled: Vec<Vec<f32>>,
    /// With a fine-tune: the base encoder's (for the curve), and per fold the encoder's
    /// tuned without that fold's labels.
    base_pooled: Option<Vec<Vec<f32>>>,
    by_fold: Option<Vec<Vec<Vec<f32>>>>,
    counts: Vec<crate::engine::builtin::learned::words::Counts>,
}

impl Readings {
    fn of(
        inputs: &Inputs<'_>,
        id: &str,
        base: &Question,
        correction: Option<&Correction>,
    ) -> Result<Self> {
        let items = inputs.items;
        let n = items.len();
        let mut readings = Self {
            priors: Vec::with_capacity(n),
            zero_shot: Vec::with_capacity(n),
            corrected: false,
            pooled: Vec::with_capacity(n),
            base_pooled: None,
            by_fold: None,
            counts: Vec::with_capacity(n),
        };
        // A remote engine's answers where the heads read them, else the built-in engine's.
        let remote = inputs
            .examples
            .priors
            .as_ref()
            .map(|priors| priors.get(id).map_or(&[][..], Vec::as_slice));
        for it in items {
            let state = &inputs.embedded[it.example];
            let zero_shot = match remote {
                Some(priors) => priors
                    .get(it.example)
                    .filter(|p| !p.is_empty())
                    .cloned()
                    .ok_or_else(|| Error::bug("an annotated example without its remote answer"))?,
                None => inputs.engine.zero_shot(state, base)?.0,
            };
            readings.zero_shot.push(zero_shot);
            if let Some(correction) = correction {
                let corrected = inputs.engine.zero_shot(state, &correction.question)?.0;
                readings.priors.push(corrected);
            }
            readings.pooled.push(state.pooled());
            // Counted once per state, whichever question reads them first.
            readings.counts.push(state.words().clone());
        }
        if let Some(tuned) = inputs.tuned {
            let of = |vectors: &[Vec<f32>]| -> Vec<Vec<f32>> {
                items.iter().map(|it| vectors[it.example].clone()).collect()
            };
            let base_pooled = std::mem::replace(&mut readings.pooled, of(&tuned.full));
            readings.base_pooled = Some(base_pooled);
            readings.by_fold = Some(tuned.by_fold.iter().map(|v| of(v)).collect());
        }
        let labels: Vec<usize> = items.iter().map(|it| it.outcome).collect();
        let outcomes = outcome_keys(&base.kind).len();
        let figures = |answers: &[Vec<f64>]| cross_validation::figures(answers, &labels, outcomes);
        // The correction is estimated without a label; whether it is kept is the labels'
        // say: where it scores worse than zero-shot on them, zero-shot stays the prior.
        readings.corrected = correction.is_some()
            && select::at_least_as_good(&figures(&readings.priors), &figures(&readings.zero_shot));
        if !readings.corrected {
            readings.priors.clone_from(&readings.zero_shot);
        }
        Ok(readings)
    }

    /// The base encoder's pooled embeddings (what the head reads without a fine-tune).
    fn base(&self) -> &[Vec<f32>] {
        self.base_pooled.as_deref().unwrap_or(&self.pooled)
    }

    /// The learning problem these readings and the items' labels make.
    fn problem<'a>(
        &'a self,
        kind: &QuestionKind,
        examples: &'a Examples,
        items: &[&Item],
    ) -> cross_validation::Problem<'a> {
        self.problem_over(kind, examples, items, &self.pooled)
    }

    /// [`Self::problem`] with the head reading `pooled` (per item).
    fn problem_over<'a>(
        &'a self,
        kind: &QuestionKind,
        examples: &'a Examples,
        items: &[&Item],
        pooled: &'a [Vec<f32>],
    ) -> cross_validation::Problem<'a> {
        cross_validation::Problem {
            link: cross_validation::link_of(kind),
            outcomes: outcome_keys(kind).len(),
            ids: items
                .iter()
                .map(|it| examples.ids[it.example].as_str())
                .collect(),
            readings: (0..items.len())
                .map(|i| crate::engine::builtin::learned::Reading {
                    pooled: &pooled[i],
                    counts: &self.counts[i],
                    prior: &self.priors[i],
                })
                .collect(),
            labels: items.iter().map(|it| it.outcome).collect(),
        }
    }
}

/// `answers` beside the `labels` they are scored against.
fn scored(answers: &[Vec<f64>], labels: &[Vec<f64>]) -> Vec<Scored> {
    answers
        .iter()
        .zip(labels)
        .map(|(p, label)| Scored {
            predicted: p.clone(),
            label: label.clone(),
        })
        .collect()
}

/// A question's choice, as the report judges it.
struct Judged<'a> {
    id: &'a str,
    kind: &'a QuestionKind,
    /// Whether the choice answers otherwise than the current zero-shot.
    changed: bool,
    scores: &'a select::Scores,
}

impl Judged<'_> {
    /// Whether the choice is kept: it answers otherwise than zero-shot and, when the user set a
    /// `margin`, its answers (`after`) also pass the gate against zero-shot's (`before`) on
    /// the same examples, at no lower accuracy. The figures, the interval of the gain and
    /// the verdict go into `report` either way.
    fn judge(
        &self,
        before: &[Scored],
        after: &[Scored],
        settings: &Settings,
        report: &mut QuestionReport,
    ) -> bool {
        let (scale, outcomes) = (scale_of(self.kind), outcome_keys(self.kind).len());
        let metrics =
            |s: &[Scored]| Metrics::compute(scale, outcomes, s).with_uncertainty(scale, s, self.id);
        let losses = |s: &[Scored]| -> Vec<f64> {
            s.iter()
                .map(|s| loss(scale, &s.predicted, &s.label))
                .collect()
        };
        let (before_metrics, after_metrics) = (metrics(before), metrics(after));
        let mut verdict = gate::judge(
            &losses(before),
            &losses(after),
            settings.margin,
            settings.seed,
            self.id,
        );
        if !self.changed {
            verdict.passed = false;
            verdict.reason = Some(format!(
                "zero-shot scored best out of fold ({})",
                describe_scores(self.scores)
            ));
        } else if settings.margin > 0.0 {
            if verdict.passed && after_metrics.accuracy < before_metrics.accuracy {
                verdict.passed = false;
                verdict.reason = Some(format!(
                    "the accuracy would fall from {:.3} to {:.3}",
                    before_metrics.accuracy, after_metrics.accuracy
                ));
            }
        } else {
            // No gate asked for: the choice stands, and the bootstrap's bounds are the
            // interval of its gain, reported as they are.
            verdict.passed = true;
            verdict.required_gain = 0.0;
            verdict.reason = None;
        }
        report.before = Some(before_metrics);
        report.after = Some(after_metrics);
        report.reason.clone_from(&verdict.reason);
        let passed = verdict.passed;
        report.gate = Some(verdict);
        passed
    }
}

/// The candidates' out-of-fold accuracies, for people: `head 0.750, zero-shot 0.500, …`.
pub(super) fn describe_scores(scores: &select::Scores) -> String {
    scores
        .iter()
        .map(|(candidate, point)| {
            format!(
                "{} {:.3}",
                candidate.name().replace('_', "-"),
                point.accuracy
            )
        })
        .collect::<Vec<_>>()
        .join(", ")
}
