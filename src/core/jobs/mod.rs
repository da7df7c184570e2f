//! Jobs: durable records of work that outlives a request (batch decisions, alignments).
//!
//! A job is a row in the store (status, progress, the request to run from, its owner) and
//! its lines there (the staged input, the results: [`mod@lines`]), so any process on the
//! store, any replica, can run it. Whoever runs a job claims it ([`mod@claim`]); a job that
//! is unfinished while its owner's lease is dead was left by a process that died, and
//! [`recover`] claims it for the caller to resume. [`crate::core::runner`] takes a claimed
//! job to its end; this module knows no kind of job's work.

pub mod claim;
pub mod files;
mod legacy;
pub mod lines;
mod observer;
pub mod shards;

pub use crate::store::{JobPart, JobState, Outcome};
pub use claim::{JobClaim, claim, release};
pub use files::JobFiles;
pub(crate) use legacy::import as import_legacy;
pub(crate) use observer::Ending;
pub use observer::{Lines, NoObserver, Observer, Pace, follow};

use super::Context;
use crate::error::{Error, Result};
use crate::ids::{JobId, ModelId};
use crate::store::{JobFilter, JobRecord};
use crate::wire::Problem;
use crate::wire::jobs::{Job, JobKind, JobStatus, Progress};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

/// Where a job was asked for: what its problems (a failed item, a failed job) are built with.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Origin {
    /// `{public_url}/problems` of the server that took the request.
    pub problems_url: String,
    /// The request ID of the creating request (the job ID for a command-line job).
    pub request_id: String,
    /// The creating request's or command's span (W3C `traceparent`), when traces were
    /// exported: the job's spans link to it ([`crate::telemetry::traces::link_to`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub traceparent: Option<String>,
}

impl Origin {
    /// A job started from the command line: problem types under `server.public_url` when
    /// one is configured, else the relative `/problems`, as the server would say.
    pub fn local(ctx: &Context, job_id: &impl std::fmt::Display) -> Self {
        let base = ctx.settings().server.public_url.as_deref().unwrap_or("");
        Self {
            problems_url: format!("{}/problems", base.trim_end_matches('/')),
            request_id: job_id.to_string(),
            traceparent: None,
        }
    }

    /// The origin of a job being created: `given` (a server's request) or
    /// [`Origin::local`], with the current span's `traceparent` kept for the job's spans
    /// to link to.
    pub(crate) fn of_creation(
        ctx: &Context,
        given: Option<Self>,
        job_id: &impl std::fmt::Display,
    ) -> Self {
        Self {
            traceparent: crate::telemetry::traces::current_traceparent(),
            ..given.unwrap_or_else(|| Self::local(ctx, job_id))
        }
    }

    /// Link `span` (the job's run, or a shard's) to what asked for the job.
    pub(crate) fn link(&self, span: &tracing::Span) {
        if let Some(traceparent) = &self.traceparent {
            crate::telemetry::traces::link_to(span, traceparent);
        }
    }

    pub fn problem(&self, error: &Error) -> Problem {
        error.to_problem(&self.problems_url, &self.request_id)
    }
}

/// What one kind of job runs from, as it is stored with the job ([`Draft::record`]) and
/// read back to run it: its typed request and where it was asked for.
pub(crate) trait Spec: Serialize + DeserializeOwned {
    /// The kind of job that runs from this.
    const KIND: JobKind;
    fn origin(&self) -> &Origin;
    /// The parts of its results and the input lines each decides, when the job is split
    /// into shards any process's workers claim ([`mod@shards`]); none: it runs whole.
    fn sharded(&self, _total: u64) -> Vec<(JobPart, u64)> {
        Vec::new()
    }
}

/// A job being created: its ID, claimed by this process, and its staged input, not yet
/// recorded. Dropping it without [`Draft::record`] (an error while staging) removes what
/// was staged, so a failed creation leaves nothing behind.
pub(crate) struct Draft {
    ctx: Context,
    job_id: JobId,
    claim: Option<JobClaim>,
}

impl Draft {
    pub(crate) fn new(ctx: &Context) -> Result<Self> {
        let job_id = JobId::new_v4();
        if !ctx.lease()?.hold(&job_id) {
            return Err(Error::bug(format!("a new job ({job_id}) is already held")));
        }
        Ok(Self {
            ctx: ctx.clone(),
            job_id,
            claim: Some(JobClaim::held(ctx, job_id)),
        })
    }

    pub(crate) fn job_id(&self) -> &JobId {
        &self.job_id
    }

    /// A writer of the job's input lines.
    pub(crate) fn input(&self) -> lines::LineWriter {
        lines::LineWriter::new(&self.ctx, self.job_id, JobPart::Input, None, 0)
    }

    /// Record the job `queued`, owned by this process, with the request it runs from; the
    /// caller holds the returned claim and runs the job ([`crate::core::runner::run`]) or
    /// hands it on.
    pub(crate) fn record<S: Spec>(
        mut self,
        ctx: &Context,
        model_id: &ModelId,
        spec: &S,
        total: u64,
    ) -> Result<(Job, JobClaim)> {
        let request =
            serde_json::to_value(spec).map_err(|e| Error::internal("serializing a job", e))?;
        let size = shards::size_for(total, ctx.settings().server.shard_size);
        let plan = shards::plan(&spec.sharded(total), size);
        let record = ctx.store()?.insert_job(&crate::store::NewJob {
            job_id: &self.job_id,
            model_id,
            kind: S::KIND,
            request: &request,
            total,
            owner: Some(ctx.lease()?.id()),
            shards: &plan,
        })?;
        let claim = self
            .claim
            .take()
            .ok_or_else(|| Error::bug("a draft recorded twice"))?;
        Ok((to_wire(record), claim))
    }
}

impl Drop for Draft {
    fn drop(&mut self) {
        if self.claim.take().is_some()
            && let Ok(store) = self.ctx.store()
            && let Err(error) = store.delete_job_lines(&self.job_id)
        {
            tracing::warn!(job = %self.job_id, %error, "removing a failed job's staged input");
        }
    }
}

/// The files of job `job_id`.
pub fn files(ctx: &Context, job_id: &JobId) -> JobFiles {
    JobFiles::new(&ctx.settings().jobs_dir(), job_id)
}

/// A job ID as routes and the command line give it: text that is no job ID names no job.
pub fn parse_id(job_id: &str) -> Result<JobId> {
    job_id
        .parse()
        .map_err(|_| Error::JobNotFound(job_id.to_owned()))
}

pub use super::prefix::MIN_PREFIX;

/// The job that `text` names on the command line: its whole ID, or a prefix of it that
/// starts no other job's. The HTTP routes take whole IDs only ([`parse_id`]).
pub fn resolve_id(ctx: &Context, text: &str) -> Result<JobId> {
    if let Ok(id) = text.parse() {
        return Ok(id);
    }
    let prefix = id_prefix(text)?;
    let candidates = ctx.store()?.list_jobs(&JobFilter {
        id_prefix: Some(prefix),
        limit: super::prefix::CANDIDATES,
        ..JobFilter::default()
    })?;
    unique(text, candidates.iter().map(|record| record.job_id))
}

/// `text` as a job ID prefix: at least [`MIN_PREFIX`] characters of a job ID as printed
/// (lowercase hex digits and hyphens). A shorter one is refused as too short (it may well
/// start a job: "not found" would be wrong); anything else names no job.
pub fn id_prefix(text: &str) -> Result<&str> {
    let hex = |c: char| c.is_ascii_digit() || ('a'..='f').contains(&c) || c == '-';
    if text.len() >= 36 || !text.chars().all(hex) {
        Err(Error::JobNotFound(text.to_owned()))
    } else {
        super::prefix::long_enough("job", text)
    }
}

/// The one job among `candidates` whose ID starts with `prefix` (others are ignored): not
/// found when none does, an error naming them when several do.
pub fn unique(prefix: &str, candidates: impl IntoIterator<Item = JobId>) -> Result<JobId> {
    super::prefix::unique("job", prefix, candidates, || {
        Err(Error::JobNotFound(prefix.to_owned()))
    })
}

/// A job as polled, with its shards' summary when it has shards.
pub fn get(ctx: &Context, job_id: &JobId) -> Result<Job> {
    let mut job = to_wire(record(ctx, job_id)?);
    job.shards = shards::summary(ctx, job_id, job.status.is_finished())?;
    Ok(job)
}

/// Job `job_id` of kind `kind` on model `model_id`, or `job_not_found`: a job is only found
/// under the model and the route it was created under.
pub fn get_under(ctx: &Context, model_id: &ModelId, kind: JobKind, job_id: &JobId) -> Result<Job> {
    let job = get(ctx, job_id)?;
    if job.model_id != *model_id || job.kind != kind {
        return Err(Error::JobNotFound(job_id.to_string()));
    }
    Ok(job)
}

/// Jobs, newest first: of one model (by `modelId`) or all, of some statuses or all.
pub fn list(
    ctx: &Context,
    model_id: Option<&ModelId>,
    statuses: &[JobStatus],
    limit: usize,
) -> Result<Vec<Job>> {
    Ok(ctx
        .store()?
        .list_jobs(&JobFilter {
            model_id,
            statuses,
            id_prefix: None,
            limit,
        })?
        .into_iter()
        .map(to_wire)
        .collect())
}

/// How many jobs of each kind are in each status, as `(kind, status, count)` with every
/// pair (0 for none), for the metrics' `arbiter_jobs`.
pub fn count_by_state(ctx: &Context) -> Result<Vec<(&'static str, &'static str, u64)>> {
    use strum::VariantArray as _;
    let stored = ctx.store()?.count_jobs()?;
    Ok(JobKind::VARIANTS
        .iter()
        .flat_map(|&kind| {
            JobStatus::VARIANTS
                .iter()
                .map(move |&status| (kind, status))
        })
        .map(|(kind, status)| {
            let count = stored
                .iter()
                .find(|(k, s, _)| (*k, *s) == (kind, status))
                .map_or(0, |&(_, _, n)| n);
            (kind.as_str(), status.as_str(), count)
        })
        .collect())
}

/// Ask a job to stop, through any process on the store; idempotent, and a finished job is
/// left as it finished. A queued job is cancelled at once; a running one stops at its next
/// item, wherever it runs. A job whose owner died is cancelled here and now, since nobody
/// else would.
pub fn cancel(ctx: &Context, job_id: &JobId) -> Result<Job> {
    let record = ctx
        .store()?
        .cancel_job(job_id)?
        .ok_or_else(|| Error::JobNotFound(job_id.to_string()))?;
    if matches!(record.state, JobState::Running { .. })
        && let Some(_orphan) = claim(ctx, job_id)?
    {
        ctx.store()?
            .finish_job(job_id, ctx.lease()?.id(), &Outcome::Cancelled, None)?;
    }
    if matches!(record.state, JobState::Running { .. }) {
        // A shard nobody alive runs is claimable: claiming it ends the job cancelled.
        // Shards that live workers run stop at their next chunk, and they end it.
        if let Some(taken) = shards::claim_next(ctx, Some(job_id))? {
            shards::release(ctx, taken)?;
        }
    }
    get(ctx, job_id)
}

/// A page of a batch job's results from line `from` on (complete lines, each ending in a
/// newline) and the line to read next; `None` past the last so far.
pub fn results_page(ctx: &Context, job_id: &JobId, from: u64) -> Result<Option<(Vec<u8>, u64)>> {
    lines::page(ctx, job_id, JobPart::Results, from)
}

/// Call `f` with every page of a batch job's results so far, in order ([`results_page`]).
pub fn for_each_results_page(
    ctx: &Context,
    job_id: &JobId,
    f: &mut dyn FnMut(&[u8]) -> Result<()>,
) -> Result<()> {
    let mut next = 0;
    while let Some((page, after)) = results_page(ctx, job_id, next)? {
        f(&page)?;
        next = after;
    }
    Ok(())
}

/// Unfinished jobs that nobody alive runs (their process died, or the server that queued
/// them stopped), oldest first, each now claimed by the caller, which must resume it
/// ([`crate::core::runner::run`]) or release it.
pub fn recover(ctx: &Context) -> Result<Vec<JobClaim>> {
    claim::claim_orphans(ctx)
}

/// Record a running job's progress; whether it must stop (a cancel has been asked for, or
/// the job is no longer this process's to run).
pub(crate) async fn record_progress(
    ctx: &Context,
    job_id: &JobId,
    progress: Progress,
) -> Result<bool> {
    let (ctx, id) = (ctx.clone(), *job_id);
    super::blocking(move || {
        Ok(ctx.store()?.set_job_progress(
            &id,
            ctx.lease()?.id(),
            (progress.total, progress.done, progress.failed),
        )?)
    })
    .await
}

pub(crate) fn record(ctx: &Context, job_id: &JobId) -> Result<JobRecord> {
    ctx.store()?
        .get_job(job_id)?
        .ok_or_else(|| Error::JobNotFound(job_id.to_string()))
}

/// The wire form of a stored job: its state spelled out as status, times, error and result.
pub fn to_wire(record: JobRecord) -> Job {
    let status = record.state.status();
    let started_at = record.state.started_at();
    let finished_at = record.state.finished_at();
    let (error, result) = match record.state {
        JobState::Finished { outcome, .. } => match outcome {
            Outcome::Completed { result } => (None, Some(result)),
            Outcome::Failed { problem } => (Some(problem), None),
            Outcome::Cancelled => (None, None),
        },
        JobState::Queued | JobState::Running { .. } => (None, None),
    };
    Job {
        job_id: record.job_id,
        model_id: record.model_id,
        kind: record.kind,
        status,
        created_at: record.created_at,
        started_at,
        finished_at,
        progress: Progress {
            total: record.total,
            done: record.done,
            failed: record.failed,
        },
        cancel_requested: record.cancel_requested && !status.is_finished(),
        error,
        result,
        shards: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn id(text: &str) -> JobId {
        text.parse().unwrap()
    }

    #[test]
    fn a_prefix_names_the_one_job_it_starts() {
        let a = id("3f2a9c1e-7b4d-4e1a-9c2b-000000000001");
        let b = id("3f2a9c1e-7b4d-4e1a-9c2b-000000000002");
        let c = id("9d0c1b2a-0000-4000-8000-000000000000");
        assert_eq!(unique("9d0c", [a, b, c]).unwrap(), c);
        assert_eq!(
            unique("3f2a9c1e-7b4d-4e1a-9c2b-0000000000", [a, c]).unwrap(),
            a
        );
        let ambiguous = unique("3f2a9c1e-7b4d", [a, b, c]).unwrap_err();
        assert_eq!(ambiguous.exit_code(), 4);
        let text = ambiguous.to_string();
        assert!(
            text.contains(&a.to_string()) && text.contains(&b.to_string()),
            "{text}"
        );
        assert!(matches!(unique("aaaa", [a, b]), Err(Error::JobNotFound(_))));
    }

    #[test]
    fn a_prefix_is_four_or_more_characters_of_an_id_as_printed() {
        assert!(id_prefix("3f2a").is_ok());
        assert!(id_prefix("3f2a9c1e-7b4d").is_ok());
        for bad in ["3F2A", "3f2a%", "j1-x"] {
            assert!(
                matches!(id_prefix(bad), Err(Error::JobNotFound(_))),
                "{bad}"
            );
        }
        // Shorter than the minimum: said so, not "not found" (it may start a job).
        for short in ["3f2", ""] {
            let error = id_prefix(short).unwrap_err();
            assert_eq!(error.kind(), crate::error::ErrorKind::Invalid, "{short}");
            assert!(error.to_string().contains("too short"), "{error}");
        }
    }
}
