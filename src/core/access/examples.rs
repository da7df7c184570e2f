//! Examples and their annotations as a caller may read and write them: each operation takes
//! the [`Permitted`] proof its caller made once, and names what it needs ([`super::Need`]).

use super::{
    ANNOTATE, ANNOTATION_AGREEMENT, DELETE_EXAMPLES, INGEST, LIST_EXAMPLES, Permitted,
    RELEASE_CLAIM, RESOLVE_EXAMPLE, SHOW_EXAMPLE, UNANNOTATE, on_model,
};
use crate::core::Context;
use crate::core::answer_cache::Gate;
use crate::core::requests::{
    AnnotateRequest, Annotator, ClaimNext, ExamplesQuery, IngestRequest, Input,
};
use crate::error::Result;
use crate::ids::ExampleId;
use crate::store::{ExampleFilter, IngestCounts, NewAnnotation};
use crate::wire::Questions;
use crate::wire::agreement::AgreementReport;
use crate::wire::claims::NextToAnnotate;
use crate::wire::examples::AnnotationsPatch;
use crate::wire::examples::{Annotation, ExampleDetail, ExamplePage, IngestExample, IngestReport};
use crate::wire::to_annotate::{ToAnnotate, ToAnnotateQuery};
use tokio::sync::mpsc;

/// A page of the model's examples (role `reader`).
pub async fn list_examples(
    ctx: &Context,
    permitted: Permitted,
    query: ExamplesQuery<'_>,
) -> Result<ExamplePage> {
    let (filter, after) = (query.filter.clone(), query.after.map(str::to_owned));
    let limit = query.limit;
    on_model(ctx, permitted, LIST_EXAMPLES, move |ctx, path| {
        crate::core::examples::list(ctx, path, &filter, after.as_deref(), limit)
    })
    .await
}

/// One example of the model with its annotations and decisions (role `reader`).
pub async fn show_example(
    ctx: &Context,
    permitted: Permitted,
    example_id: &ExampleId,
) -> Result<ExampleDetail> {
    let example_id = example_id.clone();
    on_model(ctx, permitted, SHOW_EXAMPLE, move |ctx, path| {
        crate::core::examples::show(ctx, path, &example_id)
    })
    .await
}

/// Delete `example_ids` of the model with all that is recorded of them (role `admin`: the
/// model's owners), recorded in its history under the caller's name.
pub async fn delete_examples(
    ctx: &Context,
    permitted: Permitted,
    example_ids: &[ExampleId],
) -> Result<()> {
    let (example_ids, actor) = (example_ids.to_vec(), permitted.actor.clone());
    on_model(ctx, permitted, DELETE_EXAMPLES, move |ctx, path| {
        crate::core::examples::delete(ctx, path, &example_ids, &actor)
    })
    .await
}

/// The examples of the model to annotate next (role `reader`): deciding them is reading
/// the model, as an evaluation is. Each engine call passes `gate`.
pub async fn examples_to_annotate(
    ctx: &Context,
    permitted: Permitted,
    query: &ToAnnotateQuery,
    working: Option<&Questions>,
    gate: &dyn Gate,
) -> Result<ToAnnotate> {
    let path = permitted.model_for(super::EXAMPLES_TO_ANNOTATE)?;
    crate::core::to_annotate::pick(ctx, &path, query, working, gate).await
}

/// Claim the next example of the model for `annotator` (else the caller) to annotate (role
/// `writer`: a claim is written), passing over `skip`, among the examples `chosen`
/// ([`crate::core::claims::next`]).
pub async fn claim_next(
    ctx: &Context,
    permitted: Permitted,
    request: ClaimNext<'_>,
    gate: &dyn Gate,
) -> Result<NextToAnnotate> {
    let annotator = request
        .annotator
        .clone()
        .unwrap_or_else(|| permitted.actor.clone());
    let path = permitted.model_for(super::CLAIM_NEXT)?;
    crate::core::claims::next(ctx, &path, &annotator, &request, gate).await
}

/// Give up the claim of `annotator` (else the caller) on an example (role `writer`).
pub async fn release_claim(
    ctx: &Context,
    permitted: Permitted,
    example_id: &ExampleId,
    annotator: Annotator,
) -> Result<()> {
    let (example_id, annotator) = (
        example_id.clone(),
        annotator.unwrap_or_else(|| permitted.actor.clone()),
    );
    on_model(ctx, permitted, RELEASE_CLAIM, move |ctx, path| {
        crate::core::claims::release(ctx, path, &example_id, &annotator)
    })
    .await
}

/// Delete the answer of `annotator` (else the caller) to one question of an example: an
/// undo (role `writer`).
pub async fn unannotate(
    ctx: &Context,
    permitted: Permitted,
    example_id: &ExampleId,
    question: &str,
    annotator: Annotator,
) -> Result<()> {
    let (example_id, question, annotator) = (
        example_id.clone(),
        question.to_owned(),
        annotator.unwrap_or_else(|| permitted.actor.clone()),
    );
    on_model(ctx, permitted, UNANNOTATE, move |ctx, path| {
        crate::core::claims::unannotate(ctx, path, &example_id, &question, &annotator)
    })
    .await
}

/// Annotate one example with several questions at once (role `writer`); the annotator is
/// the caller.
pub async fn annotate_example(
    ctx: &Context,
    permitted: Permitted,
    example_id: &ExampleId,
    patch: AnnotationsPatch,
) -> Result<ExampleDetail> {
    let (example_id, annotator) = (example_id.clone(), permitted.actor.clone());
    on_model(ctx, permitted, ANNOTATE, move |ctx, path| {
        crate::core::examples::annotate_example(ctx, path, &example_id, &annotator, patch)
    })
    .await
}

/// Ingest examples, a JSON array or JSON Lines (role `writer`); an annotation that names no
/// annotator is `request.annotator`'s, else the caller's. `progress` hears the running
/// totals as the lines are read.
pub async fn ingest(
    ctx: &Context,
    permitted: Permitted,
    request: IngestRequest,
    progress: &(dyn Fn(IngestCounts) + Send + Sync),
) -> Result<IngestReport> {
    let IngestRequest {
        mut input,
        atomic,
        annotator,
    } = request;
    let annotator = annotator.unwrap_or_else(|| permitted.actor.clone());
    let (sender, counts) = mpsc::unbounded_channel();
    let work = on_model(ctx, permitted, INGEST, move |ctx, path| {
        crate::core::examples::ingest(ctx, path, &annotator, &mut input, atomic, &mut |c| {
            // The receiver outlives the work; a send cannot fail while it runs.
            let _ = sender.send(*c);
        })
    });
    with_progress(work, counts, progress).await
}

/// `work`'s answer, with every value it sends on `sent` handed to `hear` here, in order, as
/// they come: the blocking work reports to a caller that is not `'static`.
async fn with_progress<T, P>(
    work: impl Future<Output = Result<T>>,
    mut sent: mpsc::UnboundedReceiver<P>,
    hear: &(dyn Fn(P) + Send + Sync),
) -> Result<T> {
    tokio::pin!(work);
    let answer = loop {
        tokio::select! {
            answer = &mut work => break answer,
            Some(value) = sent.recv() => hear(value),
        }
    };
    while let Ok(value) = sent.try_recv() {
        hear(value);
    }
    answer
}

/// Write annotation lines, a JSON array or JSON Lines (role `writer`); a line that names no
/// annotator is `annotator`'s, else the caller's.
pub async fn annotate_lines(
    ctx: &Context,
    permitted: Permitted,
    annotator: Annotator,
    mut input: Input,
) -> Result<IngestReport> {
    let annotator = annotator.unwrap_or_else(|| permitted.actor.clone());
    on_model(ctx, permitted, ANNOTATE, move |ctx, path| {
        crate::core::examples::annotate_lines(ctx, path, &annotator, &mut input)
    })
    .await
}

/// One annotator's answer to one question of one example (role `writer`): the annotator
/// is `request.annotator`, else the caller. The question's ground truth as it now stands.
pub async fn annotate(
    ctx: &Context,
    permitted: Permitted,
    request: AnnotateRequest<'_>,
) -> Result<Annotation> {
    let annotation = NewAnnotation {
        question_id: request.question_id,
        answer: request.answer,
        reasoning: request.reasoning,
        annotator: request.annotator.unwrap_or_else(|| permitted.actor.clone()),
    };
    let example_id = request.example_id.clone();
    on_model(ctx, permitted, ANNOTATE, move |ctx, path| {
        crate::core::examples::annotate(ctx, path, &example_id, annotation)
    })
    .await
}

/// The example of the model that `text` names: itself when an example has that ID, else
/// the one ID it starts (role `reader`; [`crate::core::examples::resolve_id`]).
pub async fn resolve_example(ctx: &Context, permitted: Permitted, text: &str) -> Result<ExampleId> {
    let text = text.to_owned();
    on_model(ctx, permitted, RESOLVE_EXAMPLE, move |ctx, path| {
        crate::core::examples::resolve_id(ctx, path, &text)
    })
    .await
}

/// Every matching example of the model as an ingest line, in example ID order, to `write`
/// (role `reader`); the count. The examples are read a page at a time on this thread, since
/// `write` (the caller's output) is not `'static`.
pub async fn export_examples(
    ctx: &Context,
    permitted: Permitted,
    filter: &ExampleFilter,
    write: &mut (dyn for<'v> FnMut(&'v IngestExample) -> Result<()> + Send),
) -> Result<u64> {
    let path = permitted.model_for(super::EXPORT_EXAMPLES)?;
    crate::core::examples::export(ctx, &path, filter, write)
}

/// How far the annotators of the model agree (role `reader`).
pub async fn annotation_agreement(
    ctx: &Context,
    permitted: Permitted,
    question: Option<String>,
) -> Result<AgreementReport> {
    on_model(ctx, permitted, ANNOTATION_AGREEMENT, move |ctx, path| {
        crate::core::agreement::agreement(ctx, path, question.as_deref())
    })
    .await
}
