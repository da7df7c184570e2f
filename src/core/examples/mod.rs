//! Examples of a repository model: bulk ingest (JSONL or a JSON array), annotation with
//! ground truth, listing, showing and export. Ground truth is checked against the
//! questions at the model's default branch. Every annotation is an annotator's: the caller
//! names them (the token's name over HTTP; `--annotator` or the local user on a home), and
//! an ingest or annotation line may name its own.

mod annotate;
pub mod disagreements;
mod ingest;
pub mod retention;
mod values;

pub use annotate::{annotate, annotate_example, annotate_lines, check_answer, level_index};
pub use ingest::ingest;
pub(crate) use ingest::read_items;

use super::Context;
use super::models;
use crate::error::{Error, Result};
use crate::ids::{ExampleId, ModelRef};
use crate::store::{ExampleFilter, StoreError};
use crate::wire::examples::{
    Annotation, Example, ExampleDetail, ExamplePage, IngestAnnotation, IngestAnnotations,
    IngestExample, Vote,
};

/// A page of examples in example ID order.
pub fn list(
    ctx: &Context,
    model: &ModelRef,
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
        examples,
        next_cursor,
    })
}

/// The example ID that `text` names on the command line: `text` when an example has it,
/// else the one ID that starts with it ([`super::prefix`]). An ID always names itself, even
/// where it starts other IDs. Text that starts no ID goes on as it is, so the operation's
/// own answer says it is not found (after its other checks, as with a whole ID). The HTTP
/// routes take whole IDs only; a client resolves with [`id_prefix`] and [`unique`] over the
/// page of examples after the prefix.
pub fn resolve_id(ctx: &Context, model: &ModelRef, text: &str) -> Result<ExampleId> {
    let repo = models::open(ctx, model)?;
    let store = ctx.store()?;
    let whole = ExampleId::from(text);
    if store.get_example(&repo.model_id(), &whole)?.is_some() {
        return Ok(whole);
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
pub fn unique(prefix: &str, candidates: impl IntoIterator<Item = String>) -> Result<ExampleId> {
    let candidates = candidates.into_iter().map(ExampleId::from);
    super::prefix::unique("example", prefix, candidates, || {
        Ok(ExampleId::from(prefix))
    })
}

/// One example with its annotations and decisions.
pub fn show(ctx: &Context, model: &ModelRef, example_id: &ExampleId) -> Result<ExampleDetail> {
    let repo = models::open(ctx, model)?;
    ctx.store()?
        .get_example(&repo.model_id(), example_id)?
        .ok_or_else(|| Error::ExampleNotFound(example_id.to_string()))
}

/// Delete `example_ids` of `model` with everything recorded of them (their decisions,
/// annotations, claims, and their states in the model's jobs' inputs), all or none: an
/// unknown ID is not found and nothing is deleted. Each deletion is recorded in the
/// model's history under `actor` (the example's ID, never its content).
pub fn delete(
    ctx: &Context,
    model: &ModelRef,
    example_ids: &[ExampleId],
    actor: &str,
) -> Result<()> {
    let repo = models::open(ctx, model)?;
    let model_id = repo.model_id();
    if let Some(missing) = ctx.store()?.delete_examples(&model_id, example_ids)? {
        return Err(Error::ExampleNotFound(missing));
    }
    for id in example_ids {
        let ref_name = format!("examples/{id}");
        super::registry::record(
            ctx,
            &model_id,
            &crate::store::NewRegistryEvent {
                action: crate::wire::registry::RegistryAction::Delete,
                ref_name: &ref_name,
                from: None,
                to: "",
                actor,
                evaluation: None,
            },
        )?;
    }
    Ok(())
}

/// Every example, streamed in the ingest format, so `export | ingest` round-trips.
pub fn export(
    ctx: &Context,
    model: &ModelRef,
    filter: &ExampleFilter,
    write: &mut dyn FnMut(&IngestExample) -> Result<()>,
) -> Result<u64> {
    let repo = models::open(ctx, model)?;
    let mut count = 0;
    let mut failure = None;
    let result = ctx
        .store()?
        .for_each_example(&repo.model_id(), filter, &mut |example| {
            let line = export_line(&example);
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
        example_id: Some(example.example_id.to_string()),
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
