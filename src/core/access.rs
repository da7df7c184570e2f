//! The operations of core as a caller ([`Principal`]) may run them: a token on the server,
//! the owner on a local home ([`Principal::owner`]). Every adapter comes in here: the
//! server's handlers, and the command line's [`super::service::Local`]; each only maps the
//! result, and holds no rule of its own.
//!
//! An invisible model or job answers exactly like a missing one (by the ID asked for),
//! so a token cannot learn what exists beyond what it may see. The operations are async:
//! the store and repository work runs on the blocking pool inside them, once, here.

use super::answer_cache::Gate;
use super::batch::NewBatch;
use super::jobs;
use super::requests::{
    AnnotateRequest, Annotator, ClaimNext, ExamplesQuery, IngestRequest, Input, JobRequest,
    LogQuery,
};
use super::tokens::{Principal, Role, Scope};
use super::{Context, blocking};
use crate::error::{Error, Result};
use crate::ids::{ExampleId, JobId, ModelId, ModelRef};
use crate::store::{ExampleFilter, IngestCounts, NewAnnotation};
use crate::wire::Questions;
use crate::wire::agreement::AgreementReport;
use crate::wire::claims::NextToAnnotate;
use crate::wire::decision::Checkpoint;
use crate::wire::examples::{Annotation, ExampleDetail, ExamplePage, IngestExample, IngestReport};
use crate::wire::jobs::{Job, JobKind, JobStatus};
use crate::wire::models::{ModelDetail, ModelKind, ModelList};
use crate::wire::registry::{ModelDiff, RegistryEvent};
use crate::wire::to_annotate::{ToAnnotate, ToAnnotateQuery};
use serde_json::Value;
use std::collections::HashMap;
use tokio::sync::mpsc;

/// `modelId` → path of every repository model.
pub fn model_paths(ctx: &Context) -> Result<HashMap<ModelId, String>> {
    Ok(ctx
        .repos()
        .list()?
        .into_iter()
        .map(|repo| (repo.model_id(), repo.path().to_string()))
        .collect())
}

/// The scope a job of `kind` is read and cancelled under: an evaluation is a batch of
/// decisions.
pub const fn scope_of(kind: JobKind) -> Scope {
    match kind {
        JobKind::Batch | JobKind::Evaluation => Scope::Batches,
        JobKind::Alignment => Scope::Alignments,
    }
}

/// The role on the model that creating a job of `kind` needs: deciding is reading the model
/// (a batch, whose captures follow the policy the model's writers set; an evaluation); an
/// alignment commits to it.
pub const fn role_of(kind: JobKind) -> Role {
    match kind {
        JobKind::Batch | JobKind::Evaluation => Role::Reader,
        JobKind::Alignment => Role::Writer,
    }
}

/// Open `model` for `principal` with at least `role` and return it by its path (a
/// `modelId` resolved): invisible models are not found. For work already on the blocking
/// pool; else [`model_access`].
pub fn authorize(
    ctx: &Context,
    principal: &Principal,
    model: &ModelRef,
    role: Role,
) -> Result<ModelRef> {
    let repo = super::models::open(ctx, model)?;
    let path = repo.path();
    // An invisible model answers exactly like a missing one: by the ID asked for, never its path.
    principal
        .require_role(&path.to_string(), role)
        .map_err(|error| match error {
            Error::ModelNotFound(_) => Error::ModelNotFound(model.to_string()),
            other => other,
        })?;
    Ok(ModelRef::Path(path.clone()))
}

/// [`authorize`], off the async runtime.
pub async fn model_access(
    ctx: &Context,
    principal: &Principal,
    model: &ModelRef,
    role: Role,
) -> Result<ModelRef> {
    let (ctx, principal, model) = (ctx.clone(), principal.clone(), model.clone());
    blocking(move || authorize(&ctx, &principal, &model, role)).await
}

/// Job `job_id` if `principal` may read it: a job on a model the token cannot see is not
/// found, exactly as if it did not exist; the scope of its kind is checked after that.
fn visible(ctx: &Context, principal: &Principal, job_id: &JobId) -> Result<Job> {
    let job = jobs::get(ctx, job_id)?;
    if principal.is_owner() {
        return Ok(job);
    }
    let not_found = || Error::JobNotFound(job_id.to_string());
    let path = super::models::open_by_id(ctx, &job.model_id)
        .map_err(|_| not_found())?
        .path()
        .to_string();
    if principal.role_on(&path).is_none() {
        return Err(not_found());
    }
    principal.require_scope(scope_of(job.kind))?;
    principal.require_role(&path, Role::Reader)?;
    Ok(job)
}

/// The job `job_id`, by its ID alone, if `principal` may read it.
pub async fn visible_job(ctx: &Context, principal: &Principal, job_id: &JobId) -> Result<Job> {
    let (ctx, principal, job_id) = (ctx.clone(), principal.clone(), *job_id);
    blocking(move || visible(&ctx, &principal, &job_id)).await
}

/// Cancel the job `job_id` if `principal` may read it (idempotent: a finished job stays as
/// it finished).
pub async fn cancel_visible_job(
    ctx: &Context,
    principal: &Principal,
    job_id: &JobId,
) -> Result<Job> {
    let (ctx, principal, job_id) = (ctx.clone(), principal.clone(), *job_id);
    blocking(move || {
        let job = visible(&ctx, &principal, &job_id)?;
        jobs::cancel(&ctx, &job.job_id)
    })
    .await
}

/// Which jobs to list.
#[derive(Debug, Clone, Default)]
pub struct JobListing {
    /// One model (path or `modelId`), which the token must be able to read; else every
    /// model it can see.
    pub model: Option<ModelRef>,
    /// Only these kinds (empty: every kind).
    pub kinds: Vec<JobKind>,
    /// Only these statuses (empty: every status).
    pub statuses: Vec<JobStatus>,
    /// Only jobs whose ID starts with this.
    pub id_prefix: Option<String>,
    /// At most this many.
    pub limit: usize,
}

/// The jobs `principal` may read, newest first: on models it can see, of kinds whose scope
/// it holds.
pub async fn visible_jobs(
    ctx: &Context,
    principal: &Principal,
    listing: JobListing,
) -> Result<Vec<Job>> {
    let (ctx, principal) = (ctx.clone(), principal.clone());
    blocking(move || {
        let model_id = match &listing.model {
            Some(model) => {
                authorize(&ctx, &principal, model, Role::Reader)?;
                Some(super::models::open(&ctx, model)?.model_id())
            }
            None => None,
        };
        // One model, already authorized, or the owner: every job is on a visible model.
        let paths = match model_id {
            Some(_) => None,
            None if principal.is_owner() => None,
            None => Some(model_paths(&ctx)?),
        };
        // The store stops at `limit` when no job it lists can be dropped here: every model
        // is visible, every kind is wanted and its scope held, and no prefix is asked for.
        let every_kind = <JobKind as strum::VariantArray>::VARIANTS
            .iter()
            .all(|kind| principal.has_scope(scope_of(*kind)));
        let every_one = paths.is_none()
            && every_kind
            && listing.kinds.is_empty()
            && listing.id_prefix.is_none();
        let stop = if every_one { listing.limit } else { 0 };
        let mut jobs = jobs::list(&ctx, model_id.as_ref(), &listing.statuses, stop)?;
        jobs.retain(|job| {
            (listing.kinds.is_empty() || listing.kinds.contains(&job.kind))
                && listing
                    .id_prefix
                    .as_deref()
                    .is_none_or(|prefix| job.job_id.to_string().starts_with(prefix))
                && principal.has_scope(scope_of(job.kind))
                && paths.as_ref().is_none_or(|paths| {
                    paths
                        .get(&job.model_id)
                        .is_some_and(|path| principal.role_on(path).is_some())
                })
        });
        jobs.truncate(listing.limit);
        Ok(jobs)
    })
    .await
}

/// The job of `kind` under `model`, if `principal` may read the model; else not found.
pub async fn job_under(
    ctx: &Context,
    principal: &Principal,
    model: &ModelRef,
    kind: JobKind,
    job_id: &JobId,
) -> Result<Job> {
    let (ctx, principal) = (ctx.clone(), principal.clone());
    let (model, job_id) = (model.clone(), *job_id);
    blocking(move || {
        authorize(&ctx, &principal, &model, Role::Reader)?;
        let id = super::models::open(&ctx, &model)?.model_id();
        jobs::get_under(&ctx, &id, kind, &job_id)
    })
    .await
}

/// Cancel a job (idempotent; a finished job stays as it finished). The caller has found
/// it visible ([`job_under`]).
pub async fn cancel_job(ctx: &Context, job_id: &JobId) -> Result<Job> {
    let (ctx, job_id) = (ctx.clone(), *job_id);
    blocking(move || jobs::cancel(&ctx, &job_id)).await
}

/// A page of the job's result lines from line `from` on, and the line to read next;
/// `None` past the last so far.
pub async fn job_results_page(
    ctx: &Context,
    job_id: &JobId,
    from: u64,
) -> Result<Option<(Vec<u8>, u64)>> {
    let (ctx, job_id) = (ctx.clone(), *job_id);
    blocking(move || jobs::results_page(&ctx, &job_id, from)).await
}

// ---------------------------------------------------------------------------------------
// Operations as a token sees them: each checks the role the operation needs on the model
// (an invisible model is not found), then runs on the blocking pool.
// ---------------------------------------------------------------------------------------

/// Base models, and the repository models `principal` has a role on.
pub async fn list_models(ctx: &Context, principal: &Principal) -> Result<ModelList> {
    let (ctx, principal) = (ctx.clone(), principal.clone());
    blocking(move || {
        let mut list = super::models::list(&ctx)?;
        list.models
            .retain(|m| m.kind == ModelKind::Base || principal.role_on(&m.name).is_some());
        Ok(list)
    })
    .await
}

/// `model`'s branches, tags, capture policy and question IDs (role `reader`).
pub async fn show_model(
    ctx: &Context,
    principal: &Principal,
    model: &ModelRef,
) -> Result<ModelDetail> {
    as_role(ctx, principal, model, Role::Reader, |ctx, path| {
        super::models::show(ctx, path)
    })
    .await
}

/// Checkpoints of a revision, newest first (role `reader`).
pub async fn log(
    ctx: &Context,
    principal: &Principal,
    query: LogQuery<'_>,
) -> Result<Vec<Checkpoint>> {
    let (revision, limit) = (query.revision.map(str::to_owned), query.limit);
    as_role(
        ctx,
        principal,
        query.model,
        Role::Reader,
        move |ctx, path| super::models::log(ctx, path, revision.as_deref(), limit),
    )
    .await
}

/// Fast-forward `model`'s default branch to `revision` (role `writer`), recorded as the
/// token's.
pub async fn promote(
    ctx: &Context,
    principal: &Principal,
    model: &ModelRef,
    revision: &str,
    evaluation: Option<&str>,
) -> Result<Checkpoint> {
    let (revision, evaluation) = (revision.to_owned(), evaluation.map(str::to_owned));
    let actor = principal.name.clone();
    as_role(ctx, principal, model, Role::Writer, move |ctx, path| {
        super::models::promote(ctx, path, &revision, evaluation.as_deref(), &actor)
    })
    .await
}

/// `model`'s registry history, newest first (role `reader`).
pub async fn history(
    ctx: &Context,
    principal: &Principal,
    model: &ModelRef,
    limit: usize,
) -> Result<Vec<RegistryEvent>> {
    as_role(ctx, principal, model, Role::Reader, move |ctx, path| {
        let model_id = super::models::open(ctx, path)?.model_id();
        super::registry::history(ctx, &model_id, limit)
    })
    .await
}

/// What changed in `model` between two revisions (role `reader`).
pub async fn diff(
    ctx: &Context,
    principal: &Principal,
    model: &ModelRef,
    from: &str,
    to: &str,
) -> Result<ModelDiff> {
    let (from, to) = (from.to_owned(), to.to_owned());
    as_role(ctx, principal, model, Role::Reader, move |ctx, path| {
        super::diff::diff(ctx, path, &from, &to)
    })
    .await
}

/// A page of `model`'s examples (role `reader`).
pub async fn list_examples(
    ctx: &Context,
    principal: &Principal,
    query: ExamplesQuery<'_>,
) -> Result<ExamplePage> {
    let (filter, after) = (query.filter.clone(), query.after.map(str::to_owned));
    let limit = query.limit;
    as_role(
        ctx,
        principal,
        query.model,
        Role::Reader,
        move |ctx, path| super::examples::list(ctx, path, &filter, after.as_deref(), limit),
    )
    .await
}

/// One example of `model` with its annotations and decisions (role `reader`).
pub async fn show_example(
    ctx: &Context,
    principal: &Principal,
    model: &ModelRef,
    example_id: &ExampleId,
) -> Result<ExampleDetail> {
    let example_id = example_id.clone();
    as_role(ctx, principal, model, Role::Reader, move |ctx, path| {
        super::examples::show(ctx, path, &example_id)
    })
    .await
}

/// The examples of `model` to annotate next (role `reader`): deciding them is reading the
/// model, as an evaluation is. Each engine call passes `gate`.
pub async fn examples_to_annotate(
    ctx: &Context,
    principal: &Principal,
    model: &ModelRef,
    query: &ToAnnotateQuery,
    working: Option<&Questions>,
    gate: &dyn Gate,
) -> Result<ToAnnotate> {
    let path = model_access(ctx, principal, model, Role::Reader).await?;
    super::to_annotate::pick(ctx, &path, query, working, gate).await
}

/// Claim the next example of `model` for `annotator` (else the caller) to annotate (role
/// `writer`: a claim is written), passing over `skip` ([`super::claims::next`]).
pub async fn claim_next(
    ctx: &Context,
    principal: &Principal,
    model: &ModelRef,
    request: ClaimNext<'_>,
    gate: &dyn Gate,
) -> Result<NextToAnnotate> {
    let path = model_access(ctx, principal, model, Role::Writer).await?;
    let annotator = request.annotator.unwrap_or_else(|| principal.name.clone());
    super::claims::next(ctx, &path, &annotator, request.query, request.skip, gate).await
}

/// Give up the claim of `annotator` (else the caller) on an example (role `writer`).
pub async fn release_claim(
    ctx: &Context,
    principal: &Principal,
    model: &ModelRef,
    example_id: &ExampleId,
    annotator: Annotator,
) -> Result<()> {
    let (example_id, annotator) = (
        example_id.clone(),
        annotator.unwrap_or_else(|| principal.name.clone()),
    );
    as_role(ctx, principal, model, Role::Writer, move |ctx, path| {
        super::claims::release(ctx, path, &example_id, &annotator)
    })
    .await
}

/// Delete the answer of `annotator` (else the caller) to one question of an example: an
/// undo (role `writer`).
pub async fn unannotate(
    ctx: &Context,
    principal: &Principal,
    model: &ModelRef,
    example_id: &ExampleId,
    question: &str,
    annotator: Annotator,
) -> Result<()> {
    let (example_id, question, annotator) = (
        example_id.clone(),
        question.to_owned(),
        annotator.unwrap_or_else(|| principal.name.clone()),
    );
    as_role(ctx, principal, model, Role::Writer, move |ctx, path| {
        super::claims::unannotate(ctx, path, &example_id, &question, &annotator)
    })
    .await
}

/// Annotate one example with several questions at once (role `writer`), `body` being
/// `{questionId: {answer, reasoning?}}`; the annotator is the token's name.
pub async fn annotate_example(
    ctx: &Context,
    principal: &Principal,
    model: &ModelRef,
    example_id: &ExampleId,
    body: Value,
) -> Result<ExampleDetail> {
    let (example_id, annotator) = (example_id.clone(), principal.name.clone());
    as_role(ctx, principal, model, Role::Writer, move |ctx, path| {
        super::examples::annotate_example(ctx, path, &example_id, &annotator, &body)
    })
    .await
}

/// Ingest examples, a JSON array or JSON Lines (role `writer`); an annotation that names no
/// annotator is `request.annotator`'s, else the caller's. `progress` hears the running
/// totals as the lines are read.
pub async fn ingest(
    ctx: &Context,
    principal: &Principal,
    request: IngestRequest<'_>,
    progress: &(dyn Fn(IngestCounts) + Send + Sync),
) -> Result<IngestReport> {
    let IngestRequest {
        model,
        mut input,
        atomic,
        annotator,
    } = request;
    let annotator = annotator.unwrap_or_else(|| principal.name.clone());
    let (sender, counts) = mpsc::unbounded_channel();
    let work = as_role(ctx, principal, model, Role::Writer, move |ctx, path| {
        super::examples::ingest(ctx, path, &annotator, &mut input, atomic, &mut |c| {
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
    principal: &Principal,
    model: &ModelRef,
    annotator: Annotator,
    mut input: Input,
) -> Result<IngestReport> {
    let annotator = annotator.unwrap_or_else(|| principal.name.clone());
    as_role(ctx, principal, model, Role::Writer, move |ctx, path| {
        super::examples::annotate_lines(ctx, path, &annotator, &mut input)
    })
    .await
}

/// One annotator's answer to one question of one example (role `writer`): the annotator
/// is `request.annotator`, else the caller. The question's ground truth as it now stands.
pub async fn annotate(
    ctx: &Context,
    principal: &Principal,
    request: AnnotateRequest<'_>,
) -> Result<Annotation> {
    let annotation = NewAnnotation {
        question_id: request.question_id,
        answer: request.answer,
        reasoning: request.reasoning,
        annotator: request.annotator.unwrap_or_else(|| principal.name.clone()),
    };
    let example_id = request.example_id.clone();
    as_role(
        ctx,
        principal,
        request.model,
        Role::Writer,
        move |ctx, path| super::examples::annotate(ctx, path, &example_id, annotation),
    )
    .await
}

/// The example of `model` that `text` names: itself when an example has that ID, else the
/// one ID it starts (role `reader`; [`super::examples::resolve_id`]).
pub async fn resolve_example(
    ctx: &Context,
    principal: &Principal,
    model: &ModelRef,
    text: &str,
) -> Result<ExampleId> {
    let text = text.to_owned();
    as_role(ctx, principal, model, Role::Reader, move |ctx, path| {
        super::examples::resolve_id(ctx, path, &text)
    })
    .await
}

/// Every matching example of `model` as an ingest line, in example ID order, to `write`
/// (role `reader`); the count. The examples are read a page at a time on this thread, since
/// `write` (the caller's output) is not `'static`.
pub async fn export_examples(
    ctx: &Context,
    principal: &Principal,
    model: &ModelRef,
    filter: &ExampleFilter,
    write: &mut (dyn for<'v> FnMut(&'v IngestExample) -> Result<()> + Send),
) -> Result<u64> {
    let path = model_access(ctx, principal, model, Role::Reader).await?;
    super::examples::export(ctx, &path, filter, write)
}

/// How far the annotators of `model` agree (role `reader`).
pub async fn annotation_agreement(
    ctx: &Context,
    principal: &Principal,
    model: &ModelRef,
    question: Option<String>,
) -> Result<AgreementReport> {
    as_role(ctx, principal, model, Role::Reader, move |ctx, path| {
        super::agreement::agreement(ctx, path, question.as_deref())
    })
    .await
}

/// Create a job on `model` (with the role its kind needs, [`role_of`]) and claim it for
/// running; the caller runs the returned claim. `origin` names the HTTP request that asked for it, if one did: its
/// problems carry it.
pub async fn create_job(
    ctx: &Context,
    principal: &Principal,
    model: &ModelRef,
    request: JobRequest,
    origin: Option<jobs::Origin>,
) -> Result<(Job, jobs::JobClaim)> {
    let path = model_access(ctx, principal, model, role_of(request.kind())).await?;
    let ctx = ctx.clone();
    blocking(move || match request {
        JobRequest::Batch {
            revision,
            questions,
            capture,
            working_questions,
            items,
        } => {
            let batch = NewBatch {
                model: &path,
                revision: revision.as_deref(),
                questions,
                capture,
                working_questions,
                items,
            };
            super::batch::create(&ctx, batch, origin)
        }
        JobRequest::Alignment(request) => {
            let alignment = super::align::NewAlignment {
                model: &path,
                request,
            };
            super::align::create(&ctx, alignment, origin)
        }
        JobRequest::Evaluation(request) => {
            let evaluation = super::eval::NewEvaluation {
                model: &path,
                request,
            };
            super::eval::create(&ctx, evaluation, origin)
        }
    })
    .await
}

/// `work` on `model`'s path, once `principal` holds `role` on it, on the blocking pool.
async fn as_role<T: Send + 'static>(
    ctx: &Context,
    principal: &Principal,
    model: &ModelRef,
    role: Role,
    work: impl FnOnce(&Context, &ModelRef) -> Result<T> + Send + 'static,
) -> Result<T> {
    let (ctx, principal, model) = (ctx.clone(), principal.clone(), model.clone());
    blocking(move || {
        let path = authorize(&ctx, &principal, &model, role)?;
        work(&ctx, &path)
    })
    .await
}
