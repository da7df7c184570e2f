//! The next example for one annotator (`arbiter annotate`, `POST …/annotation-claims`):
//! the picks of `examples next` in their order (least certain first, the audit share
//! spread among them), less those this annotator skipped and those other annotators hold.
//! An `uncertain` pick is claimed for the annotator ([`CLAIM_TTL`], renewed by each of their
//! answers to it; released when they are done with it, skip or leave it), so two annotators
//! are never shown it at once; an `audit`
//! pick is not held, since a second annotator answering it is how agreement is measured.

use super::answer_cache::Gate;
use super::requests::ClaimNext;
use super::{Context, blocking};
use crate::error::{Error, Result};
use crate::ids::{ExampleId, ModelRef};
use crate::wire::claims::{ClaimedExample, NextToAnnotate};
use crate::wire::to_annotate::{MAX_N, Why};
use crate::wire::validate::{FieldError, Loc};
use std::collections::HashSet;
use std::time::Duration;

/// How long a claim holds an example after it was taken or last answered: long enough to
/// read a state and answer a question, short enough that one left by a killed flow frees
/// its example soon.
pub const CLAIM_TTL: Duration = Duration::from_mins(5);

/// Claim the next example of `model` for `annotator` (the request's, resolved by the
/// caller), as the request's query ranks them (its `n` is not used: the whole ranking is
/// walked), among the examples it chose, passing over those it skips and what other
/// annotators hold. Each engine call passes `gate`.
///
/// An ID of `chosen.only` that names no example of the model is refused (located at
/// `ids`, the body's name for it); one of `chosen.except` is ignored.
pub async fn next(
    ctx: &Context,
    model: &ModelRef,
    annotator: &str,
    request: &ClaimNext<'_>,
    gate: &dyn Gate,
) -> Result<NextToAnnotate> {
    let mut query = request.query.clone();
    query.n = MAX_N;
    if let Some(only) = request.chosen.only {
        let (ctx, model, only) = (ctx.clone(), model.clone(), only.to_vec());
        blocking(move || {
            let model_id = super::models::open(&ctx, &model)?.model_id();
            let missing = ctx.store()?.missing_examples(&model_id, &only)?;
            unknown_ids(&model, &only, &missing)
        })
        .await?;
    }
    let skip: HashSet<ExampleId> = request.skip.iter().cloned().collect();
    let mut deadline = request.deadline;
    loop {
        let ranking =
            super::to_annotate::rank(ctx, model, &query, request.chosen, None, gate, deadline)
                .await?;
        let cut = ranking.cut;
        let next = claim_first(ctx, annotator, skip.clone(), ranking).await?;
        if next.example.is_some() || !cut {
            return Ok(next);
        }
        // Every candidate ranked in time was passed over: rank the rest too, however long.
        deadline = None;
    }
}

/// The first of `ranking`'s picks that `annotator` may be shown: not in `skip`, and (an
/// uncertain pick) not held by another annotator; claimed for them.
async fn claim_first(
    ctx: &Context,
    annotator: &str,
    skip: HashSet<ExampleId>,
    ranking: super::to_annotate::Ranking,
) -> Result<NextToAnnotate> {
    let (ctx, annotator) = (ctx.clone(), annotator.to_owned());
    blocking(move || {
        let store = ctx.store()?;
        let model_id = ranking.model_id;
        let others: HashSet<String> = store
            .claimed_by_others(&model_id, &annotator)?
            .into_iter()
            .collect();
        let mut example = None;
        for (ranked, why) in ranking.picks {
            let id = ranked.example_id;
            if skip.contains(&id) || (why == Why::Uncertain && others.contains(id.as_str())) {
                continue;
            }
            let expires_at = match why {
                Why::Audit => None,
                Why::Uncertain => {
                    match store.claim_example(&model_id, &id, &annotator, CLAIM_TTL)? {
                        Some(until) => Some(until),
                        // Taken by another since the claims were read.
                        None => continue,
                    }
                }
            };
            let Some(state) = store.example_state(&model_id, &id)? else {
                store.release_claim(&model_id, &id, &annotator)?;
                continue;
            };
            example = Some(ClaimedExample {
                example_id: id,
                why,
                annotator: annotator.clone(),
                expires_at,
                answers: ranked.open.into_iter().collect(),
                state,
            });
            break;
        }
        Ok(NextToAnnotate {
            revision: ranking.revision,
            questions: ranking.questions,
            unannotated: ranking.unannotated,
            claimed_by_others: others.len() as u64,
            learning: ranking.learning,
            example,
        })
    })
    .await
}

/// How many IDs naming no example are located one by one; the rest are counted.
const LOCATED: usize = 10;

/// Refuse `ids` when some are `missing`: each at its index (the first [`LOCATED`]).
fn unknown_ids(model: &ModelRef, ids: &[String], missing: &[String]) -> Result<()> {
    if missing.is_empty() {
        return Ok(());
    }
    let at = Loc::body().key("ids");
    let mut faults: Vec<FieldError> = missing
        .iter()
        .take(LOCATED)
        .filter_map(|id| {
            let index = ids.iter().position(|one| one == id)?;
            Some(FieldError::new(
                at.index(index),
                format!("`{id}` names no example of {model}"),
                "unknown_example",
            ))
        })
        .collect();
    if missing.len() > LOCATED {
        faults.push(FieldError::new(
            at,
            format!(
                "and {} more IDs name no example of {model}",
                missing.len() - LOCATED
            ),
            "unknown_example",
        ));
    }
    Err(Error::Validation(faults))
}

/// Give up `annotator`'s claim on `example_id` of `model` (answered, skipped or left);
/// another's claim stays. An example that does not exist is not found.
pub fn release(
    ctx: &Context,
    model: &ModelRef,
    example_id: &ExampleId,
    annotator: &str,
) -> Result<()> {
    let (store, model_id) = example_of(ctx, model, example_id)?;
    store.release_claim(&model_id, example_id, annotator)?;
    Ok(())
}

/// Delete `annotator`'s answer to `question` of `example_id` (an undo); the other
/// annotators' stay. An example that does not exist is not found; an answer that does not
/// exist is already gone.
pub fn unannotate(
    ctx: &Context,
    model: &ModelRef,
    example_id: &ExampleId,
    question: &str,
    annotator: &str,
) -> Result<()> {
    let (store, model_id) = example_of(ctx, model, example_id)?;
    store.unannotate(&model_id, example_id, question, annotator)?;
    Ok(())
}

/// The store and `model`'s ID, once `example_id` is known to be one of its examples.
fn example_of<'a>(
    ctx: &'a Context,
    model: &ModelRef,
    example_id: &ExampleId,
) -> Result<(&'a crate::store::Store, crate::ids::ModelId)> {
    let model_id = super::models::open(ctx, model)?.model_id();
    let store = ctx.store()?;
    if store.get_example(&model_id, example_id)?.is_none() {
        return Err(Error::ExampleNotFound(example_id.to_string()));
    }
    Ok((store, model_id))
}
