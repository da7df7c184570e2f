//! Examples of a repository model: bulk ingest (JSONL or a JSON array), annotation with
//! ground truth, listing, showing and export. Ground truth is checked against the
//! questions at the model's default branch. Every annotation is an annotator's: the caller
//! names them (the token's name over HTTP; `--annotator` or the local user on a home), and
//! an ingest or annotation line may name its own.

use super::Context;
use super::models::{self, Loaded};
use crate::error::{Error, Result};
use crate::store::{self, ExampleFilter, IngestCounts, IngestItem, NewAnnotation, StoreError};
use crate::wire::Loc;
use crate::wire::examples::{
    Annotation, AnnotationInput, AnnotationLine, AnnotationsPatch, Decision, Example,
    ExampleDetail, ExamplePage, IngestAnnotation, IngestAnnotations, IngestExample, IngestReport,
    RejectedLine, Vote,
};
use crate::wire::json::{self, JsonError};
use crate::wire::value::derived_example_id;
use crate::wire::{Question, QuestionKind, Questions};
use serde_json::Value;
use std::io::BufRead;

/// Ingest examples from `input` (JSON Lines, or one JSON array), streaming JSON Lines in
/// constant memory. Bad lines are reported with their numbers; the valid ones are written,
/// unless `atomic`, when one bad line writes nothing. An annotation that names no annotator
/// is `annotator`'s.
pub fn ingest(
    ctx: &Context,
    model: &str,
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
    let mut source = Source::new(input);
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

/// Values from JSON Lines (one per non-blank line) or a JSON array (read whole).
struct Source<'a> {
    input: &'a mut dyn BufRead,
    line: u64,
    array: Option<std::vec::IntoIter<Value>>,
    buffer: String,
    started: bool,
}

impl<'a> Source<'a> {
    fn new(input: &'a mut dyn BufRead) -> Self {
        Self {
            input,
            line: 0,
            array: None,
            buffer: String::new(),
            started: false,
        }
    }

    fn next_value(&mut self) -> Option<(u64, std::result::Result<Value, String>)> {
        if !self.started {
            self.started = true;
            if let Err(reason) = self.detect_array() {
                return Some((1, Err(reason)));
            }
        }
        if let Some(array) = &mut self.array {
            self.line += 1;
            return array.next().map(|v| (self.line, Ok(v)));
        }
        loop {
            self.buffer.clear();
            self.line += 1;
            match self.input.read_line(&mut self.buffer) {
                Ok(0) => return None,
                Ok(_) if self.buffer.trim().is_empty() => {}
                Ok(_) => {
                    let parsed = json::from_str(self.buffer.trim(), &Loc::default())
                        .map_err(|e| e.to_string());
                    return Some((self.line, parsed));
                }
                Err(e) => return Some((self.line, Err(format!("cannot read: {e}")))),
            }
        }
    }

    /// A document whose first non-blank byte is `[` is one JSON array.
    fn detect_array(&mut self) -> std::result::Result<(), String> {
        let first = loop {
            let buffer = self
                .input
                .fill_buf()
                .map_err(|e| format!("cannot read: {e}"))?;
            match buffer.iter().position(|b| !b.is_ascii_whitespace()) {
                Some(i) => break Some(buffer[i]),
                None if buffer.is_empty() => break None,
                None => {
                    let n = buffer.len();
                    self.input.consume(n);
                }
            }
        };
        if first == Some(b'[') {
            let mut text = Vec::new();
            self.input
                .read_to_end(&mut text)
                .map_err(|e| format!("cannot read: {e}"))?;
            let values = match json::from_slice(&text, &Loc::default()) {
                Ok(Value::Array(values)) => values,
                Err(JsonError::Syntax(e)) => return Err(format!("not a valid JSON array: {e}")),
                // Only an array starts with `[`.
                Ok(_) => return Err("not a valid JSON array".to_owned()),
                Err(duplicate) => return Err(duplicate.to_string()),
            };
            self.array = Some(values.into_iter());
        }
        Ok(())
    }
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
    let example = IngestExample::from_value(value)?;
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
            .unwrap_or_else(|| derived_example_id(&example.state)),
        state: example.state,
        annotations,
    })
}

/// `annotator`'s annotation, its answer checked against its question.
fn checked_annotation(
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
/// `--answer 2` names option `"2"`.
pub fn annotate(
    ctx: &Context,
    model: &str,
    example_id: &str,
    mut annotation: NewAnnotation,
) -> Result<Annotation> {
    let loaded = models::load(ctx, model, None)?;
    coerce_choice_answer(
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
    Ok(ctx
        .store()?
        .annotate(&loaded.model_id, example_id, &annotation)?
        .into())
}

/// A choice answer given as a number or boolean names the option of that text: a command
/// line's `--answer 2` (which reads as the JSON number 2) names option `"2"`.
fn coerce_choice_answer(questions: &Questions, question_id: &str, answer: &mut Value) {
    if let Some(QuestionKind::Choice { .. }) = questions.get(question_id).map(|q| &q.kind)
        && matches!(answer, Value::Number(_) | Value::Bool(_))
    {
        *answer = Value::String(answer.to_string());
    }
}

/// `annotator`'s answers to several questions of one example at once (`PATCH
/// …/annotations`): all or nothing, every problem located at its question (`["body",
/// question, "answer"]`, as [`annotate`] locates its one) before anything is written. As in
/// [`annotate`], a choice answer given as a number or boolean names the option of that text.
pub fn annotate_example(
    ctx: &Context,
    model: &str,
    example_id: &str,
    annotator: &str,
    body: &Value,
) -> Result<ExampleDetail> {
    let loaded = models::load(ctx, model, None)?;
    let mut errors = Vec::new();
    let patch = AnnotationsPatch::read(body, &mut errors);
    let mut items: Vec<(String, NewAnnotation)> = Vec::new();
    for (
        question_id,
        AnnotationInput {
            mut answer,
            reasoning,
        },
    ) in patch.annotations
    {
        coerce_choice_answer(&loaded.questions, &question_id, &mut answer);
        if let Err(e) = check_answer(&loaded.questions, &question_id, &answer) {
            let loc = crate::wire::Loc::body().key(&question_id).key("answer");
            errors.push(crate::wire::FieldError::new(loc, e, "answer"));
            continue;
        }
        items.push((
            example_id.to_owned(),
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
    show(ctx, model, example_id)
}

/// Bulk annotation from JSON Lines `{example_id, question, answer, reasoning?, annotator?}`;
/// a line that names no annotator is `annotator`'s.
pub fn annotate_lines(
    ctx: &Context,
    model: &str,
    annotator: &str,
    input: &mut dyn BufRead,
) -> Result<IngestReport> {
    let loaded = models::load(ctx, model, None)?;
    let store = ctx.store()?;
    let mut report = IngestReport {
        committed: true,
        ..IngestReport::default()
    };
    let mut source = Source::new(input);
    let mut batch: Vec<(u64, String, NewAnnotation)> = Vec::new();
    let flush =
        |batch: &mut Vec<(u64, String, NewAnnotation)>, report: &mut IngestReport| -> Result<()> {
            let items: Vec<(String, NewAnnotation)> = batch
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
                        example_id: Some(id),
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
) -> std::result::Result<(String, NewAnnotation), String> {
    let line = AnnotationLine::from_value(value)?;
    let by = line.annotator.as_deref().unwrap_or(annotator);
    let annotation = checked_annotation(line.question, line.annotation, by, questions)?;
    Ok((line.example_id, annotation))
}

/// A page of examples in example ID order.
pub fn list(
    ctx: &Context,
    model: &str,
    filter: &ExampleFilter,
    after: Option<&str>,
    limit: usize,
) -> Result<ExamplePage> {
    let repo = models::open(ctx, model)?;
    let model_id = repo.model_id();
    let limit = limit.clamp(1, 1_000);
    let mut examples = ctx
        .store()?
        .list_examples(&model_id, filter, after, limit + 1)?;
    let next_cursor = if examples.len() > limit {
        examples.truncate(limit);
        examples.last().map(|e| e.example_id.to_string())
    } else {
        None
    };
    Ok(ExamplePage {
        examples: examples.into_iter().map(Into::into).collect(),
        next_cursor,
    })
}

/// The example ID that `text` names on the command line: `text` when an example has it,
/// else the one ID that starts with it ([`super::prefix`]). An ID always names itself, even
/// where it starts other IDs. Text that starts no ID goes on as it is, so the operation's
/// own answer says it is not found (after its other checks, as with a whole ID). The HTTP
/// routes take whole IDs only; a client resolves with [`id_prefix`] and [`unique`] over the
/// page of examples after the prefix.
pub fn resolve_id(ctx: &Context, model: &str, text: &str) -> Result<String> {
    let repo = models::open(ctx, model)?;
    let store = ctx.store()?;
    if store.get_example(&repo.model_id(), text)?.is_some() {
        return Ok(text.to_owned());
    }
    let prefix = id_prefix(text)?;
    let after = store.list_examples(
        &repo.model_id(),
        &ExampleFilter::default(),
        Some(prefix),
        super::prefix::CANDIDATES,
    )?;
    unique(
        prefix,
        after.into_iter().map(|e| e.example_id.into_string()),
    )
}

/// `text`, which names no example whole, as an example ID prefix: refused as too short
/// under [`super::prefix::MIN_PREFIX`] characters.
pub fn id_prefix(text: &str) -> Result<&str> {
    super::prefix::long_enough("example", text)
}

/// The one example ID among `candidates` that starts with `prefix`; `prefix` itself when
/// none does (it names no example: the operation says so); an error naming them when
/// several do. The candidates are the first IDs after `prefix` in ID order (byte order, on
/// either store), where the IDs that start with it come first.
pub fn unique(prefix: &str, candidates: impl IntoIterator<Item = String>) -> Result<String> {
    super::prefix::unique("example", prefix, candidates, || Ok(prefix.to_owned()))
}

/// One example with its annotations and decisions.
pub fn show(ctx: &Context, model: &str, example_id: &str) -> Result<ExampleDetail> {
    let repo = models::open(ctx, model)?;
    ctx.store()?
        .get_example(&repo.model_id(), example_id)?
        .map(Into::into)
        .ok_or_else(|| Error::ExampleNotFound(example_id.to_owned()))
}

/// Every example, streamed in the ingest format, so `export | ingest` round-trips.
pub fn export(
    ctx: &Context,
    model: &str,
    filter: &ExampleFilter,
    write: &mut dyn FnMut(&IngestExample) -> Result<()>,
) -> Result<u64> {
    let repo = models::open(ctx, model)?;
    let mut count = 0;
    let mut failure = None;
    let result = ctx
        .store()?
        .for_each_example(&repo.model_id(), filter, &mut |example| {
            let line = export_line(&Example::from(example));
            count += 1;
            write(&line).map_err(|e| {
                failure = Some(e);
                StoreError::Corrupt {
                    what: "export".into(),
                    reason: "writer failed".into(),
                }
            })
        });
    if let Some(error) = failure {
        return Err(error);
    }
    result?;
    Ok(count)
}

/// An example as an ingest line: `{example_id, state, annotations}`, each question with
/// every annotator's answer, oldest first (one object for one annotator, else a list), so
/// that ingesting it keeps each annotator's answer and resolves to the same majority.
pub fn export_line(example: &Example) -> IngestExample {
    IngestExample {
        example_id: Some(example.example_id.clone()),
        state: example.state.clone(),
        annotations: example
            .annotations
            .iter()
            .map(|(question, annotation)| (question.clone(), export_annotations(annotation)))
            .collect(),
    }
}

fn export_annotations(annotation: &Annotation) -> IngestAnnotations {
    let vote = |v: &Vote| IngestAnnotation {
        answer: v.answer.clone(),
        reasoning: v.reasoning.clone(),
        annotator: Some(v.annotator.clone()),
    };
    match annotation.votes.as_slice() {
        [one] => IngestAnnotations::One(vote(one)),
        // A server that does not list votes: its resolved answer alone.
        [] => IngestAnnotations::One(IngestAnnotation {
            answer: annotation.answer.clone(),
            reasoning: annotation.reasoning.clone(),
            annotator: Some(annotation.annotator.clone()).filter(|name| !name.is_empty()),
        }),
        many => IngestAnnotations::Many(many.iter().map(vote).collect()),
    }
}

// The store's records, as the contract serves them.

impl From<store::Example> for Example {
    fn from(example: store::Example) -> Self {
        Self {
            example_id: example.example_id.into_string(),
            state: example.state,
            created_at: example.created_at,
            annotations: example
                .annotations
                .into_iter()
                .map(|(question, annotation)| (question, annotation.into()))
                .collect(),
        }
    }
}

impl From<store::Annotation> for Annotation {
    fn from(annotation: store::Annotation) -> Self {
        Self {
            answer: annotation.answer,
            reasoning: annotation.reasoning,
            annotated_at: annotation.annotated_at,
            annotator: annotation.annotator,
            votes: annotation.votes.into_iter().map(Into::into).collect(),
        }
    }
}

impl From<store::Vote> for Vote {
    fn from(vote: store::Vote) -> Self {
        Self {
            annotator: vote.annotator,
            answer: vote.answer,
            reasoning: vote.reasoning,
            annotated_at: vote.annotated_at,
        }
    }
}

impl From<store::Decision> for Decision {
    fn from(decision: store::Decision) -> Self {
        Self {
            decision_id: decision.decision_id,
            example_id: decision.example_id,
            checkpoint: decision.checkpoint,
            revision_name: decision.revision_name,
            revision_kind: decision.revision_kind,
            questions: decision.questions,
            answers: decision.answers,
            input_tokens: decision.input_tokens,
            output_tokens: decision.output_tokens,
            request_id: decision.request_id,
            created_at: decision.created_at,
        }
    }
}

impl From<store::ExampleDetail> for ExampleDetail {
    fn from(detail: store::ExampleDetail) -> Self {
        Self {
            example: detail.example.into(),
            decisions: detail.decisions.into_iter().map(Into::into).collect(),
        }
    }
}
