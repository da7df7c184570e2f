//! One interface to every operation the command line runs against a home: [`Service`],
//! and through [`Service::model`] a repository model's operations, [`ModelService`].
//!
//! Each has two implementations. Locally, [`Local`] runs them on this process's
//! `ARBITER_HOME` as its owner: a model's operations are those of
//! [`super::access::OnModel`], the door the server's handlers use too, so they are written
//! once. `crate::client::Remote` asks a shared `arbiter serve` for them over HTTP. A
//! command is written once, over `&dyn Service`, and gives the same output and exit code
//! either way. The methods take and return the contract types of [`crate::wire`] and fail
//! with the crate [`Error`]; no HTTP or storage type crosses here.
//!
//! Jobs have one life cycle on both sides: [`Service::create_job`] queues a job,
//! [`Service::follow_job`] watches it until it ends (running it here when this process
//! owns it), and [`Service::detach_job`] lets it run without us.

use super::access::{self, JobListing};
use super::jobs::{JobClaim, Lines, Observer, Pace, follow};
use super::tokens::Principal;
use super::{Context, blocking};
use crate::error::{Error, Result};
use crate::ids::{JobId, JobRef, ModelId, ModelRef};
use crate::wire::jobs::Job;
use crate::wire::models::{ModelKind, ModelList};
use crate::wire::{DecisionRequest, DecisionResponse};
use std::collections::HashMap;
use std::io::Write;
use std::sync::{Arc, Mutex};
use std::time::Duration;

pub use super::access::ModelService;
pub use super::requests::{
    AnnotateRequest, Annotator, BatchItems, ClaimNext, ExamplesQuery, IngestRequest, Input,
    JobRequest, JobsQuery, LOCAL_ANNOTATOR, LogQuery, local_user,
};

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
    /// The repository model `text` names on the command line: its path or its `modelId`.
    /// Anything else is not found, with "did you mean" among the base models listed here
    /// ([`super::models::named`]), in the words a server answers a route with.
    async fn model_named(&self, text: &str) -> Result<ModelRef> {
        if let Ok(model) = text.parse() {
            return Ok(model);
        }
        let list = self.list_models().await?;
        let base_models = list.models.iter().filter(|m| m.kind == ModelKind::Base);
        super::models::named(text, base_models.map(|m| m.name.as_str()))
    }
    /// The operations on one repository model, by path or `modelId`: locally the home's
    /// owner's ([`super::access::OnModel`]), remotely the server's routes under it. Locally
    /// the model is found here (not found: an error now); remotely at its first operation.
    async fn model(&self, model: &ModelRef) -> Result<Box<dyn ModelService + '_>>;

    /// Queue a job on `model`. Remotely the request is sent with an `Idempotency-Key`
    /// derived from it (and from the input's bytes), so sending it again returns the same job.
    async fn create_job(&self, model: &ModelRef, request: JobRequest) -> Result<Created>;
    /// A job as it is now. Here and in the other job operations that take it, a
    /// [`JobRef::Prefix`] must start only this job's ID ([`super::jobs::resolve_id`]):
    /// remotely, it is looked up in `GET /v1/jobs?idPrefix=`, since the job routes take
    /// whole IDs only.
    async fn get_job(&self, job: &JobRef) -> Result<Job>;
    /// Jobs, newest first: of one model or all, of one status or all.
    async fn list_jobs(&self, query: JobsQuery<'_>) -> Result<Vec<Job>>;
    /// Ask a job to stop (idempotent; a finished job stays as it finished); the job after.
    async fn cancel_job(&self, job: &JobRef) -> Result<Job>;
    /// Watch `job` until it ends and return it as it ended. A job this process created and
    /// did not detach runs here. `observer` hears progress; when it
    /// [wants lines](Observer::wants_lines), every result line reaches it once, in order,
    /// before this returns (as they are written when the job runs here, else once it ends).
    async fn follow_job(&self, job: &Job, observer: &dyn Observer) -> Result<Job>;
    /// Let a job created here run without this process (locally: in a background worker).
    async fn detach_job(&self, job: &Job) -> Result<()>;
    /// Write the complete result lines of a job so far to `out`; the job as it was read.
    async fn job_results(&self, job: &JobRef, out: &mut (dyn Write + Send)) -> Result<Job>;
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

/// Starts a background process that runs job `job_id` (the command line's `jobs worker`).
pub type Spawner = Arc<dyn Fn(&Context, &JobId) -> Result<()> + Send + Sync>;

/// The operations on this process's home.
pub struct Local {
    ctx: Context,
    /// Whom the operations run as: the user, who owns the home.
    owner: Principal,
    /// Claims on the jobs this process created and has not yet run or handed on.
    claims: Mutex<HashMap<JobId, JobClaim>>,
    spawn: Spawner,
}

impl Local {
    /// The operations on `ctx`'s home; detached and orphaned jobs go to `spawn`.
    pub fn new(ctx: Context, spawn: Spawner) -> Self {
        Self {
            ctx,
            owner: Principal::owner(local_user()),
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

    /// The job `job` names: a prefix must start only its ID ([`super::jobs::resolve_id`]).
    async fn resolve_job(&self, job: &JobRef) -> Result<JobId> {
        match job {
            JobRef::Id(id) => Ok(*id),
            JobRef::Prefix(text) => {
                let text = text.clone();
                self.on_pool(move |ctx| super::jobs::resolve_id(ctx, &text))
                    .await
            }
        }
    }

    /// The owner's proof on `model`: the owner is `admin` of every model of the home, so
    /// the proof serves every operation, each of which names the role it needs; the model
    /// is found (or not) once.
    async fn permit(&self, model: &ModelRef) -> Result<access::Permitted> {
        self.session().permit(access::Need::OWNER, model).await
    }

    /// The owner at the door.
    fn session(&self) -> access::Session<'_> {
        access::Session::new(&self.ctx, &self.owner)
    }

    fn take_claim(&self, job_id: &JobId) -> Option<JobClaim> {
        self.claims
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .remove(job_id)
    }

    /// Follow a job another process runs until it ends, taking up orphans every fifth look
    /// (its runner may die while we watch).
    async fn watch(&self, job: &Job, observer: &dyn Observer) -> Result<Job> {
        const PACE: Pace = Pace {
            first: Duration::from_millis(200),
            growth: 1.0,
            most: Duration::from_millis(200),
        };
        let id = job.job_id;
        let get = || self.on_pool(move |ctx| super::jobs::get(ctx, &id));
        let job = follow(get().await?, observer, PACE, |waits| async move {
            if waits.is_multiple_of(5) {
                self.take_up_orphans().await?;
            }
            get().await
        })
        .await?;
        if observer.wants_lines() {
            let mut lines = Lines::new(observer);
            super::jobs::for_each_results_page(&self.ctx, &job.job_id, &mut |page| {
                lines.feed(page);
                Ok(())
            })?;
            lines.finish();
        }
        Ok(job)
    }
}

#[async_trait::async_trait]
impl Service for Local {
    async fn decide(&self, request: &DecisionRequest) -> Result<DecisionResponse> {
        let request_id = uuid::Uuid::new_v4().to_string();
        self.session().decide(request, &request_id).await
    }

    async fn list_models(&self) -> Result<ModelList> {
        self.session().list_models().await
    }

    async fn model(&self, model: &ModelRef) -> Result<Box<dyn ModelService + '_>> {
        Ok(Box::new(access::OnModel::new(
            &self.ctx,
            self.permit(model).await?,
        )))
    }

    async fn create_job(&self, model: &ModelRef, request: JobRequest) -> Result<Created> {
        let on = access::OnModel::new(&self.ctx, self.permit(model).await?);
        let (job, claim) = on.create_job(request, None).await?;
        self.claims
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .insert(job.job_id, claim);
        Ok(Created {
            job,
            replayed: false,
        })
    }

    async fn get_job(&self, job: &JobRef) -> Result<Job> {
        let job_id = self.resolve_job(job).await?;
        self.session().job(&job_id).await
    }

    async fn list_jobs(&self, query: JobsQuery<'_>) -> Result<Vec<Job>> {
        let model = match query.model {
            Some(model) => Some(self.permit(model).await?),
            None => None,
        };
        let listing = JobListing {
            model,
            statuses: query.status.into_iter().collect(),
            limit: query.limit.max(1),
            ..JobListing::default()
        };
        self.session().jobs(listing).await
    }

    async fn cancel_job(&self, job: &JobRef) -> Result<Job> {
        let job_id = self.resolve_job(job).await?;
        self.session().cancel_job(&job_id).await
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

    async fn job_results(&self, job: &JobRef, out: &mut (dyn Write + Send)) -> Result<Job> {
        let id = self.resolve_job(job).await?;
        let job = self.session().job(&id).await?;
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
        // A sharded job nobody works on gets a worker too (which shares it with any other).
        for job_id in self.on_pool(super::jobs::shards::unattended).await? {
            tracing::info!(job = %job_id, "taking up a sharded job nobody works on");
            (self.spawn)(&self.ctx, &job_id)?;
        }
        Ok(())
    }

    async fn model_paths(&self) -> HashMap<ModelId, String> {
        let ctx = self.ctx.clone();
        blocking(move || access::model_paths(&ctx))
            .await
            .unwrap_or_default()
    }

    fn runs_jobs_here(&self) -> bool {
        true
    }
}

/// A failure to write output the caller asked for (a closed pipe, a full disk).
pub fn write_error(error: std::io::Error) -> Error {
    Error::internal("writing the output", error)
}
