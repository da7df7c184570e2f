//! Client mode: [`Remote`], the [`Service`] of a shared `arbiter serve`, spoken to over its
//! HTTP interface. Every command with a route runs through it unchanged (`--server URL`).
//!
//! What it adds on the way:
//! - Models are named as the user names them: a path goes into the URL with its `/`
//!   percent-encoded (`/v1/models/acme%2Fsupport/…`), so not-found errors read as locally.
//! - Jobs are created with an `Idempotency-Key` derived from the request, the model, the
//!   input's bytes and the CI run (see [`crate::config::ClientSettings::run_id`]): a retried
//!   step gets the job the first attempt started, unless that job failed or was cancelled,
//!   when the key moves on (derived from the old key and job) and a new job starts.
//!   Decisions carry a key per invocation, so the transport may repeat them.
//! - Ingest and bulk annotation go up in chunks of whole lines (`upload`), each with its
//!   own key, and the reports are summed with line numbers of the whole file.
//! - Retries and problem documents: `http`.

mod examples;
mod http;
mod jobs;
mod older_servers;
mod upload;

use crate::config::ClientSettings;
use crate::core::examples::export_line;
use crate::core::jobs::{Lines, Observer, Pace, follow};
use crate::core::service::{
    AnnotateRequest, Annotator, ClaimNext, Created, ExamplesQuery, IngestRequest, Input,
    JobRequest, JobsQuery, LogQuery, ModelService, Service,
};
use crate::error::{Error, Result};
use crate::ids::ModelId as JobModelId;
use crate::ids::{ExampleId, JobRef, ModelRef};
use crate::store::{ExampleFilter, IngestCounts};
use crate::wire::agreement::AgreementReport;
use crate::wire::claims::{ClaimBody, NextToAnnotate};
use crate::wire::decision::Checkpoint;
use crate::wire::examples::{Annotation, AnnotationInput, ExampleDetail, IngestExample};
use crate::wire::examples::{ExamplePage, IngestReport};
use crate::wire::jobs::{Job, JobKind, JobStatus};
use crate::wire::models::{ModelDetail, ModelList};
use crate::wire::registry::{ModelDiff, RegistryEvent};
use crate::wire::to_annotate::{ToAnnotate, ToAnnotateBody, ToAnnotateQuery};
use crate::wire::{DecisionRequest, DecisionResponse, paths};
use examples::{counts, is_example_not_found, server_names_annotator, too_large_hint};
use http::{Http, Request};
use std::collections::HashMap;
use std::io::Write;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

/// How many failed or cancelled jobs a creation steps past (see [`Remote::create_job`]).
const MAX_RESTARTS: usize = 8;

/// The operations of a shared server.
pub struct Remote {
    http: Http,
    run_id: Option<String>,
    chunk_bytes: usize,
    /// Whether the server may know an evaluation's `warm_states`: false once it has refused
    /// it as a member it does not know ([`older_servers`]).
    sends_warm_states: AtomicBool,
}

impl Remote {
    pub fn new(settings: &ClientSettings) -> Result<Self> {
        Ok(Self {
            http: Http::new(&settings.url, settings.token.clone())?,
            run_id: settings.run_id.clone(),
            chunk_bytes: settings.chunk_bytes,
            sends_warm_states: AtomicBool::new(true),
        })
    }

    /// The server's URL.
    pub fn url(&self) -> &str {
        self.http.base()
    }
}

impl Remote {
    /// Create a job as `request` says, under its `Idempotency-Key` (see the module
    /// documentation), stepping past the failed or cancelled jobs an earlier attempt made.
    async fn create_job_as_asked(&self, model: &str, request: JobRequest) -> Result<Created> {
        let (kind, request) = self.job_request(model, request)?;
        let mut request = request;
        let mut restarts = 0;
        loop {
            let reply = self.http.send(&request).await.map_err(|error| {
                if kind == JobKind::Batch {
                    too_large_hint(
                        error,
                        "`arbiter batch --input` sends the whole input in one request: split it \
                         into smaller files, or raise server.max_body_bytes on the server",
                    )
                } else {
                    error
                }
            })?;
            let mut job: Job = reply.json()?;
            if reply.replayed {
                // A replay is the answer of the time: the job as it was created.
                job = self.get_job(&job.job_id.into()).await?;
            }
            // A retry after a failed or cancelled job wants a new one, not that ending
            // again. Its key follows from the old key and the old job, so retrying *this*
            // step again still lands on the same new job.
            let ended_badly = matches!(job.status, JobStatus::Failed | JobStatus::Cancelled);
            if reply.replayed && ended_badly && restarts < MAX_RESTARTS {
                let key = request.idempotency_key().unwrap_or_default();
                let id = job.job_id.to_string();
                let next = self.job_key(kind, model, &[key.as_bytes(), id.as_bytes()]);
                request = request.key(next);
                restarts += 1;
                continue;
            }
            return Ok(Created {
                job,
                replayed: reply.replayed,
            });
        }
    }
}

#[async_trait::async_trait]
impl Service for Remote {
    async fn decide(&self, request: &DecisionRequest) -> Result<DecisionResponse> {
        // A key of this invocation: the transport may repeat it, the server answers once.
        let request = Request::post(paths::DECISION, &[])
            .json(request)?
            .key(format!("arbiter-decide-{}", uuid::Uuid::new_v4()));
        self.http.json(&request).await
    }

    async fn list_models(&self) -> Result<ModelList> {
        self.http.json(&Request::get(paths::MODELS, &[])).await
    }

    async fn model(&self, model: &ModelRef) -> Result<Box<dyn ModelService + '_>> {
        Ok(Box::new(RemoteModel {
            remote: self,
            model: model.to_string(),
        }))
    }

    async fn create_job(&self, model: &ModelRef, request: JobRequest) -> Result<Created> {
        self.create_job_for_server(&model.to_string(), request)
            .await
    }

    async fn get_job(&self, job: &JobRef) -> Result<Job> {
        let job_id = self.resolve_job(job).await?;
        self.http.json(&Request::get(paths::JOB, &[&job_id])).await
    }

    async fn list_jobs(&self, query: JobsQuery<'_>) -> Result<Vec<Job>> {
        let JobsQuery {
            model,
            status,
            limit,
        } = query;
        let mut request = Request::get(paths::JOBS, &[]).query("limit", &limit.max(1));
        if let Some(model) = model {
            request = request.query("model", &model);
        }
        if let Some(status) = status {
            request = request.query("status", &status.as_str());
        }
        self.http.json(&request).await
    }

    async fn cancel_job(&self, job: &JobRef) -> Result<Job> {
        let job_id = &self.resolve_job(job).await?;
        // Cancelling is idempotent (204 every time): repeatable.
        let request = Request::post(paths::JOB_CANCEL, &[job_id]).repeatable();
        self.http.send(&request).await?;
        self.get_job(&JobRef::from(job_id.as_str())).await
    }

    async fn follow_job(&self, job: &Job, observer: &dyn Observer) -> Result<Job> {
        const PACE: Pace = Pace {
            first: Duration::from_millis(150),
            growth: 1.5,
            most: Duration::from_secs(1),
        };
        let id = job.job_id;
        let look = |_| async move { self.get_job(&id.into()).await };
        let job = follow(job.clone(), observer, PACE, look).await?;
        if observer.wants_lines() {
            let mut lines = Lines::new(observer);
            self.results(&job.job_id, &mut |chunk| {
                lines.feed(chunk);
                Ok(())
            })
            .await?;
            lines.finish();
        }
        Ok(job)
    }

    async fn detach_job(&self, _job: &Job) -> Result<()> {
        // It runs on the server: nothing to hand on.
        Ok(())
    }

    async fn job_results(&self, job: &JobRef, out: &mut (dyn Write + Send)) -> Result<Job> {
        let job = self.get_job(job).await?;
        self.results(&job.job_id, &mut |chunk| {
            out.write_all(chunk)
                .map_err(crate::core::service::write_error)
        })
        .await?;
        Ok(job)
    }

    async fn take_up_orphans(&self) -> Result<()> {
        // The server takes up its own.
        Ok(())
    }

    async fn model_paths(&self) -> HashMap<JobModelId, String> {
        match self.list_models().await {
            Ok(list) => list
                .models
                .into_iter()
                .filter_map(|m| Some((m.model_id?, m.path?)))
                .collect(),
            Err(_) => HashMap::new(),
        }
    }

    fn runs_jobs_here(&self) -> bool {
        false
    }
}

/// A repository model on the server, by path or `modelId` as the command line named it:
/// its operations are the routes under it.
struct RemoteModel<'a> {
    remote: &'a Remote,
    model: String,
}

#[async_trait::async_trait]
impl ModelService for RemoteModel<'_> {
    async fn show(&self) -> Result<ModelDetail> {
        let model = &self.model;
        self.remote
            .http
            .json(&Request::get(paths::MODEL, &[model]))
            .await
    }

    async fn log(&self, query: LogQuery<'_>) -> Result<Vec<Checkpoint>> {
        let LogQuery { revision, limit } = query;
        let model = &self.model;
        let mut request = Request::get(paths::CHECKPOINTS, &[model]).query("limit", &limit);
        if let Some(revision) = revision {
            request = request.query("revision", &revision);
        }
        self.remote.http.json(&request).await
    }

    async fn promote(&self, revision: &str, evaluation: Option<&str>) -> Result<Checkpoint> {
        let model = &self.model;
        // Not repeated: the route keeps no idempotency record.
        let request =
            Request::post(paths::PROMOTE, &[model]).json(&crate::wire::models::PromoteRequest {
                revision: revision.to_owned(),
                evaluation: evaluation.map(str::to_owned),
            })?;
        self.remote.http.json(&request).await
    }

    async fn history(&self, limit: usize) -> Result<Vec<RegistryEvent>> {
        let model = &self.model;
        self.remote
            .http
            .json(&Request::get(paths::HISTORY, &[model]).query("limit", &limit))
            .await
    }

    async fn diff(&self, from: &str, to: &str) -> Result<ModelDiff> {
        let model = &self.model;
        self.remote
            .http
            .json(
                &Request::get(paths::DIFF, &[model])
                    .query("from", &from)
                    .query("to", &to),
            )
            .await
    }

    async fn ingest(
        &self,
        request: IngestRequest,
        progress: &(dyn Fn(IngestCounts) + Send + Sync),
    ) -> Result<IngestReport> {
        let IngestRequest {
            input,
            atomic,
            annotator,
        } = request;
        let model = &self.model;
        server_names_annotator(&annotator)?;
        if atomic {
            let report = self.remote.ingest_atomic(model, input).await?;
            progress(counts(&report));
            return Ok(report);
        }
        self.remote
            .upload(model, paths::EXAMPLES, input, progress)
            .await
    }

    async fn annotate(&self, request: AnnotateRequest<'_>) -> Result<Annotation> {
        let AnnotateRequest {
            example_id,
            question_id,
            answer,
            reasoning,
            annotator,
        } = request;
        let model = &self.model;
        server_names_annotator(&annotator)?;
        let input = AnnotationInput { answer, reasoning };
        let patch = indexmap::IndexMap::from([(question_id.clone(), input)]);
        // Writing the same ground truth again changes nothing but its time: repeatable.
        let request = Request::patch(paths::EXAMPLE_ANNOTATIONS, &[model, example_id.as_str()])
            .json(&patch)?
            .repeatable();
        let mut detail: ExampleDetail = self.remote.http.json(&request).await?;
        detail
            .example
            .annotations
            .remove(&question_id)
            .ok_or_else(|| {
                Error::UpstreamFailed(format!(
                    "the server did not return the annotation of `{question_id}`"
                ))
            })
    }

    async fn annotate_lines(&self, annotator: Annotator, input: Input) -> Result<IngestReport> {
        let model = &self.model;
        server_names_annotator(&annotator)?;
        self.remote
            .upload(model, paths::ANNOTATIONS, input, &|_| {})
            .await
    }

    async fn list_examples(&self, query: ExamplesQuery<'_>) -> Result<ExamplePage> {
        let ExamplesQuery {
            filter,
            after,
            limit,
        } = query;
        let model = &self.model;
        let mut request = Request::get(paths::EXAMPLES, &[model]).query("limit", &limit);
        if let Some(annotated) = filter.annotated {
            request = request.query("annotated", &annotated);
        }
        if let Some(question) = &filter.question {
            request = request.query("question", &question);
        }
        if let Some(answer) = &filter.answer {
            request = request.query("answer", &crate::wire::examples::answer_text(answer));
        }
        if let Some(text) = &filter.text {
            request = request.query("text", &text);
        }
        if let Some(after) = after {
            request = request.query("after", &after);
        }
        self.remote.http.json(&request).await
    }

    async fn show_example(&self, example_id: &ExampleId) -> Result<ExampleDetail> {
        self.remote
            .get_example(&self.model, example_id.as_str())
            .await
    }

    async fn resolve_example(&self, text: &str) -> Result<ExampleId> {
        let model = &self.model;
        // A whole ID (or none): the route answers for it, and the operation then says any
        // not-found in the server's own words.
        match self.remote.get_example(model, text).await {
            Err(error) if is_example_not_found(&error) => {}
            _ => return Ok(ExampleId::from(text)),
        }
        let prefix = crate::core::examples::id_prefix(text)?;
        // The examples after the prefix in ID order: those that start with it come first.
        let request = Request::get(paths::EXAMPLES, &[model])
            .query("after", &prefix)
            .query("limit", &crate::core::prefix::CANDIDATES);
        let page: ExamplePage = self.remote.http.json(&request).await?;
        crate::core::examples::unique(
            prefix,
            page.examples
                .into_iter()
                .map(|e| e.example_id.into_string()),
        )
    }

    async fn examples_to_annotate(
        &self,
        query: &ToAnnotateQuery,
        working: Option<&crate::wire::Questions>,
    ) -> Result<ToAnnotate> {
        let model = &self.model;
        let values = [model.as_str()];
        // A working copy's questions go in a body: the same route, `POST`.
        let mut request = match working {
            None => Request::get(paths::EXAMPLES_TO_ANNOTATE, &values),
            // Nothing is recorded: sending it twice does no harm.
            Some(questions) => Request::post(paths::EXAMPLES_TO_ANNOTATE, &values)
                .json(&ToAnnotateBody {
                    working_questions: questions.clone(),
                })?
                .repeatable(),
        };
        for (name, value) in query.to_pairs() {
            request = request.query(name, &value);
        }
        self.remote.http.json(&request).await
    }

    async fn claim_next(&self, request: ClaimNext<'_>) -> Result<NextToAnnotate> {
        server_names_annotator(&request.annotator)?;
        let model = &self.model;
        // Claiming again what is one's own only renews it: repeatable.
        let mut http = Request::post(paths::ANNOTATION_CLAIMS, &[model])
            .json(&ClaimBody {
                skip: request.skip.iter().map(ToString::to_string).collect(),
                ids: request.chosen.only.map(<[String]>::to_vec),
                exclude: request.chosen.except.to_vec(),
            })?
            .repeatable();
        for (name, value) in request.query.to_pairs() {
            http = http.query(name, &value);
        }
        self.remote.http.json(&http).await
    }

    async fn release_claim(&self, example_id: &ExampleId, annotator: Annotator) -> Result<()> {
        server_names_annotator(&annotator)?;
        let model = &self.model;
        self.remote
            .http
            .send(&Request::delete(
                paths::ANNOTATION_CLAIM,
                &[model.as_str(), example_id.as_str()],
            ))
            .await
            .map(drop)
    }

    async fn delete_branch(&self, branch: &str) -> Result<()> {
        let model = &self.model;
        self.remote
            .http
            .send(&Request::delete(paths::BRANCH, &[model.as_str(), branch]))
            .await
            .map(drop)
    }

    async fn delete_examples(&self, example_ids: &[ExampleId]) -> Result<()> {
        let model = &self.model;
        // Every ID found before any is deleted: an unknown one deletes nothing.
        for id in example_ids {
            self.remote.get_example(model, id.as_str()).await?;
        }
        for id in example_ids {
            self.remote
                .http
                .send(&Request::delete(
                    paths::EXAMPLE,
                    &[model.as_str(), id.as_str()],
                ))
                .await?;
        }
        Ok(())
    }

    async fn unannotate(
        &self,
        example_id: &ExampleId,
        question: &str,
        annotator: Annotator,
    ) -> Result<()> {
        server_names_annotator(&annotator)?;
        let model = &self.model;
        self.remote
            .http
            .send(&Request::delete(
                paths::ANNOTATION,
                &[model, example_id.as_str(), question],
            ))
            .await
            .map(drop)
    }

    async fn export_examples(
        &self,
        filter: &ExampleFilter,
        write: &mut (dyn for<'v> FnMut(&'v IngestExample) -> Result<()> + Send),
    ) -> Result<u64> {
        let mut count = 0;
        let mut after: Option<String> = None;
        loop {
            let page = self
                .list_examples(ExamplesQuery {
                    filter,
                    after: after.as_deref(),
                    limit: 1000,
                })
                .await?;
            for example in &page.examples {
                write(&export_line(example))?;
                count += 1;
            }
            match page.next_cursor {
                Some(cursor) => after = Some(cursor),
                None => return Ok(count),
            }
        }
    }

    async fn annotation_agreement(&self, question: Option<&str>) -> Result<AgreementReport> {
        let model = &self.model;
        let mut request = Request::get(paths::ANNOTATION_AGREEMENT, &[model]);
        if let Some(question) = question {
            request = request.query("question", &question);
        }
        self.remote.http.json(&request).await
    }
    async fn plan_alignment(
        &self,
        request: &crate::wire::align::AlignmentRequest,
    ) -> Result<crate::wire::align::AlignmentPlan> {
        let model = &self.model;
        // Asks nothing of the engine: repeatable.
        let http = Request::post(paths::ALIGNMENT_PLAN, &[model])
            .json(request)?
            .repeatable();
        self.remote.http.json(&http).await
    }
}
