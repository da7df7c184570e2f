//! An evaluation's report: the figures of each checkpoint per question and overall, from
//! the decisions its passes wrote and the annotations as they are now.

use super::{EvaluationSpec, Side};
use crate::core::Context;
use crate::core::metrics::{self, Metrics, Scale, Scored, label_of, predicted_of, scale_of};
use crate::engine::builtin::aligned::{AlignedInstructions, outcome_keys};
use crate::engine::builtin::learned::Learned;
use crate::error::Result;
use crate::store::ExampleFilter;
use crate::wire::Answers;
use crate::wire::align::{
    Delta, Disagreement, Disagreements, EvaluationReport, EvaluationStatus, QuestionEvaluation,
};
use indexmap::IndexMap;
use serde_json::Value;
use std::collections::{HashMap, HashSet};

/// The most disagreements a question's report lists (all are counted).
const MAX_DISAGREEMENTS: usize = 100;

/// The figures of each side, per question and overall.
pub(super) fn report(
    ctx: &Context,
    job_id: &crate::ids::JobId,
    model_id: &crate::ids::ModelId,
    stored: &EvaluationSpec,
    sides: &[Side],
) -> Result<EvaluationReport> {
    let truth = ground_truth(ctx, model_id, &stored.questions)?;
    let excluded = if stored.include_fitted {
        HashMap::new()
    } else {
        fitted_examples(ctx, sides)?
    };
    let mut per_side: Vec<SideFigures> = Vec::new();
    let (mut decided, mut cached) = (0, 0);
    for side in sides {
        let (metrics, counts) =
            side_metrics(ctx, job_id, side, &truth, &excluded, stored.include_fitted)?;
        per_side.push(metrics);
        decided += counts.0;
        cached += counts.1;
    }
    // A fixed order of the examples, so the paired resampling reproduces.
    let mut order: Vec<String> = truth.keys().cloned().collect();
    order.sort();
    let mut questions = IndexMap::new();
    for id in &stored.questions {
        let Some(figures) = per_side.first().and_then(|s| s.get(id)) else {
            continue;
        };
        let unscored = left_out(id, figures, &truth, &excluded);
        let Some(metrics) = figures.metrics.clone() else {
            let why = Some(figures.why_unscored());
            let status = EvaluationStatus::NotEvaluated;
            questions.insert(
                id.clone(),
                QuestionEvaluation {
                    status,
                    reason: why,
                    ..unscored
                },
            );
            continue;
        };
        let baseline = per_side
            .get(1)
            .and_then(|s| s.get(id))
            .filter(|b| b.metrics.is_some());
        let kind = sides[0].questions.get(id).map(|asked| &asked.kind);
        let delta = baseline.zip(kind).and_then(|(baseline, kind)| {
            paired_delta(scale_of(kind), figures, baseline, id, &order)
        });
        let outcomes = kind.map(outcome_keys).unwrap_or_default();
        // Answers are compared by outcome: only where the baseline asks the same outcomes.
        let comparable = sides
            .get(1)
            .and_then(|side| side.questions.get(id))
            .is_some_and(|asked| outcome_keys(&asked.kind) == outcomes);
        let disagreements = baseline
            .filter(|_| comparable)
            .map(|baseline| disagreements(figures, baseline, &outcomes, &order));
        let evaluated = QuestionEvaluation {
            status: EvaluationStatus::Evaluated,
            metrics: Some(metrics),
            out_of_fold: figures.out_of_fold.clone(),
            fresh: figures.fresh.clone(),
            baseline: baseline.and_then(|b| b.metrics.clone()),
            delta,
            outcomes,
            disagreements,
            curve: (sides[0].loaded.heads.get(id))
                .and_then(|learned| learned.entry.curve.clone())
                .unwrap_or_default(),
            ..unscored
        };
        questions.insert(id.clone(), evaluated);
    }
    Ok(EvaluationReport {
        revision: stored.revision.clone(),
        baseline: stored.baseline.clone(),
        overall: overall_of(&questions, sides.len() > 1),
        questions,
        decided,
        cached,
        working_copy: stored.working.as_ref().map(|w| w.copy().clone()),
        question_gates: stored.gates.clone(),
    })
}

/// Question `id`'s evaluation before its figures: its failed decisions, and the annotated
/// examples left out because an alignment was fitted on them.
fn left_out(
    id: &str,
    figures: &QuestionFigures,
    truth: &HashMap<String, HashMap<String, Value>>,
    excluded: &HashMap<&str, (HashSet<String>, bool)>,
) -> QuestionEvaluation {
    let excluded_fitted = excluded.get(id).map_or(0, |(fitted, _)| {
        truth
            .iter()
            .filter(|(example, answers)| answers.contains_key(id) && fitted.contains(*example))
            .count() as u64
    });
    QuestionEvaluation {
        failed: figures.failed,
        excluded_fitted,
        fitted_unknown: excluded.get(id).is_some_and(|(_, unknown)| *unknown),
        ..QuestionEvaluation::default()
    }
}

/// Each annotated example's ground truth for `questions`, as annotated now: example ID →
/// question ID → answer.
fn ground_truth(
    ctx: &Context,
    model_id: &crate::ids::ModelId,
    questions: &[String],
) -> Result<HashMap<String, HashMap<String, Value>>> {
    let mut truth = HashMap::new();
    let filter = ExampleFilter {
        annotated: Some(true),
        question: None,
        ..Default::default()
    };
    ctx.store()?
        .for_each_example(model_id, &filter, &mut |example| {
            let answers = example
                .annotations
                .into_iter()
                .filter(|(q, _)| questions.contains(q))
                .map(|(q, a)| (q, a.answer))
                .collect();
            truth.insert(example.example_id.into_string(), answers);
            Ok(())
        })?;
    Ok(truth)
}

/// Per question: the examples an alignment at either side was fitted on, left out of both,
/// so the figures and their difference are on examples neither has seen; and whether an
/// aligned question has no record here of what it was fitted on.
fn fitted_examples<'a>(
    ctx: &Context,
    sides: &'a [Side],
) -> Result<HashMap<&'a str, (HashSet<String>, bool)>> {
    let mut excluded: HashMap<&str, (HashSet<String>, bool)> = HashMap::new();
    let store = ctx.store()?;
    for side in sides {
        for (id, question) in &side.questions {
            let found = match fit_record(question) {
                FitRecord::None => continue,
                FitRecord::Unrecorded => None,
                FitRecord::Id(fit) => store.fitted_examples(&fit)?,
            };
            let entry = excluded.entry(id.as_str()).or_default();
            match found {
                Some(fitted) => entry.0.extend(fitted),
                // Aligned, but with no record here of what it was fitted on.
                None => entry.1 = true,
            }
        }
    }
    Ok(excluded)
}

/// The `overall` of a report: the example-weighted mean over the questions evaluated;
/// itself not evaluated when none was.
fn overall_of(
    questions: &IndexMap<String, QuestionEvaluation>,
    with_baseline: bool,
) -> QuestionEvaluation {
    let evaluated: Vec<&QuestionEvaluation> = questions
        .values()
        .filter(|q| q.status == EvaluationStatus::Evaluated)
        .collect();
    let mut summary = QuestionEvaluation {
        metrics: Some(overall(evaluated.iter().filter_map(|q| q.metrics.as_ref()))),
        baseline: with_baseline
            .then(|| overall(evaluated.iter().filter_map(|q| q.baseline.as_ref()))),
        failed: questions.values().map(|q| q.failed).sum(),
        excluded_fitted: questions.values().map(|q| q.excluded_fitted).sum(),
        fitted_unknown: questions.values().any(|q| q.fitted_unknown),
        ..QuestionEvaluation::default()
    };
    if evaluated.is_empty() {
        summary.status = EvaluationStatus::NotEvaluated;
        summary.reason = Some("no question was evaluated".to_owned());
        summary.metrics = None;
        summary.baseline = None;
    }
    summary
}

/// What an evaluation knows of the examples a question was fitted on.
enum FitRecord {
    /// Not aligned: fitted on nothing.
    None,
    /// Aligned without a fit ID (an alignment of before held-out splits, fitted on every
    /// example).
    Unrecorded,
    /// Aligned, with the fit ID its learned file names.
    Id(String),
}

fn fit_record(question: &crate::wire::Question) -> FitRecord {
    match AlignedInstructions::read(
        question.instructions.as_ref(),
        &question.kind,
        &crate::wire::Loc::body(),
    ) {
        Ok(Some(read)) => read
            .arbiter_alignment
            .fitted
            .map_or(FitRecord::Unrecorded, |fitted| FitRecord::Id(fitted.id)),
        // A checkpoint that loaded was checked already; unreadable here means unaligned.
        Ok(None) | Err(_) => FitRecord::None,
    }
}

/// One question at one side: its figures (none when no example was scored), its
/// predictions by example ID (for the paired change from the baseline), and what became of
/// its annotated examples.
#[derive(Clone)]
struct QuestionFigures {
    metrics: Option<Metrics>,
    out_of_fold: Option<Metrics>,
    fresh: Option<Metrics>,
    scored: HashMap<String, Scored>,
    counts: Unscored,
    failed: u64,
}

/// A question's annotated examples that were not scored, by why.
#[derive(Clone, Copy, Default)]
struct Unscored {
    /// Annotated for the question (scored or not).
    annotated: u64,
    /// Left out: an alignment was fitted on them.
    fitted: u64,
    /// Annotated with an answer the question, as it is at this checkpoint, does not have.
    unreadable: u64,
}

impl QuestionFigures {
    /// Why nothing was scored, for people.
    fn why_unscored(&self) -> String {
        let Unscored {
            annotated,
            fitted,
            unreadable,
        } = self.counts;
        if annotated == 0 {
            return "no annotated examples".to_owned();
        }
        let mut parts = Vec::new();
        if fitted > 0 {
            parts.push(format!(
                "{fitted} fitted on by an alignment (--include-fitted scores them)"
            ));
        }
        if self.failed > 0 {
            parts.push(format!("{} failed to be decided", self.failed));
        }
        if unreadable > 0 {
            parts.push(format!(
                "{unreadable} annotated with an answer the question does not have here"
            ));
        }
        format!(
            "none of its {annotated} annotated examples could be scored: {}",
            parts.join(", ")
        )
    }
}

/// Per question: the figures of one side's results.
type SideFigures = IndexMap<String, QuestionFigures>;

/// One question's scored examples (ID, scored, whether by its out-of-fold answer), how
/// many failed, and what was not scored.
type ScoredExamples = (Vec<(String, Scored, bool)>, u64, Unscored);

/// Per question: the figures of one side's results; and how many decisions were
/// (decided, cached).
fn side_metrics(
    ctx: &Context,
    job_id: &crate::ids::JobId,
    side: &Side,
    truth: &HashMap<String, HashMap<String, Value>>,
    excluded: &HashMap<&str, (HashSet<String>, bool)>,
    include_fitted: bool,
) -> Result<(SideFigures, (u64, u64))> {
    let mut counts = (0, 0);
    // Per question: (example ID, scored, whether out of fold), and the failures.
    let mut scored: IndexMap<String, ScoredExamples> = side
        .questions
        .keys()
        .map(|id| (id.clone(), (Vec::new(), 0, Unscored::default())))
        .collect();
    crate::core::jobs::lines::for_each(ctx, job_id, side.results, 0, &mut |_, line| {
        let Ok(value) = serde_json::from_slice::<Value>(line) else {
            return Ok(());
        };
        if value["cached"] == Value::Bool(true) {
            counts.1 += 1;
        } else if value.get("answers").is_some() {
            counts.0 += 1;
        }
        let Some(example_id) = value["example_id"].as_str() else {
            return Ok(());
        };
        let Some(annotations) = truth.get(example_id) else {
            return Ok(());
        };
        let answers: Option<Answers> = serde_json::from_value(value["answers"].clone()).ok();
        for (id, examples) in &mut scored {
            let (Some(question), Some(annotated)) = (side.questions.get(id), annotations.get(id))
            else {
                continue;
            };
            let fitted = excluded
                .get(id.as_str())
                .is_some_and(|(fitted, _)| fitted.contains(example_id));
            let answer = answers.as_ref().and_then(|a| a.get(id));
            let example = Example {
                id: example_id,
                annotated,
                answer,
                fitted,
            };
            let head = side.loaded.heads.get(id).map(AsRef::as_ref);
            score(&example, (question, head), include_fitted, examples);
        }
        Ok(())
    })?;
    let metrics = scored
        .into_iter()
        .map(|(id, examples)| {
            let has_head = side.loaded.heads.get(&id).is_some();
            let question = (&side.questions[&id], has_head);
            let figures = figures_of(&id, question, examples, include_fitted);
            (id, figures)
        })
        .collect();
    Ok((metrics, counts))
}

/// One annotated example of a question, as a side's results give it.
struct Example<'a> {
    id: &'a str,
    annotated: &'a Value,
    /// The answer decided at this side; none when the decision failed.
    answer: Option<&'a crate::wire::Answer>,
    /// An alignment at either side was fitted on it: it is left out.
    fitted: bool,
}

/// Score `example` for `question` into `into`, or count why it cannot be. An example a head
/// was fitted on is scored by the answer it got out of fold (a head fitted without it),
/// never by the head that saw its label.
fn score(
    example: &Example<'_>,
    (question, head): (&crate::wire::Question, Option<&Learned>),
    include_fitted: bool,
    into: &mut ScoredExamples,
) {
    let (list, failed, unscored) = into;
    unscored.annotated += 1;
    if example.fitted {
        unscored.fitted += 1;
        return;
    }
    let Some(label) = label_of(&question.kind, example.annotated) else {
        unscored.unreadable += 1;
        return;
    };
    let out_of_fold = head
        .filter(|_| !include_fitted)
        .and_then(|learned| learned.out_of_fold(example.id));
    let (predicted, oof) = match (out_of_fold, example.answer) {
        (Some(answer), _) => (answer.to_vec(), true),
        (None, Some(answer)) => {
            let outcomes = outcome_keys(&question.kind).len();
            (predicted_of(answer, outcomes), false)
        }
        (None, None) => {
            *failed += 1;
            return;
        }
    };
    list.push((example.id.to_owned(), Scored { predicted, label }, oof));
}

/// Question `id`'s figures from its scored `examples`. A question with a head is also
/// measured apart on the examples it was fitted on (out of fold) and on those annotated
/// since (fresh), unless fitted examples are scored as the others (`include_fitted`).
fn figures_of(
    id: &str,
    (question, has_head): (&crate::wire::Question, bool),
    examples: ScoredExamples,
    include_fitted: bool,
) -> QuestionFigures {
    let (list, failed, counts) = examples;
    let scale = scale_of(&question.kind);
    let outcomes = outcome_keys(&question.kind).len();
    let figures_of = |part: &dyn Fn(bool) -> bool| -> Metrics {
        let in_order: Vec<Scored> = list
            .iter()
            .filter(|(_, _, oof)| part(*oof))
            .map(|(_, s, _)| s.clone())
            .collect();
        Metrics::compute(scale, outcomes, &in_order)
            .with_uncertainty(scale, &in_order, id)
            .with_diagrams(outcomes, &in_order)
    };
    // Nothing scored is nothing measured: no figures, not figures of zero.
    let any = !list.is_empty();
    let parts = any && has_head && !include_fitted;
    QuestionFigures {
        metrics: any.then(|| figures_of(&|_| true)),
        out_of_fold: parts.then(|| figures_of(&|oof| oof)),
        fresh: parts.then(|| figures_of(&|oof| !oof)),
        scored: list.into_iter().map(|(e, s, _)| (e, s)).collect(),
        counts,
        failed,
    }
}

/// The change from the baseline's predictions to the revision's, over the examples both
/// scored (in the revision's order, so the resampling is reproducible).
fn paired_delta(
    scale: Scale,
    revision: &QuestionFigures,
    baseline: &QuestionFigures,
    question_id: &str,
    order: &[String],
) -> Option<Delta> {
    let (before, after): (Vec<Scored>, Vec<Scored>) = order
        .iter()
        .filter_map(|id| {
            Some((
                baseline.scored.get(id)?.clone(),
                revision.scored.get(id)?.clone(),
            ))
        })
        .unzip();
    (!before.is_empty()).then(|| metrics::delta(scale, &before, &after, question_id))
}

/// The examples both sides scored whose most likely outcomes differ, in example ID order.
fn disagreements(
    revision: &QuestionFigures,
    baseline: &QuestionFigures,
    outcomes: &[String],
    order: &[String],
) -> Disagreements {
    let name = |index: usize| outcomes.get(index).cloned().unwrap_or_default();
    let mut found = Disagreements::default();
    for id in order {
        let (Some(at), Some(before)) = (revision.scored.get(id), baseline.scored.get(id)) else {
            continue;
        };
        let (now, then) = (at.predicted_index(), before.predicted_index());
        if now == then {
            continue;
        }
        found.count += 1;
        if found.examples.len() < MAX_DISAGREEMENTS {
            found.examples.push(Disagreement {
                example_id: id.clone(),
                label: name(at.label_index()),
                revision: name(now),
                revision_probability: at.confidence(),
                baseline: name(then),
                baseline_probability: before.confidence(),
            });
        }
    }
    found
}

/// The example-weighted mean of each figure over questions (`metric` is `mixed` when the
/// questions' primary metrics differ).
fn overall<'a>(all: impl Iterator<Item = &'a Metrics>) -> Metrics {
    let all: Vec<&Metrics> = all.collect();
    let n: u64 = all.iter().map(|m| m.examples).sum();
    if n == 0 {
        return Metrics::default();
    }
    let mean = |f: &dyn Fn(&Metrics) -> f64| {
        all.iter().map(|m| f(m) * m.examples as f64).sum::<f64>() / n as f64
    };
    let metric = match all.first() {
        Some(first) if all.iter().all(|m| m.metric == first.metric) => first.metric.clone(),
        _ => "mixed".to_owned(),
    };
    Metrics {
        examples: n,
        metric,
        loss: mean(&|m| m.loss),
        log_loss: mean(&|m| m.log_loss),
        accuracy: mean(&|m| m.accuracy),
        macro_f1: mean(&|m| m.macro_f1),
        kappa: mean(&|m| m.kappa),
        brier: mean(&|m| m.brier),
        ece: mean(&|m| m.ece),
        mae: None,
        rps: None,
        ..Metrics::default()
    }
}

#[cfg(test)]
mod tests;
