//! One interface to every operation the command line runs against a home: [`Service`].
//!
//! It has two implementations. [`Local`] runs the operations of this module's siblings on
//! this process's `ARBITER_HOME`; `crate::client::Remote` asks a shared `arbiter serve` for
//! them over HTTP. A command is written once, over `&dyn Service`, and gives the same
//! output and exit code either way. The methods take and return the contract types of
//! [`crate::wire`] and fail with the crate [`Error`]; no HTTP or storage type crosses here.
//!
//! Jobs have one life cycle on both sides: [`Service::create_job`] queues a job,
//! [`Service::follow_job`] watches it until it ends (running it here when this process
//! owns it), and [`Service::detach_job`] lets it run without us.

use super::batch::{NewBatch, Source};
use super::jobs::{JobClaim, Observer};
use super::{Context, blocking};
use crate::error::{Error, Result};
use crate::ids::{JobId, ModelId};
use crate::store::{ExampleFilter, IngestCounts, NewAnnotation};
use crate::wire::agreement::AgreementReport;
use crate::wire::align::{AlignmentRequest, EvaluationRequest};
use crate::wire::decision::Checkpoint;
use crate::wire::examples::{Annotation, ExampleDetail, IngestExample};
use crate::wire::examples::{ExamplePage, IngestReport};
use crate::wire::jobs::{ExampleSet, Job, JobStatus};
use crate::wire::models::{ModelDetail, ModelList};
use crate::wire::registry::{ModelDiff, RegistryEvent};
use crate::wire::to_annotate::{ToAnnotate, ToAnnotateQuery};
use crate::wire::{DecisionRequest, DecisionResponse, Questions};
use std::collections::HashMap;
use std::io::{BufRead, Write};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// An input file (or stdin), read as it is sent or staged.
pub type Input = Box<dyn BufRead + Send>;

/// What a job to create does.
pub enum JobRequest {
    /// Decisions over many states ([`super::batch`]).
    Batch {
        revision: Option<String>,
        questions: Option<Questions>,
        capture: bool,
        items: BatchItems,
    },
    /// Better questions from the annotated examples ([`super::align`]).
    Alignment(AlignmentRequest),
    /// A checkpoint's figures over the annotated examples ([`super::eval`]).
    Evaluation(EvaluationRequest),
}

/// Where a batch's states come from.
pub enum BatchItems {
    /// The items of a JSON request body.
    Inline(Vec<serde_json::Value>),
    /// JSON Lines of `{example_id?, state}`; blank lines are skipped and each line is
    /// checked when its turn comes.
    Lines(Input),
    /// The model's stored examples.
    Examples(ExampleSet),
}

/// A job just created.
#[derive(Debug, Clone)]
pub struct Created {
    pub job: Job,
    /// The server already had this exact request (the same `Idempotency-Key`): `job` is the
    /// job it started then, not a new one. Always false locally.
    pub replayed: bool,
}

/// Every operation a command runs, wherever the home is. See the module documentation.
#[async_trait::async_trait]
pub trait Service: Send + Sync {
    /// Answer the questions of `request`.
    async fn decide(&self, request: &DecisionRequest) -> Result<DecisionResponse>;

    /// Base models and the repository models (remotely: those the token can see).
    async fn list_models(&self) -> Result<ModelList>;
    /// One repository model, by path or `modelId`.
    async fn show_model(&self, model: &str) -> Result<ModelDetail>;
    /// The checkpoints of `revision` (default: the default branch), newest first.
    async fn log(&self, query: LogQuery<'_>) -> Result<Vec<Checkpoint>>;
    /// Fast-forward the default branch to `revision`, recording it in the model's history
    /// with the evaluation it relies on (`evaluation`, else the latest of that commit).
    async fn promote(
        &self,
        model: &str,
        revision: &str,
        evaluation: Option<&str>,
    ) -> Result<Checkpoint>;
    /// The promotions and tag moves made through arbiter, newest first.
    async fn history(&self, model: &str, limit: usize) -> Result<Vec<RegistryEvent>>;
    /// What changed between two revisions.
    async fn diff(&self, model: &str, from: &str, to: &str) -> Result<ModelDiff>;

    /// Ingest examples from JSON Lines or a JSON array; bad lines are reported with their
    /// line numbers in the whole input. `progress` hears the running totals.
    async fn ingest(
        &self,
        request: IngestRequest<'_>,
        progress: &(dyn Fn(IngestCounts) + Send + Sync),
    ) -> Result<IngestReport>;
    /// Write one annotator's answer to one question of one example; the question's ground
    /// truth as it now stands (the majority of every annotator's answer).
    async fn annotate(&self, request: AnnotateRequest<'_>) -> Result<Annotation>;
    /// Write annotations from lines of `{example_id, question, answer, reasoning?,
    /// annotator?}`; a line without an annotator is `annotator`'s (see [`Annotator`]).
    async fn annotate_lines(
        &self,
        model: &str,
        annotator: Annotator,
        input: Input,
    ) -> Result<IngestReport>;
    /// A page of examples in example ID order.
    async fn list_examples(&self, query: ExamplesQuery<'_>) -> Result<ExamplePage>;
    /// One example with its annotations and decisions.
    async fn show_example(&self, model: &str, example_id: &str) -> Result<ExampleDetail>;
    /// The example ID that `text` names on the command line: itself when an example has
    /// it, else the one ID it starts ([`super::examples::resolve_id`]; the routes take
    /// whole IDs only).
    async fn resolve_example(&self, model: &str, text: &str) -> Result<String>;
    /// The examples to annotate next: unannotated ones ranked by the model's uncertainty at
    /// a revision, with a seeded random audit share.
    async fn examples_to_annotate(
        &self,
        model: &str,
        query: &ToAnnotateQuery,
    ) -> Result<ToAnnotate>;
    /// Every matching example as an ingest line, in example ID order, to `write`; the count.
    async fn export_examples(
        &self,
        query: ExportQuery<'_>,
        write: &mut (dyn for<'v> FnMut(&'v IngestExample) -> Result<()> + Send),
    ) -> Result<u64>;
    /// How far the annotators of `question` (else of every question) agree.
    async fn annotation_agreement(
        &self,
        model: &str,
        question: Option<&str>,
    ) -> Result<AgreementReport>;

    /// Queue a job on `model`. Remotely the request is sent with an `Idempotency-Key`
    /// derived from it (and from the input's bytes), so sending it again returns the same job.
    async fn create_job(&self, model: &str, request: JobRequest) -> Result<Created>;
    /// A job as it is now. Here and in the other job operations that take it, `job_id` is
    /// the whole ID or a prefix that starts only this job's ([`super::jobs::resolve_id`]):
    /// remotely, the prefix is looked up in `GET /v1/jobs?idPrefix=`, since the job routes
    /// take whole IDs only.
    async fn get_job(&self, job_id: &str) -> Result<Job>;
    /// Jobs, newest first: of one model or all, of one status or all.
    async fn list_jobs(&self, query: JobsQuery<'_>) -> Result<Vec<Job>>;
    /// Ask a job to stop (idempotent; a finished job stays as it finished); the job after.
    async fn cancel_job(&self, job_id: &str) -> Result<Job>;
    /// Watch `job` until it ends and return it as it ended. A job this process created and
    /// did not detach runs here. `observer` hears progress; when it
    /// [wants lines](Observer::wants_lines), every result line reaches it once, in order,
    /// before this returns (as they are written when the job runs here, else once it ends).
    async fn follow_job(&self, job: &Job, observer: &dyn Observer) -> Result<Job>;
    /// Let a job created here run without this process (locally: in a background worker).
    async fn detach_job(&self, job: &Job) -> Result<()>;
    /// Write the complete result lines of a job so far to `out`; the job as it was read.
    async fn job_results(&self, job_id: &str, out: &mut (dyn Write + Send)) -> Result<Job>;
    /// Make sure no unfinished job is left without a runner (locally: hand orphans of dead
    /// processes to background workers; a server does this itself).
    async fn take_up_orphans(&self) -> Result<()>;
    /// `modelId` → path of the repository models, for showing jobs to people; empty when
    /// they cannot be listed.
    async fn model_paths(&self) -> HashMap<ModelId, String>;
    /// Whether a job followed here runs in this process, so that leaving it (Ctrl-C) stops
    /// it; false when it runs on a server and goes on without us.
    fn runs_jobs_here(&self) -> bool;
}

/// Who annotates: on a local home, a name (the command line's `--annotator`, else the
/// user's); a server always records its token's name, and refuses a name given here.
pub type Annotator = Option<String>;

/// The annotator a local home records when none is named.
pub const LOCAL_ANNOTATOR: &str = "local";

/// Who works on a local home: the user's name (`$USER`, else `$USERNAME`) if it is a valid
/// name, else [`LOCAL_ANNOTATOR`]. An annotation's annotator and a promotion's actor; a server
/// records its token's name instead.
pub fn local_user() -> String {
    ["USER", "USERNAME"]
        .into_iter()
        .filter_map(|var| std::env::var(var).ok())
        .find(|name| crate::wire::examples::check_annotator(name).is_ok())
        .unwrap_or_else(|| LOCAL_ANNOTATOR.to_owned())
}

/// Examples to ingest ([`Service::ingest`]).
pub struct IngestRequest<'a> {
    /// Repository path or `modelId`.
    pub model: &'a str,
    pub input: Input,
    /// All or nothing: one bad line and none is written.
    pub atomic: bool,
    /// Whose the annotations that name no annotator are.
    pub annotator: Annotator,
}

/// One annotator's answer to one question of one example ([`Service::annotate`]).
pub struct AnnotateRequest<'a> {
    /// Repository path or `modelId`.
    pub model: &'a str,
    pub example_id: &'a str,
    pub question_id: String,
    pub answer: serde_json::Value,
    pub reasoning: Option<String>,
    pub annotator: Annotator,
}

/// Which examples [`Service::export_examples`] writes.
#[derive(Debug, Clone, Copy)]
pub struct ExportQuery<'a> {
    /// Repository path or `modelId`.
    pub model: &'a str,
    pub filter: &'a ExampleFilter,
}

/// Which checkpoints [`Service::log`] lists: newest first, from `revision` (else the
/// default branch).
#[derive(Debug, Clone, Copy)]
pub struct LogQuery<'a> {
    /// Repository path or `modelId`.
    pub model: &'a str,
    pub revision: Option<&'a str>,
    pub limit: usize,
}

/// Which page of examples [`Service::list_examples`] returns: in example ID order, after
/// `after`.
#[derive(Debug, Clone, Copy)]
pub struct ExamplesQuery<'a> {
    /// Repository path or `modelId`.
    pub model: &'a str,
    pub filter: &'a ExampleFilter,
    pub after: Option<&'a str>,
    pub limit: usize,
}

/// Which jobs [`Service::list_jobs`] lists: of one model or all, of one status or all.
#[derive(Debug, Clone, Copy)]
pub struct JobsQuery<'a> {
    /// Repository path or `modelId`.
    pub model: Option<&'a str>,
    pub status: Option<JobStatus>,
    /// At most this many (at least one).
    pub limit: usize,
}

/// Starts a background process that runs job `job_id` (the command line's `jobs worker`).
pub type Spawner = Arc<dyn Fn(&Context, &JobId) -> Result<()> + Send + Sync>;

/// The operations on this process's home.
pub struct Local {
    ctx: Context,
    /// Claims on the jobs this process created and has not yet run or handed on.
    claims: Mutex<HashMap<JobId, JobClaim>>,
    spawn: Spawner,
}

impl Local {
    /// The operations on `ctx`'s home; detached and orphaned jobs go to `spawn`.
    pub fn new(ctx: Context, spawn: Spawner) -> Self {
        Self {
            ctx,
            claims: Mutex::new(HashMap::new()),
            spawn,
        }
    }

    pub fn context(&self) -> &Context {
        &self.ctx
    }

    /// `work` on this home, on the blocking pool: store and repository work never holds up
    /// the async runtime.
    async fn on_pool<T: Send + 'static>(
        &self,
        work: impl FnOnce(&Context) -> Result<T> + Send + 'static,
    ) -> Result<T> {
        let ctx = self.ctx.clone();
        blocking(move || work(&ctx)).await
    }

    fn take_claim(&self, job_id: &JobId) -> Option<JobClaim> {
        self.claims
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .remove(job_id)
    }

    /// Poll a job another process runs until it ends, taking up orphans now and then (its
    /// runner may die while we watch).
    async fn watch(&self, job: &Job, observer: &dyn Observer) -> Result<Job> {
        let get = || {
            let (ctx, id) = (self.ctx.clone(), job.job_id);
            blocking(move || super::jobs::get(&ctx, &id))
        };
        let mut job = get().await?;
        let mut ticks = 0u32;
        while !job.status.is_finished() {
            observer.progress(job.progress);
            tokio::time::sleep(Duration::from_millis(200)).await;
            ticks += 1;
            if ticks.is_multiple_of(5) {
                self.take_up_orphans().await?;
            }
            job = get().await?;
        }
        observer.progress(job.progress);
        if observer.wants_lines() {
            super::jobs::for_each_results_page(&self.ctx, &job.job_id, &mut |page| {
                for line in page.split_inclusive(|&b| b == b'\n') {
                    observer.line(line);
                }
                Ok(())
            })?;
        }
        Ok(job)
    }
}

#[async_trait::async_trait]
impl Service for Local {
    async fn decide(&self, request: &DecisionRequest) -> Result<DecisionResponse> {
        let request_id = uuid::Uuid::new_v4().to_string();
        super::decide::decide(&self.ctx, request, &request_id).await
    }

    async fn list_models(&self) -> Result<ModelList> {
        self.on_pool(super::models::list).await
    }

    async fn show_model(&self, model: &str) -> Result<ModelDetail> {
        let model = model.to_owned();
        self.on_pool(move |ctx| super::models::show(ctx, &model))
            .await
    }

    async fn log(&self, query: LogQuery<'_>) -> Result<Vec<Checkpoint>> {
        let (model, revision) = (query.model.to_owned(), query.revision.map(str::to_owned));
        let limit = query.limit;
        self.on_pool(move |ctx| super::models::log(ctx, &model, revision.as_deref(), limit))
            .await
    }

    async fn promote(
        &self,
        model: &str,
        revision: &str,
        evaluation: Option<&str>,
    ) -> Result<Checkpoint> {
        let (model, revision) = (model.to_owned(), revision.to_owned());
        let evaluation = evaluation.map(str::to_owned);
        self.on_pool(move |ctx| {
            super::models::promote(ctx, &model, &revision, evaluation.as_deref(), &local_user())
        })
        .await
    }

    async fn history(&self, model: &str, limit: usize) -> Result<Vec<RegistryEvent>> {
        let model = model.to_owned();
        self.on_pool(move |ctx| super::registry::history(ctx, &model, limit))
            .await
    }

    async fn diff(&self, model: &str, from: &str, to: &str) -> Result<ModelDiff> {
        let (model, from, to) = (model.to_owned(), from.to_owned(), to.to_owned());
        self.on_pool(move |ctx| super::diff::diff(ctx, &model, &from, &to))
            .await
    }

    async fn ingest(
        &self,
        request: IngestRequest<'_>,
        progress: &(dyn Fn(IngestCounts) + Send + Sync),
    ) -> Result<IngestReport> {
        let IngestRequest {
            model,
            mut input,
            atomic,
            annotator,
        } = request;
        let annotator = annotator.as_deref().unwrap_or(LOCAL_ANNOTATOR);
        super::examples::ingest(
            &self.ctx,
            model,
            annotator,
            &mut input,
            atomic,
            &mut |counts| progress(*counts),
        )
    }

    async fn annotate(&self, request: AnnotateRequest<'_>) -> Result<Annotation> {
        let annotation = NewAnnotation {
            question_id: request.question_id,
            answer: request.answer,
            reasoning: request.reasoning,
            annotator: request
                .annotator
                .unwrap_or_else(|| LOCAL_ANNOTATOR.to_owned()),
        };
        let (model, example_id) = (request.model.to_owned(), request.example_id.to_owned());
        self.on_pool(move |ctx| super::examples::annotate(ctx, &model, &example_id, annotation))
            .await
    }

    async fn annotate_lines(
        &self,
        model: &str,
        annotator: Annotator,
        mut input: Input,
    ) -> Result<IngestReport> {
        let model = model.to_owned();
        let annotator = annotator.unwrap_or_else(|| LOCAL_ANNOTATOR.to_owned());
        self.on_pool(move |ctx| {
            super::examples::annotate_lines(ctx, &model, &annotator, &mut input)
        })
        .await
    }

    async fn list_examples(&self, query: ExamplesQuery<'_>) -> Result<ExamplePage> {
        let (model, filter) = (query.model.to_owned(), query.filter.clone());
        let (after, limit) = (query.after.map(str::to_owned), query.limit);
        self.on_pool(move |ctx| {
            super::examples::list(ctx, &model, &filter, after.as_deref(), limit)
        })
        .await
    }

    async fn show_example(&self, model: &str, example_id: &str) -> Result<ExampleDetail> {
        let (model, example_id) = (model.to_owned(), example_id.to_owned());
        self.on_pool(move |ctx| super::examples::show(ctx, &model, &example_id))
            .await
    }

    async fn resolve_example(&self, model: &str, text: &str) -> Result<String> {
        let (model, text) = (model.to_owned(), text.to_owned());
        self.on_pool(move |ctx| super::examples::resolve_id(ctx, &model, &text))
            .await
    }

    async fn examples_to_annotate(
        &self,
        model: &str,
        query: &ToAnnotateQuery,
    ) -> Result<ToAnnotate> {
        super::to_annotate::pick(&self.ctx, model, query, &super::answer_cache::Open).await
    }

    async fn export_examples(
        &self,
        query: ExportQuery<'_>,
        write: &mut (dyn for<'v> FnMut(&'v IngestExample) -> Result<()> + Send),
    ) -> Result<u64> {
        super::examples::export(&self.ctx, query.model, query.filter, write)
    }

    async fn annotation_agreement(
        &self,
        model: &str,
        question: Option<&str>,
    ) -> Result<AgreementReport> {
        let (model, question) = (model.to_owned(), question.map(str::to_owned));
        self.on_pool(move |ctx| super::agreement::agreement(ctx, &model, question.as_deref()))
            .await
    }

    async fn create_job(&self, model: &str, request: JobRequest) -> Result<Created> {
        let (job, claim) = new_job(&self.ctx, model, request, None).await?;
        self.claims
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .insert(job.job_id, claim);
        Ok(Created {
            job,
            replayed: false,
        })
    }

    async fn get_job(&self, job_id: &str) -> Result<Job> {
        let job_id = job_id.to_owned();
        self.on_pool(move |ctx| super::jobs::get(ctx, &super::jobs::resolve_id(ctx, &job_id)?))
            .await
    }

    async fn list_jobs(&self, query: JobsQuery<'_>) -> Result<Vec<Job>> {
        let model = query.model.map(str::to_owned);
        let statuses: Vec<JobStatus> = query.status.into_iter().collect();
        let limit = query.limit.max(1);
        self.on_pool(move |ctx| {
            let model_id = match model {
                Some(model) => Some(super::models::open(ctx, &model)?.model_id()),
                None => None,
            };
            super::jobs::list(ctx, model_id.as_ref(), &statuses, limit)
        })
        .await
    }

    async fn cancel_job(&self, job_id: &str) -> Result<Job> {
        let job_id = job_id.to_owned();
        self.on_pool(move |ctx| super::jobs::cancel(ctx, &super::jobs::resolve_id(ctx, &job_id)?))
            .await
    }

    async fn follow_job(&self, job: &Job, observer: &dyn Observer) -> Result<Job> {
        match self.take_claim(&job.job_id) {
            Some(claim) => super::runner::run(&self.ctx, claim, observer).await,
            None => self.watch(job, observer).await,
        }
    }

    async fn detach_job(&self, job: &Job) -> Result<()> {
        // The worker claims the job itself; until it does, the job is merely queued.
        if let Some(claim) = self.take_claim(&job.job_id) {
            self.on_pool(move |ctx| super::jobs::release(ctx, claim))
                .await?;
        }
        (self.spawn)(&self.ctx, &job.job_id)
    }

    async fn job_results(&self, job_id: &str, out: &mut (dyn Write + Send)) -> Result<Job> {
        let id = super::jobs::resolve_id(&self.ctx, job_id)?;
        let job = super::jobs::get(&self.ctx, &id)?;
        super::jobs::for_each_results_page(&self.ctx, &id, &mut |page| {
            out.write_all(page).map_err(write_error)
        })?;
        Ok(job)
    }

    async fn take_up_orphans(&self) -> Result<()> {
        let orphans = self.on_pool(super::jobs::recover).await?;
        for claim in orphans {
            let job_id = *claim.job_id();
            // The worker claims the job itself; should another process claim it first,
            // the worker finds it taken and exits.
            self.on_pool(move |ctx| super::jobs::release(ctx, claim))
                .await?;
            (self.spawn)(&self.ctx, &job_id)?;
        }
        Ok(())
    }

    async fn model_paths(&self) -> HashMap<ModelId, String> {
        super::access::model_paths(&self.ctx).unwrap_or_default()
    }

    fn runs_jobs_here(&self) -> bool {
        true
    }
}

/// Create the job `request` describes on `model` and claim it for running; `origin` names
/// the HTTP request that asked for it, if one did.
pub async fn new_job(
    ctx: &Context,
    model: &str,
    request: JobRequest,
    origin: Option<super::jobs::Origin>,
) -> Result<(Job, JobClaim)> {
    let (ctx, model) = (ctx.clone(), model.to_owned());
    blocking(move || match request {
        JobRequest::Batch {
            revision,
            questions,
            capture,
            items,
        } => {
            let mut lines;
            let source = match items {
                BatchItems::Lines(input) => {
                    lines = input;
                    Source::Lines(&mut lines)
                }
                BatchItems::Inline(items) => Source::Inline(items),
                BatchItems::Examples(set) => Source::Examples(set),
            };
            super::batch::create(
                &ctx,
                NewBatch {
                    model: &model,
                    revision: revision.as_deref(),
                    questions,
                    capture,
                    source,
                },
                origin,
            )
        }
        JobRequest::Alignment(request) => super::align::create(
            &ctx,
            super::align::NewAlignment {
                model: &model,
                request,
            },
            origin,
        ),
        JobRequest::Evaluation(request) => super::eval::create(
            &ctx,
            super::eval::NewEvaluation {
                model: &model,
                request,
            },
            origin,
        ),
    })
    .await
}

/// A failure to write output the caller asked for (a closed pipe, a full disk).
#[allow(clippy::needless_pass_by_value)] // for `map_err`
pub fn write_error(error: std::io::Error) -> Error {
    Error::Internal(format!("writing the output: {error}"))
}
