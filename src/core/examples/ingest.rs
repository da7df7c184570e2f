//! Bulk ingest: examples (with their annotations) from JSON Lines or one JSON array.

use super::annotate::checked_annotation;
use super::values::Values;
use crate::core::Context;
use crate::core::models::{self, Loaded};
use crate::error::Result;
use crate::ids::ModelRef;
use crate::store::{IngestCounts, IngestItem, StoreError};
use crate::wire::Questions;
use crate::wire::examples::{
    AnnotationInput, IngestAnnotations, IngestExample, IngestReport, RejectedLine, reason,
};
use crate::wire::value::derived_example_id;
use serde_json::Value;
use std::io::BufRead;

/// Ingest examples from `input` (JSON Lines, or one JSON array), streaming JSON Lines in
/// constant memory. Bad lines are reported with their numbers; the valid ones are written,
/// unless `atomic`, when one bad line writes nothing. An annotation that names no annotator
/// is `annotator`'s.
pub fn ingest(
    ctx: &Context,
    model: &ModelRef,
    annotator: &str,
    input: &mut dyn BufRead,
    atomic: bool,
    progress: &mut dyn FnMut(&IngestCounts),
) -> Result<IngestReport> {
    let loaded = models::load(ctx, model, None)?;
    let mut rejected = Vec::new();
    let mut items = parse_items(input, &loaded, annotator, &mut rejected, atomic);
    let result = ctx
        .store()?
        .ingest(&loaded.model_id, &mut items, atomic, progress);
    drop(items);
    match result {
        Ok(counts) => Ok(IngestReport {
            committed: true,
            created: counts.created,
            existing: counts.existing,
            annotations: counts.annotations,
            rejected,
        }),
        Err(StoreError::Corrupt { what, .. }) if what == ABORT && !rejected.is_empty() => {
            Ok(IngestReport {
                committed: false,
                rejected,
                ..IngestReport::default()
            })
        }
        Err(error) => Err(error.into()),
    }
}

/// Every item of `input` (JSON Lines, or one JSON array), each checked against
/// `questions` as an ingest checks it, an annotation that names no annotator being
/// `annotator`'s; else every line that is not one, with why. What a model repository's
/// labels file is read with: whole, or not at all.
pub(crate) fn read_items(
    input: &mut dyn BufRead,
    questions: &Questions,
    annotator: &str,
) -> std::result::Result<Vec<IngestItem>, Vec<RejectedLine>> {
    let mut source = Values::new(input);
    let mut items = Vec::new();
    let mut rejected = Vec::new();
    while let Some((line, value)) = source.next_value() {
        let item = value.map_err(|reason| (None, reason)).and_then(|value| {
            ingest_item(&value, questions, annotator).map_err(|r| (example_id_of(&value), r))
        });
        match item {
            Ok(item) => items.push(item),
            Err((example_id, reason)) => rejected.push(RejectedLine {
                line,
                example_id,
                reason,
            }),
        }
    }
    if rejected.is_empty() {
        Ok(items)
    } else {
        Err(rejected)
    }
}

/// Marks the error an atomic ingest yields to roll back after a bad line.
const ABORT: &str = "ingest input";

/// Items from JSON Lines or a JSON array, validating each; bad ones go to `rejected`.
fn parse_items<'a>(
    input: &'a mut dyn BufRead,
    loaded: &'a Loaded,
    annotator: &'a str,
    rejected: &'a mut Vec<RejectedLine>,
    atomic: bool,
) -> impl Iterator<Item = std::result::Result<IngestItem, StoreError>> + 'a {
    let mut source = Values::new(input);
    let mut aborted = false;
    std::iter::from_fn(move || {
        loop {
            match source.next_value() {
                Some((line, Ok(value))) => {
                    match ingest_item(&value, &loaded.questions, annotator) {
                        Ok(item) => return Some(Ok(item)),
                        Err(reason) => rejected.push(RejectedLine {
                            line,
                            example_id: example_id_of(&value),
                            reason,
                        }),
                    }
                }
                Some((line, Err(reason))) => rejected.push(RejectedLine {
                    line,
                    example_id: None,
                    reason,
                }),
                None if atomic && !rejected.is_empty() && !aborted => {
                    aborted = true;
                    return Some(Err(StoreError::Corrupt {
                        what: ABORT.into(),
                        reason: format!("{} bad lines", rejected.len()),
                    }));
                }
                None => return None,
            }
        }
    })
}

fn example_id_of(value: &Value) -> Option<String> {
    value
        .get("example_id")
        .and_then(Value::as_str)
        .map(str::to_owned)
}

/// One ingest item, its answers checked against the questions; an annotation that names
/// no annotator is `annotator`'s.
fn ingest_item(
    value: &Value,
    questions: &Questions,
    annotator: &str,
) -> std::result::Result<IngestItem, String> {
    let example = IngestExample::read(value).map_err(|invalid| reason(&invalid))?;
    let mut annotations = Vec::new();
    for (question_id, given) in example.annotations {
        let many = matches!(given, IngestAnnotations::Many(_));
        for (index, one) in given.into_vec().into_iter().enumerate() {
            let input = AnnotationInput {
                answer: one.answer,
                reasoning: one.reasoning,
            };
            let by = one.annotator.as_deref().unwrap_or(annotator);
            let checked = checked_annotation(question_id.clone(), input, by, questions);
            // Located as the line gave it: `annotations.q.answer`, `annotations.q[1].answer`.
            annotations.push(checked.map_err(|e| {
                if many {
                    e.replacen(
                        &format!("annotations.{question_id}."),
                        &format!("annotations.{question_id}[{index}]."),
                        1,
                    )
                } else {
                    e
                }
            })?);
        }
    }
    Ok(IngestItem {
        example_id: example
            .example_id
            .unwrap_or_else(|| derived_example_id(&example.state))
            .into(),
        state: example.state,
        annotations,
    })
}
