//! The annotated examples whose ground truth for a question the model answers otherwise at
//! the default branch (the Examples page's "disagrees with the model"): what an evaluation
//! counts as wrong, example by example. Each example's answers come from the answers cache
//! (an `eval` fills it), else from the engine through the caller's gate; the scan stops at
//! the deadline with a cursor to go on from, so a page is ready in a moment.

use crate::core::answer_cache::{self, Gate};
use crate::core::metrics::{Scored, label_of, predicted_of};
use crate::core::{Context, blocking, models};
use crate::error::{Error, Result};
use crate::ids::ModelRef;
use crate::store::ExampleFilter;
use crate::wire::answer::Answer;
use crate::wire::examples::{Example, ExamplePage};
use crate::wire::question::QuestionKind;
use std::time::Instant;

/// Examples read from the store at a time.
const BATCH: usize = 100;

/// Whether `answer` misses `example`'s annotation of `question` (as an evaluation counts
/// it wrong); an annotation that names no outcome of the question now is not counted.
fn missed(kind: &QuestionKind, question: &str, example: &Example, answer: Option<&Answer>) -> bool {
    let label = example
        .annotations
        .get(question)
        .and_then(|annotation| label_of(kind, &annotation.answer));
    let outcomes = crate::engine::builtin::aligned::outcome_keys(kind).len();
    match (answer, label) {
        (Some(answer), Some(label)) => !Scored {
            predicted: predicted_of(answer, outcomes),
            label,
        }
        .correct(),
        _ => false,
    }
}

/// A page of the examples `filter` finds (annotated for its question, which it must name)
/// whose annotation the model's answer at the default branch misses, in example ID order
/// after `after`: at most `limit`, scanned until `deadline` (the cursor then says where the
/// scan stopped).
pub async fn list(
    ctx: &Context,
    model: &ModelRef,
    filter: &ExampleFilter,
    after: Option<&str>,
    limit: usize,
    gate: &dyn Gate,
    deadline: Instant,
) -> Result<ExamplePage> {
    let question = filter.question.as_deref().ok_or_else(|| {
        Error::invalid(
            crate::wire::Loc::query().key("question"),
            "a disagreement is with a question's annotation: name the question",
            "missing",
        )
    })?;
    let loaded = {
        let (ctx, model) = (ctx.clone(), model.clone());
        blocking(move || models::load(&ctx, &model, None)).await?
    };
    let kind = loaded
        .questions
        .get(question)
        .map(|q| q.kind.clone())
        .ok_or_else(|| {
            Error::invalid(
                crate::wire::Loc::query().key("question"),
                format!("the model has no question `{question}` at its default branch"),
                "unknown_question",
            )
        })?;
    let ready = answer_cache::Ready::of(ctx, &loaded).await?;
    let asking = ready.asking(&loaded);
    let mut found: Vec<Example> = Vec::new();
    let mut cursor = after.map(str::to_owned);
    loop {
        let batch = {
            let (ctx, model_id, cursor) = (ctx.clone(), loaded.model_id, cursor.clone());
            let filter = filter.clone();
            blocking(move || {
                Ok(ctx
                    .store()?
                    .list_examples(&model_id, &filter, cursor.as_deref(), BATCH)?)
            })
            .await?
        };
        let last_batch = batch.len() < BATCH;
        for example in batch {
            cursor = Some(example.example_id.to_string());
            let answered =
                answer_cache::answers(ctx, &asking, &example.example_id, &example.state, gate)
                    .await?;
            if missed(&kind, question, &example, answered.answers.get(question)) {
                found.push(example);
            }
            if found.len() == limit || Instant::now() >= deadline {
                return Ok(ExamplePage {
                    examples: found,
                    next_cursor: cursor,
                });
            }
        }
        if last_batch {
            return Ok(ExamplePage {
                examples: found,
                next_cursor: None,
            });
        }
    }
}
