//! The operations on one repository model as a caller may run them: [`OnModel`], the
//! door both adapters come in by. The server's handlers make one from the proof of the
//! check their [`super::Session`] made where they first knew the model
//! ([`super::Session::permit`]); the command line's [`crate::core::service::Local`] makes
//! one for the home's owner. Each operation names what it needs of the proof
//! ([`super::Need`]) and runs its store and repository work on the blocking pool, once,
//! here.

use super::{
    ANNOTATE, ANNOTATION_AGREEMENT, DELETE_BRANCH, DELETE_EXAMPLES, DIFF, HISTORY, INGEST,
    LIST_EXAMPLES, LOG, Need, PLAN_ALIGNMENT, PROMOTE, Permitted, RELEASE_CLAIM, RESOLVE_EXAMPLE,
    SHOW_EXAMPLE, SHOW_MODEL, UNANNOTATE,
};
use crate::core::answer_cache::{Gate, Open};
use crate::core::requests::{
    AnnotateRequest, Annotator, ClaimNext, ExamplesQuery, IngestRequest, Input, LogQuery,
};
use crate::core::{Context, blocking};
use crate::error::Result;
use crate::ids::{ExampleId, ModelRef};
use crate::store::{ExampleFilter, IngestCounts, NewAnnotation};
use crate::wire::Questions;
use crate::wire::agreement::AgreementReport;
use crate::wire::align::{AlignmentPlan, AlignmentRequest};
use crate::wire::claims::NextToAnnotate;
use crate::wire::decision::Checkpoint;
use crate::wire::examples::AnnotationsPatch;
use crate::wire::examples::{Annotation, ExampleDetail, ExamplePage, IngestExample, IngestReport};
use crate::wire::models::ModelDetail;
use crate::wire::registry::{ModelDiff, RegistryEvent};
use crate::wire::to_annotate::{ToAnnotate, ToAnnotateQuery};
use tokio::sync::mpsc;

/// Every operation on one repository model, wherever the model is: here ([`OnModel`]) or
/// on a server ([`crate::core::service::Service::model`] gives either).
#[async_trait::async_trait]
pub trait ModelService: Send + Sync {
    /// The model's branches, tags, capture policy and question IDs.
    async fn show(&self) -> Result<ModelDetail>;
    /// The checkpoints of `revision` (default: the default branch), newest first.
    async fn log(&self, query: LogQuery<'_>) -> Result<Vec<Checkpoint>>;
    /// Fast-forward the default branch to `revision`, recording it in the model's history
    /// with the evaluation it relies on (`evaluation`, else the latest of that commit).
    async fn promote(&self, revision: &str, evaluation: Option<&str>) -> Result<Checkpoint>;
    /// The promotions and tag moves made through arbiter, newest first.
    async fn history(&self, limit: usize) -> Result<Vec<RegistryEvent>>;
    /// What changed between two revisions.
    async fn diff(&self, from: &str, to: &str) -> Result<ModelDiff>;

    /// Ingest examples from JSON Lines or a JSON array; bad lines are reported with their
    /// line numbers in the whole input. `progress` hears the running totals.
    async fn ingest(
        &self,
        request: IngestRequest,
        progress: &(dyn Fn(IngestCounts) + Send + Sync),
    ) -> Result<IngestReport>;
    /// Write one annotator's answer to one question of one example; the question's ground
    /// truth as it now stands (the majority of every annotator's answer).
    async fn annotate(&self, request: AnnotateRequest<'_>) -> Result<Annotation>;
    /// Write annotations from lines of `{example_id, question, answer, reasoning?,
    /// annotator?}`; a line without an annotator is `annotator`'s (see [`Annotator`]).
    async fn annotate_lines(&self, annotator: Annotator, input: Input) -> Result<IngestReport>;
    /// A page of examples in example ID order.
    async fn list_examples(&self, query: ExamplesQuery<'_>) -> Result<ExamplePage>;
    /// One example with its annotations and decisions.
    async fn show_example(&self, example_id: &ExampleId) -> Result<ExampleDetail>;
    /// The example ID that `text` names on the command line: itself when an example has
    /// it, else the one ID it starts ([`crate::core::examples::resolve_id`]; the routes take
    /// whole IDs only).
    async fn resolve_example(&self, text: &str) -> Result<ExampleId>;
    /// The examples to annotate next: unannotated ones ranked by the model's uncertainty at
    /// a revision, with a seeded random audit share; with `working`, decided by that
    /// questions document as a working copy on top of the revision ([`crate::core::working`]).
    async fn examples_to_annotate(
        &self,
        query: &ToAnnotateQuery,
        working: Option<&crate::wire::Questions>,
    ) -> Result<ToAnnotate>;
    /// Claim the next example to annotate for the annotator (in `examples next` order,
    /// passing over what they skipped and what other annotators hold; see
    /// [`crate::core::claims`]), with the model's answers to its open questions.
    async fn claim_next(&self, request: ClaimNext<'_>) -> Result<NextToAnnotate>;
    /// Give up the annotator's claim on an example.
    async fn release_claim(&self, example_id: &ExampleId, annotator: Annotator) -> Result<()>;
    /// Delete a branch of a repository model (never its default branch).
    async fn delete_branch(&self, branch: &str) -> Result<()>;
    /// Delete examples with everything recorded of them ([`crate::core::examples::delete`]).
    /// Locally all or none; against a server each is checked to exist first, then each
    /// deleted by its own request.
    async fn delete_examples(&self, example_ids: &[ExampleId]) -> Result<()>;
    /// Delete the annotator's own answer to one question of an example (an undo).
    async fn unannotate(
        &self,
        example_id: &ExampleId,
        question: &str,
        annotator: Annotator,
    ) -> Result<()>;
    /// Every matching example as an ingest line, in example ID order, to `write`; the count.
    async fn export_examples(
        &self,
        filter: &ExampleFilter,
        write: &mut (dyn for<'v> FnMut(&'v IngestExample) -> Result<()> + Send),
    ) -> Result<u64>;
    /// How far the annotators of `question` (else of every question) agree.
    async fn annotation_agreement(&self, question: Option<&str>) -> Result<AgreementReport>;
    /// What an alignment with `request` would ask of the model's engine, asking nothing.
    async fn plan_alignment(&self, request: &AlignmentRequest) -> Result<AlignmentPlan>;
}

/// A caller on one repository model: the home, the proof that the caller holds a need on
/// the model, and what the model's engine calls wait for (the server's decision slots; none
/// on the command line).
pub struct OnModel<'a> {
    pub(super) ctx: &'a Context,
    pub(super) permitted: Permitted,
    gate: &'a dyn Gate,
}

impl<'a> OnModel<'a> {
    /// The operations `permitted` allows on its model; engine calls start at once.
    pub fn new(ctx: &'a Context, permitted: Permitted) -> Self {
        Self {
            ctx,
            permitted,
            gate: &Open,
        }
    }

    /// The same, with each engine call passing `gate` first.
    #[must_use]
    pub fn gated(self, gate: &'a dyn Gate) -> Self {
        Self { gate, ..self }
    }

    /// Who runs the operations: recorded as the actor of what they write, and as the
    /// annotator when none is named.
    fn actor(&self) -> String {
        self.permitted.actor.clone()
    }

    /// `work` on the model, for an operation that needs `need`, on the blocking pool.
    async fn on<T: Send + 'static>(
        &self,
        need: Need,
        work: impl FnOnce(&Context, &ModelRef) -> Result<T> + Send + 'static,
    ) -> Result<T> {
        let path = self.permitted.model_for(need)?;
        let ctx = self.ctx.clone();
        blocking(move || work(&ctx, &path)).await
    }

    /// The examples `filter` finds (annotated for the question it names) that the model's
    /// answer at the default branch misses, a page after `after`, scanned until `deadline`
    /// (role `reader`; deciding what the answers cache lacks, so the `decisions` scope too).
    pub async fn disagreeing_examples(
        &self,
        filter: &ExampleFilter,
        after: Option<&str>,
        limit: usize,
        deadline: std::time::Instant,
    ) -> Result<ExamplePage> {
        let path = self.permitted.model_for(super::DISAGREEMENTS)?;
        crate::core::examples::disagreements::list(
            self.ctx, &path, filter, after, limit, self.gate, deadline,
        )
        .await
    }

    /// Annotate one example with several questions at once (role `writer`); the annotator
    /// is the caller.
    pub async fn annotate_example(
        &self,
        example_id: &ExampleId,
        patch: AnnotationsPatch,
    ) -> Result<ExampleDetail> {
        let (example_id, annotator) = (example_id.clone(), self.actor());
        self.on(ANNOTATE, move |ctx, path| {
            crate::core::examples::annotate_example(ctx, path, &example_id, &annotator, patch)
        })
        .await
    }
}

#[async_trait::async_trait]
impl ModelService for OnModel<'_> {
    /// The model's branches, tags, capture policy and question IDs (role `reader`).
    async fn show(&self) -> Result<ModelDetail> {
        self.on(SHOW_MODEL, crate::core::models::show).await
    }

    /// Checkpoints of a revision, newest first (role `reader`).
    async fn log(&self, query: LogQuery<'_>) -> Result<Vec<Checkpoint>> {
        let (revision, limit) = (query.revision.map(str::to_owned), query.limit);
        self.on(LOG, move |ctx, path| {
            crate::core::models::log(ctx, path, revision.as_deref(), limit)
        })
        .await
    }

    /// Fast-forward the model's default branch to `revision` (role `writer`), recorded as
    /// the caller's.
    async fn promote(&self, revision: &str, evaluation: Option<&str>) -> Result<Checkpoint> {
        let (revision, evaluation) = (revision.to_owned(), evaluation.map(str::to_owned));
        let actor = self.actor();
        self.on(PROMOTE, move |ctx, path| {
            crate::core::models::promote(ctx, path, &revision, evaluation.as_deref(), &actor)
        })
        .await
    }

    /// The model's registry history, newest first (role `reader`).
    async fn history(&self, limit: usize) -> Result<Vec<RegistryEvent>> {
        self.on(HISTORY, move |ctx, path| {
            let model_id = crate::core::models::open(ctx, path)?.model_id();
            crate::core::registry::history(ctx, &model_id, limit)
        })
        .await
    }

    /// What changed in the model between two revisions (role `reader`).
    async fn diff(&self, from: &str, to: &str) -> Result<ModelDiff> {
        let (from, to) = (from.to_owned(), to.to_owned());
        self.on(DIFF, move |ctx, path| {
            crate::core::diff::diff(ctx, path, &from, &to)
        })
        .await
    }

    /// Delete a branch of the model, never its default one (role `writer`), recorded as
    /// the caller's.
    async fn delete_branch(&self, branch: &str) -> Result<()> {
        let (branch, actor) = (branch.to_owned(), self.actor());
        self.on(DELETE_BRANCH, move |ctx, path| {
            crate::core::models::delete_branch(ctx, path, &branch, &actor)
        })
        .await
    }

    /// Ingest examples, a JSON array or JSON Lines (role `writer`); an annotation that
    /// names no annotator is `request.annotator`'s, else the caller's. `progress` hears the
    /// running totals as the lines are read.
    async fn ingest(
        &self,
        request: IngestRequest,
        progress: &(dyn Fn(IngestCounts) + Send + Sync),
    ) -> Result<IngestReport> {
        let IngestRequest {
            mut input,
            atomic,
            annotator,
        } = request;
        let annotator = annotator.unwrap_or_else(|| self.actor());
        let (sender, counts) = mpsc::unbounded_channel();
        let work = self.on(INGEST, move |ctx, path| {
            crate::core::examples::ingest(ctx, path, &annotator, &mut input, atomic, &mut |c| {
                // The receiver outlives the work; a send cannot fail while it runs.
                let _ = sender.send(*c);
            })
        });
        with_progress(work, counts, progress).await
    }

    /// One annotator's answer to one question of one example (role `writer`): the
    /// annotator is `request.annotator`, else the caller. The question's ground truth as
    /// it now stands.
    async fn annotate(&self, request: AnnotateRequest<'_>) -> Result<Annotation> {
        let annotation = NewAnnotation {
            question_id: request.question_id,
            answer: request.answer,
            reasoning: request.reasoning,
            annotator: request.annotator.unwrap_or_else(|| self.actor()),
        };
        let example_id = request.example_id.clone();
        self.on(ANNOTATE, move |ctx, path| {
            crate::core::examples::annotate(ctx, path, &example_id, annotation)
        })
        .await
    }

    /// Write annotation lines, a JSON array or JSON Lines (role `writer`); a line that
    /// names no annotator is `annotator`'s, else the caller's.
    async fn annotate_lines(&self, annotator: Annotator, mut input: Input) -> Result<IngestReport> {
        let annotator = annotator.unwrap_or_else(|| self.actor());
        self.on(ANNOTATE, move |ctx, path| {
            crate::core::examples::annotate_lines(ctx, path, &annotator, &mut input)
        })
        .await
    }

    /// A page of the model's examples (role `reader`).
    async fn list_examples(&self, query: ExamplesQuery<'_>) -> Result<ExamplePage> {
        let (filter, after) = (query.filter.clone(), query.after.map(str::to_owned));
        let limit = query.limit;
        self.on(LIST_EXAMPLES, move |ctx, path| {
            crate::core::examples::list(ctx, path, &filter, after.as_deref(), limit)
        })
        .await
    }

    /// One example of the model with its annotations and decisions (role `reader`).
    async fn show_example(&self, example_id: &ExampleId) -> Result<ExampleDetail> {
        let example_id = example_id.clone();
        self.on(SHOW_EXAMPLE, move |ctx, path| {
            crate::core::examples::show(ctx, path, &example_id)
        })
        .await
    }

    /// The example of the model that `text` names: itself when an example has that ID,
    /// else the one ID it starts (role `reader`; [`crate::core::examples::resolve_id`]).
    async fn resolve_example(&self, text: &str) -> Result<ExampleId> {
        let text = text.to_owned();
        self.on(RESOLVE_EXAMPLE, move |ctx, path| {
            crate::core::examples::resolve_id(ctx, path, &text)
        })
        .await
    }

    /// The examples of the model to annotate next (role `reader`): deciding them is
    /// reading the model, as an evaluation is. Each engine call passes the gate.
    async fn examples_to_annotate(
        &self,
        query: &ToAnnotateQuery,
        working: Option<&Questions>,
    ) -> Result<ToAnnotate> {
        let path = self.permitted.model_for(super::EXAMPLES_TO_ANNOTATE)?;
        crate::core::to_annotate::pick(self.ctx, &path, query, working, self.gate).await
    }

    /// Claim the next example of the model for `annotator` (else the caller) to annotate
    /// (role `writer`: a claim is written), passing over `skip`, among the examples
    /// `chosen` ([`crate::core::claims::next`]).
    async fn claim_next(&self, request: ClaimNext<'_>) -> Result<NextToAnnotate> {
        let annotator = request.annotator.clone().unwrap_or_else(|| self.actor());
        let path = self.permitted.model_for(super::CLAIM_NEXT)?;
        crate::core::claims::next(self.ctx, &path, &annotator, &request, self.gate).await
    }

    /// Give up the claim of `annotator` (else the caller) on an example (role `writer`).
    async fn release_claim(&self, example_id: &ExampleId, annotator: Annotator) -> Result<()> {
        let example_id = example_id.clone();
        let annotator = annotator.unwrap_or_else(|| self.actor());
        self.on(RELEASE_CLAIM, move |ctx, path| {
            crate::core::claims::release(ctx, path, &example_id, &annotator)
        })
        .await
    }

    /// Delete `example_ids` of the model with all that is recorded of them (role `admin`:
    /// the model's owners), recorded in its history under the caller's name.
    async fn delete_examples(&self, example_ids: &[ExampleId]) -> Result<()> {
        let (example_ids, actor) = (example_ids.to_vec(), self.actor());
        self.on(DELETE_EXAMPLES, move |ctx, path| {
            crate::core::examples::delete(ctx, path, &example_ids, &actor)
        })
        .await
    }

    /// Delete the answer of `annotator` (else the caller) to one question of an example:
    /// an undo (role `writer`).
    async fn unannotate(
        &self,
        example_id: &ExampleId,
        question: &str,
        annotator: Annotator,
    ) -> Result<()> {
        let (example_id, question) = (example_id.clone(), question.to_owned());
        let annotator = annotator.unwrap_or_else(|| self.actor());
        self.on(UNANNOTATE, move |ctx, path| {
            crate::core::claims::unannotate(ctx, path, &example_id, &question, &annotator)
        })
        .await
    }

    /// Every matching example of the model as an ingest line, in example ID order, to
    /// `write` (role `reader`); the count. The examples are read a page at a time on this
    /// thread, since `write` (the caller's output) is not `'static`.
    async fn export_examples(
        &self,
        filter: &ExampleFilter,
        write: &mut (dyn for<'v> FnMut(&'v IngestExample) -> Result<()> + Send),
    ) -> Result<u64> {
        let path = self.permitted.model_for(super::EXPORT_EXAMPLES)?;
        crate::core::examples::export(self.ctx, &path, filter, write)
    }

    /// How far the annotators of the model agree (role `reader`).
    async fn annotation_agreement(&self, question: Option<&str>) -> Result<AgreementReport> {
        let question = question.map(str::to_owned);
        self.on(ANNOTATION_AGREEMENT, move |ctx, path| {
            crate::core::agreement::agreement(ctx, path, question.as_deref())
        })
        .await
    }

    async fn plan_alignment(&self, request: &AlignmentRequest) -> Result<AlignmentPlan> {
        let path = self.permitted.model_for(PLAN_ALIGNMENT)?;
        crate::core::align::plan(self.ctx, &path, request).await
    }
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
