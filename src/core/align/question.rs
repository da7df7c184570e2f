//! One question's alignment: its head cross-validated, fitted and judged by the gate, or
//! its correction without annotations.

#[allow(clippy::wildcard_imports)]
use super::*;
use crate::wire::QuestionKind;

// One question's alignment in order (filter, baseline, search, gate, write), over
// locals that every step shares.
#[allow(clippy::too_many_arguments, clippy::too_many_lines)]
pub(super) fn align_question(
    engine: &BuiltinEngine,
    id: &str,
    question: &Question,
    examples: &Examples,
    embedded: &[EmbeddedState],
    captured: &[EmbeddedState],
    items: &[Item],
    mut skipped: u64,
    settings: &Settings,
    tracker: &Tracker,
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
    let mut report = QuestionReport {
        improved: false,
        examples: items.len() as u64,
        fitted: 0,
        held_out: 0,
        skipped,
        candidate: None,
        before: None,
        after: None,
        gate: None,
        states: None,
        reason: None,
        figures: None,
        curve: None,
    };
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
            question.learned.is_some(),
            captured,
            settings,
            report,
        );
    }
    if let Some(reason) = too_few {
        report.reason = Some(reason);
        return Ok((report, None));
    }
    learn_question(
        engine, id, &base, examples, embedded, &items, settings, tracker, report,
    )
}

/// Fit a question's learned head on its annotated `items` ([`learn`]), gate it on
/// out-of-fold (or held-out) answers against zero-shot, and write it when it passes.
#[allow(clippy::too_many_arguments)] // the alignment's state, passed down as it is
pub(super) fn learn_question(
    engine: &BuiltinEngine,
    id: &str,
    base: &Question,
    examples: &Examples,
    embedded: &[EmbeddedState],
    items: &[&Item],
    settings: &Settings,
    tracker: &Tracker,
    mut report: QuestionReport,
) -> Result<Aligned> {
    let kind = &base.kind;
    let readings = Readings::of(engine, base, examples, embedded, items)?;
    tracker.check()?;
    let problem = readings.problem(kind, examples, items);
    let cancelled = || tracker.cancelled();
    if settings.curve {
        report.curve = Some(crate::wire::align::Curve {
            points: learn::curve(&problem, settings.folds, settings.seed, &cancelled),
            zero_shot: learn::figures(&readings.priors, &problem.labels, problem.outcomes),
            majority: learn::majority(&problem, settings.folds, settings.seed),
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
    let held: Vec<usize> = (0..n).filter(|&i| held_out[i]).collect();
    let mut cv =
        learn::cross_validate(&problem, &fitted, settings.folds, settings.seed, &cancelled);
    if fitted.len() < learn::NESTED_BELOW {
        cv.out_of_fold =
            learn::nested_out_of_fold(&problem, &fitted, &cv, settings.seed, &cancelled);
    }
    tracker.check()?;
    // As the manifest records them, so that `eval` scores exactly these.
    for answer in &mut cv.out_of_fold {
        for p in answer.iter_mut() {
            *p = round(*p);
        }
    }
    let fitted_head = learn::fit(&problem, &fitted, cv.link, cv.penalty);
    report.fitted = fitted.len() as u64;
    report.held_out = held.len() as u64;
    // What the gate and the figures are on: the held-out examples when some are, else
    // every fitted one, answered out of fold.
    let (on, after): (Vec<usize>, Vec<Vec<f64>>) = if held.is_empty() {
        report.figures = Some("out_of_fold".into());
        (fitted.clone(), cv.out_of_fold.clone())
    } else {
        report.figures = Some("held_out".into());
        let answers = held
            .iter()
            .map(|&i| fitted_head.probabilities(&problem.readings[i]))
            .collect();
        (held.clone(), answers)
    };
    let labels: Vec<Vec<f64>> = on.iter().map(|&i| items[i].label.clone()).collect();
    let before: Vec<Vec<f64>> = on.iter().map(|&i| readings.priors[i].clone()).collect();
    let (before, after) = (scored(&before, &labels), scored(&after, &labels));
    if !judge(id, kind, &before, &after, settings, &mut report) {
        return Ok((report, None));
    }
    let fit = Fit {
        head: fitted_head,
        cv,
        fitted,
        ids: problem.ids,
    };
    let learned = fit.learned(id, kind, settings, &after, &mut report);
    Ok((report, Some(learned)))
}

/// What a question's head reads of each annotated example: its zero-shot answer (the
/// prior), its pooled embedding and its words' counts.
struct Readings {
    priors: Vec<Vec<f64>>,
    pooled: Vec<Vec<f32>>,
    counts: Vec<crate::learned::words::Counts>,
}

impl Readings {
    fn of(
        engine: &BuiltinEngine,
        base: &Question,
        examples: &Examples,
        embedded: &[EmbeddedState],
        items: &[&Item],
    ) -> Result<Self> {
        let n = items.len();
        let mut readings = Self {
            priors: Vec::with_capacity(n),
            pooled: Vec::with_capacity(n),
            counts: Vec::with_capacity(n),
        };
        for it in items {
            let state = &embedded[it.example];
            readings.priors.push(engine.zero_shot(state, base)?.0);
            readings.pooled.push(state.pooled());
            readings.counts.push(crate::learned::words::counts(
                &crate::engine::builtin::text::render(&examples.states[it.example]),
            ));
        }
        Ok(readings)
    }

    /// The learning problem these readings and the items' labels make.
    fn problem<'a>(
        &'a self,
        kind: &QuestionKind,
        examples: &'a Examples,
        items: &[&Item],
    ) -> learn::Problem<'a> {
        learn::Problem {
            link: learn::link_of(kind),
            outcomes: outcome_keys(kind).len(),
            ids: items
                .iter()
                .map(|it| examples.ids[it.example].as_str())
                .collect(),
            readings: (0..items.len())
                .map(|i| crate::learned::Reading {
                    pooled: &self.pooled[i],
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

/// Whether the head's answers (`after`) beat zero-shot's (`before`) on the same examples:
/// the gate on their losses, and never a lower accuracy. The figures and the verdict go
/// into `report`.
fn judge(
    id: &str,
    kind: &QuestionKind,
    before: &[Scored],
    after: &[Scored],
    settings: &Settings,
    report: &mut QuestionReport,
) -> bool {
    let (scale, outcomes) = (scale_of(kind), outcome_keys(kind).len());
    let metrics =
        |s: &[Scored]| Metrics::compute(scale, outcomes, s).with_uncertainty(scale, s, id);
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
        id,
    );
    if verdict.passed && after_metrics.accuracy < before_metrics.accuracy {
        verdict.passed = false;
        verdict.reason = Some(format!(
            "the accuracy would fall from {:.3} to {:.3}",
            before_metrics.accuracy, after_metrics.accuracy
        ));
    }
    report.before = Some(before_metrics);
    report.after = Some(after_metrics);
    report.reason.clone_from(&verdict.reason);
    let passed = verdict.passed;
    report.gate = Some(verdict);
    passed
}

/// A head that passed the gate, with how it was chosen and what it was fitted on.
struct Fit<'a> {
    head: crate::learned::Head,
    cv: learn::CrossValidated,
    /// The fitted examples, as indices into `ids`.
    fitted: Vec<usize>,
    ids: Vec<&'a str>,
}

impl Fit<'_> {
    /// The head as the checkpoint keeps it (tensors and manifest entry, each fitted
    /// example's out-of-fold answer), and what `report` says of it.
    fn learned(
        self,
        id: &str,
        kind: &QuestionKind,
        settings: &Settings,
        after: &[Scored],
        report: &mut QuestionReport,
    ) -> Learned {
        let Self {
            head,
            cv,
            fitted,
            ids,
        } = self;
        report.improved = true;
        report.candidate = Some(format!(
            "{} head over the pooled embedding and word 1-2-grams (penalty {} on words, {} on \
             the embedding; {} folds)",
            head.link.name(),
            round(cv.penalty.words),
            round(cv.penalty.embedding),
            cv.folds
        ));
        let out_of_fold: IndexMap<String, crate::learned::file::Fitted> = fitted
            .iter()
            .zip(cv.fold_of.iter().zip(&cv.out_of_fold))
            .map(|(&i, (&fold, answer))| {
                let fitted = crate::learned::file::Fitted {
                    fold,
                    answer: answer.clone(),
                };
                (ids[i].to_owned(), fitted)
            })
            .collect();
        let tensors = crate::learned::file::tensors(&head);
        let entry = crate::learned::file::entry(
            id,
            &head,
            outcome_keys(kind),
            cv.penalty,
            (settings.seed, cv.folds),
            abstain_rule(after),
            out_of_fold,
            &tensors,
        );
        let entry = crate::learned::file::Entry {
            curve: report.curve.as_ref().map(|curve| curve.points.clone()),
            ..entry
        };
        let mut fitted_ids: Vec<String> = fitted.iter().map(|&i| ids[i].to_owned()).collect();
        fitted_ids.sort();
        Learned {
            file: None,
            head: Some(LearnedHead { tensors, entry }),
            fit_id: Some(fit_id(id, &fitted_ids)),
            fitted: fitted_ids,
            documents: Vec::new(),
        }
    }
}

/// Correct a question without annotations ([`unsupervised`]) from the `captured` states,
/// given its current alignment (as [`align_question`] parsed it) and its base question;
/// `why` says why it was not aligned on annotations instead (when it was not asked for).
pub(super) fn correct_unsupervised(
    engine: &BuiltinEngine,
    id: &str,
    (current, base): (Option<&aligned::Alignment>, &Question),
    has_head: bool,
    captured: &[EmbeddedState],
    settings: &Settings,
    mut report: QuestionReport,
) -> Result<Aligned> {
    // An alignment learned from annotations is worth more than a correction without them.
    if has_head
        || current.is_some_and(|alignment| {
            !alignment.exemplars.is_empty() || alignment.cues.iter().any(Option::is_some)
        })
    {
        report.reason = Some("aligned on annotated examples already; left as it is".to_owned());
        return Ok((report, None));
    }
    let similarities = captured
        .iter()
        .map(|state| engine.similarities(state, base))
        .collect::<Result<Vec<_>>>()?;
    let mut calibration = match unsupervised::correction(base, &similarities, MIN_EXAMPLES) {
        Ok(calibration) => calibration,
        Err(not) => {
            report.reason = Some(not.to_string());
            return Ok((report, None));
        }
    };
    calibration.seed = Some(settings.seed);
    calibration
        .weights
        .values_mut()
        .for_each(|w| *w = round(*w));
    calibration.bias.values_mut().for_each(|b| *b = round(*b));
    let states = captured.iter().filter(|s| !s.is_blank()).count() as u64;
    report.improved = true;
    report.candidate = Some(unsupervised::METHOD.to_owned());
    report.states = Some(states);
    let learned = AlignedInstructions {
        task: None,
        examples: Vec::new(),
        cues: IndexMap::new(),
        arbiter_alignment: calibration,
    };
    Ok((
        report,
        Some(Learned {
            file: Some(learned_yaml(id, &learned)),
            head: None,
            fit_id: None,
            fitted: Vec::new(),
            documents: Vec::new(),
        }),
    ))
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
