//! Annotation: an annotator's answers checked against the questions at the default branch.

use super::show;
use super::values::Values;
use crate::core::Context;
use crate::core::models::{self};
use crate::error::{Error, Result};
use crate::ids::{ExampleId, ModelRef};
use crate::store::NewAnnotation;
use crate::wire::examples::{
    Annotation, AnnotationInput, AnnotationLine, AnnotationsPatch, ExampleDetail, IngestReport,
    RejectedLine, reason,
};
use crate::wire::{Question, QuestionKind, Questions};
use serde_json::Value;
use std::io::BufRead;

/// `annotator`'s annotation, its answer checked against its question.
pub(super) fn checked_annotation(
    question_id: String,
    input: AnnotationInput,
    annotator: &str,
    questions: &Questions,
) -> std::result::Result<NewAnnotation, String> {
    check_answer(questions, &question_id, &input.answer)
        .map_err(|e| format!("annotations.{question_id}.answer: {e}"))?;
    Ok(NewAnnotation {
        question_id,
        answer: input.answer,
        reasoning: input.reasoning,
        annotator: annotator.to_owned(),
    })
}

/// Whether `answer` is ground truth for question `id`: noul true/false or a probability,
/// choice an option key, score a level index.
pub fn check_answer(
    questions: &Questions,
    id: &str,
    answer: &Value,
) -> std::result::Result<(), String> {
    let question: &Question = questions
        .get(id)
        .ok_or_else(|| format!("no question `{id}` at the default branch"))?;
    match (&question.kind, answer) {
        (QuestionKind::Noul { .. }, Value::Bool(_)) => Ok(()),
        (QuestionKind::Noul { .. }, Value::Number(n))
            if n.as_f64().is_some_and(|p| (0.0..=1.0).contains(&p)) =>
        {
            Ok(())
        }
        (QuestionKind::Noul { .. }, other) => Err(format!(
            "{other} is not true, false or a probability from 0 to 1"
        )),
        (QuestionKind::Choice { options }, Value::String(key))
            if options.iter().any(|(k, _)| k == key) =>
        {
            Ok(())
        }
        (QuestionKind::Choice { options }, other) => Err(format!(
            "{other} is not an option of `{id}` ({})",
            options
                .iter()
                .map(|(k, _)| k.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        )),
        (QuestionKind::Score { levels }, Value::Number(n))
            if level_index(n).is_some_and(|i| i < levels.len()) =>
        {
            Ok(())
        }
        (QuestionKind::Score { levels }, other) => Err(format!(
            "{other} is not a level of `{id}` (an integer from 0 to {})",
            levels.len() - 1
        )),
    }
}

/// A score level given as a JSON number: a non-negative integer (`3` or `3.0`).
pub fn level_index(n: &serde_json::Number) -> Option<usize> {
    if let Some(i) = n.as_u64() {
        return usize::try_from(i).ok();
    }
    n.as_f64()
        .filter(|f| f.fract() == 0.0 && *f >= 0.0 && *f < 1e9)
        .map(|f| f as usize)
}

/// One annotator's answer to one question of one example (it replaces only their own);
/// returns the question's ground truth as it now stands, the majority of every annotator's.
///
/// A choice answer given as a number or boolean is read as its text, so a command line's
/// `--answer 2` names option `"2"`; a noul answer `yes` or `no` is `true` or `false`.
pub fn annotate(
    ctx: &Context,
    model: &ModelRef,
    example_id: &ExampleId,
    mut annotation: NewAnnotation,
) -> Result<Annotation> {
    let loaded = models::load(ctx, model, None)?;
    coerce_answer(
        &loaded.questions,
        &annotation.question_id,
        &mut annotation.answer,
    );
    check_answer(
        &loaded.questions,
        &annotation.question_id,
        &annotation.answer,
    )
    .map_err(|e| {
        Error::invalid(
            crate::wire::Loc::body()
                .key(&annotation.question_id)
                .key("answer"),
            e,
            "answer",
        )
    })?;
    let store = ctx.store()?;
    let annotation_now = store.annotate(&loaded.model_id, example_id, &annotation)?;
    renew_claim(ctx, &loaded.model_id, example_id, &annotation.annotator)?;
    Ok(annotation_now)
}

/// An annotator answering an example they hold ([`crate::core::claims`]) is still at work
/// on it: their claim is extended, so no one else is shown it meanwhile.
fn renew_claim(
    ctx: &Context,
    model_id: &crate::ids::ModelId,
    example_id: &ExampleId,
    annotator: &str,
) -> Result<()> {
    let ttl = crate::core::claims::CLAIM_TTL;
    ctx.store()?
        .renew_claim(model_id, example_id, annotator, ttl)?;
    Ok(())
}

/// An answer as a person types it, read as its question takes it: a choice answer given as
/// a number or boolean names the option of that text (a command line's `--answer 2`, which
/// reads as the JSON number 2, names option `"2"`), and a noul answer `yes` or `no` (as the
/// annotation screen labels its keys; any case) is `true` or `false`.
fn coerce_answer(questions: &Questions, question_id: &str, answer: &mut Value) {
    match (questions.get(question_id).map(|q| &q.kind), &*answer) {
        (Some(QuestionKind::Choice { .. }), Value::Number(_) | Value::Bool(_)) => {
            *answer = Value::String(answer.to_string());
        }
        (Some(QuestionKind::Noul { .. }), Value::String(text)) => {
            match text.trim().to_ascii_lowercase().as_str() {
                "yes" => *answer = Value::Bool(true),
                "no" => *answer = Value::Bool(false),
                _ => {}
            }
        }
        _ => {}
    }
}

/// `annotator`'s answers to several questions of one example at once (`PATCH
/// …/annotations`, its body read into `patch` without a fault): all or nothing, every
/// problem located at its question (`["body", question, "answer"]`, as [`annotate`] locates
/// its one) before anything is written. As in
/// [`annotate`], a choice answer given as a number or boolean names the option of that
/// text, and a noul answer `yes` or `no` is `true` or `false`.
pub fn annotate_example(
    ctx: &Context,
    model: &ModelRef,
    example_id: &ExampleId,
    annotator: &str,
    patch: AnnotationsPatch,
) -> Result<ExampleDetail> {
    let loaded = models::load(ctx, model, None)?;
    let mut errors = Vec::new();
    let mut items: Vec<(ExampleId, NewAnnotation)> = Vec::new();
    for (
        question_id,
        AnnotationInput {
            mut answer,
            reasoning,
        },
    ) in patch.annotations
    {
        coerce_answer(&loaded.questions, &question_id, &mut answer);
        if let Err(e) = check_answer(&loaded.questions, &question_id, &answer) {
            let loc = crate::wire::Loc::body().key(&question_id).key("answer");
            errors.push(crate::wire::FieldError::new(loc, e, "answer"));
            continue;
        }
        items.push((
            example_id.clone(),
            NewAnnotation {
                question_id,
                answer,
                reasoning,
                annotator: annotator.to_owned(),
            },
        ));
    }
    if !errors.is_empty() {
        return Err(Error::Validation(errors));
    }
    for result in ctx.store()?.annotate_many(&loaded.model_id, &items)? {
        result?;
    }
    renew_claim(ctx, &loaded.model_id, example_id, annotator)?;
    show(ctx, model, example_id)
}

/// Bulk annotation from JSON Lines `{example_id, question, answer, reasoning?, annotator?}`;
/// a line that names no annotator is `annotator`'s.
pub fn annotate_lines(
    ctx: &Context,
    model: &ModelRef,
    annotator: &str,
    input: &mut dyn BufRead,
) -> Result<IngestReport> {
    let loaded = models::load(ctx, model, None)?;
    let store = ctx.store()?;
    let mut report = IngestReport {
        committed: true,
        ..IngestReport::default()
    };
    let mut source = Values::new(input);
    let mut batch: Vec<(u64, ExampleId, NewAnnotation)> = Vec::new();
    let flush = |batch: &mut Vec<(u64, ExampleId, NewAnnotation)>,
                 report: &mut IngestReport|
     -> Result<()> {
        let items: Vec<(ExampleId, NewAnnotation)> = batch
            .iter()
            .map(|(_, id, a)| (id.clone(), a.clone()))
            .collect();
        for ((line, id, _), result) in batch
            .drain(..)
            .zip(store.annotate_many(&loaded.model_id, &items)?)
        {
            match result {
                Ok(()) => report.annotations += 1,
                Err(error) => report.rejected.push(RejectedLine {
                    line,
                    example_id: Some(id.into_string()),
                    reason: error.to_string(),
                }),
            }
        }
        Ok(())
    };
    while let Some((line, value)) = source.next_value() {
        match value.and_then(|v| annotation_line(&v, &loaded.questions, annotator)) {
            Ok((id, annotation)) => batch.push((line, id, annotation)),
            Err(reason) => report.rejected.push(RejectedLine {
                line,
                example_id: None,
                reason,
            }),
        }
        if batch.len() >= 1_000 {
            flush(&mut batch, &mut report)?;
        }
    }
    flush(&mut batch, &mut report)?;
    report.rejected.sort_by_key(|r| r.line);
    Ok(report)
}

fn annotation_line(
    value: &Value,
    questions: &Questions,
    annotator: &str,
) -> std::result::Result<(ExampleId, NewAnnotation), String> {
    let line = AnnotationLine::read(value).map_err(|invalid| reason(&invalid))?;
    let by = line.annotator.as_deref().unwrap_or(annotator);
    let annotation = checked_annotation(line.question, line.annotation, by, questions)?;
    Ok((line.example_id, annotation))
}
