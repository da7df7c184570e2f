//! Creating a batch-decision job (202 + `Location`) and reading its results (NDJSON).
//! Listing, polling and cancelling are the shared handlers of [`super::jobs`].

use super::jobs::{self, Batches};
use super::params::{JobParams, ModelParams, RequiredIdempotencyKey};
use crate::core::requests::{BatchItems as Items, JobRequest};
use crate::core::tokens::Principal;
use crate::error::Error;
use crate::server::error::ApiResult;
use crate::server::extract::{AppPath, RawBody, is_json, parse_json_streaming};
use crate::server::openapi::problems;
use crate::server::request::RequestInfo;
use crate::server::{AppState, idempotency};
use crate::wire::Loc;
use crate::wire::jobs::BatchItems as Given;
use crate::wire::jobs::{BatchItem, BatchMembers, BatchRequest, BatchResultLine, Job, JobKind};
use crate::wire::lines::CompactLines;
use crate::wire::validate::json::{self, JsonError};
use crate::wire::value::canonical_hash_spliced;
use axum::Extension;
use axum::extract::{OriginalUri, State};
use axum::http::HeaderMap;
use axum::response::Response;
use bytes::Bytes;
use serde_json::Value;

const KIND: JobKind = JobKind::Batch;

jobs::job_collection!(
    Batches,
    paths: crate::wire::paths::BATCHES,
    tag: "batches",
    scope: "batches",
    name: "BatchDecisions",
    noun: "batch job",
    list: list_batches,
    get: get_batch,
    cancel: cancel_batch,
    poll: "The job: status, progress `{total, done, failed}`, timestamps; when completed, the \
        summary in `result`; when failed, the problem in `error`.",
    cancelled: "A queued job is cancelled at once; a running one stops at its next item and \
        keeps its finished results. Idempotent: a finished job answers 204 and stays as it \
        finished.",
);

/// `POST /v1/models/{modelId}/batch-decisions`: stage the items, queue the job, answer 202.
/// The `Idempotency-Key` is required: a retried POST must not start a second job.
///
/// The body is a JSON [`BatchRequest`], or JSON Lines (`application/x-ndjson`) whose first
/// line holds the request's other members (`{revision?, questions?, capture?}`) and each
/// further line one item, staged as it is: a large input needs no JSON array around it,
/// and a line that is not JSON fails only its own item, exactly as `arbiter batch --input`.
#[utoipa::path(
    post,
    path = crate::wire::paths::BATCHES.list,
    tag = "batches",
    operation_id = "createBatchDecisions",
    summary = "Start a batch of decisions",
    description = "Stages the items (or the model's stored examples) and queues a job that \
        decides each with the checkpoint the revision resolves to now (role `reader`, with or \
        without `capture`). Answers 202 at once with the job and its `Location`. One bad \
        item becomes an error line in the results, not a failed job. The `Idempotency-Key` is \
        required: a retry with the same key and body returns the same job.",
    security(("bearerAuth" = ["batches"])),
    params(ModelParams, RequiredIdempotencyKey),
    request_body(
        description = "The batch: a JSON `BatchRequest`; or JSON Lines \
            (`application/x-ndjson`, `application/jsonl`) whose first line holds the other \
            members (`{revision?, questions?, capture?}`, possibly `{}`) and each further line \
            one item `{example_id?, state}`, staged as sent (a line that is not JSON fails only \
            its own item). The body is bounded by the server's `server.max_body_bytes` either \
            way.",
        content(
            (BatchRequest = "application/json"),
            (BatchItem = "application/x-ndjson"),
            (BatchItem = "application/jsonl"),
        ),
    ),
    responses(
        (status = 202, description = "The job, queued.", body = Job,
            headers(("Location"), ("Idempotent-Replayed"))),
        problems::JobNotRunnable,
        problems::RevisionNotFound,
        problems::KeyConflict,
        problems::TooLarge,
        problems::NotJsonOrLines,
        problems::JobInvalid,
    ),
)]
pub(crate) async fn create_batch(
    State(state): State<AppState>,
    Extension(principal): Extension<Principal>,
    Extension(info): Extension<RequestInfo>,
    OriginalUri(uri): OriginalUri,
    AppPath(ModelParams { model_id }): AppPath<ModelParams>,
    headers: HeaderMap,
    request: axum::extract::Request,
) -> ApiResult<Response> {
    // Authorized before anything is read or validated.
    // One rule for capture: a reader may decide, and deciding records what the model's
    // capture policy (set by its writers) says, through a batch as through `/v1/decision`.
    let need = crate::core::access::Need::to_create(KIND);
    let authorized = state.authorize(&principal, &model_id, need).await?;
    let body = RawBody::read(request, &state, &authorized).await?;
    let key = idempotency::key(&headers, true)?;
    let (members, items, hash) = if is_json(&body.media_type) {
        // The items go to compact lines as they are parsed, never a tree of the whole
        // body (600,000 small items took some 400 MiB as one); the body reads with
        // `items: []` in their place, and hashes as it would whole.
        let mut lines = CompactLines::default();
        let value = parse_json_streaming(&body.bytes, "items", &mut |item| lines.push(&item))?;
        drop(body);
        let hash = canonical_hash_spliced(&value, "items", lines.values());
        let (members, items) = BatchRequest::read(&value)?.into_parts();
        let items = match items {
            Given::Inline(_) => Items::Compact(lines),
            examples @ Given::Examples(_) => Items::Given(examples),
        };
        (members, items, hash)
    } else {
        let hash = idempotency::raw_hash(&body.media_type, "", &body.bytes);
        let (members, lines) = ndjson_request(&body.bytes)?;
        let lines = Items::Lines(Box::new(std::io::Cursor::new(lines)));
        (members, lines, hash)
    };
    let creation = jobs::Creation {
        state: &state,
        principal,
        info,
        path: uri.path(),
        permitted: authorized.into_permitted(),
        key,
        hash,
    };
    let request = JobRequest::Batch { members, items };
    jobs::create(creation, request).await
}

/// An NDJSON batch: the request members on the first non-blank line, the items after it.
fn ndjson_request(bytes: &Bytes) -> crate::error::Result<(BatchMembers, Bytes)> {
    let start = bytes
        .iter()
        .position(|b| !b.is_ascii_whitespace())
        .unwrap_or(bytes.len());
    let end = bytes[start..]
        .iter()
        .position(|b| *b == b'\n')
        .map_or(bytes.len(), |i| start + i);
    let header_loc = Loc::body().index(0);
    let header =
        json::from_slice(&bytes[start..end], &header_loc).map_err(|error| match error {
            JsonError::Syntax(e) => Error::invalid(
                header_loc.clone(),
                format!(
                    "the first line of an application/x-ndjson batch is a JSON object \
                 {{revision?, questions?, capture?}} ({e})"
                ),
                "json",
            ),
            JsonError::DuplicateKey(error) | JsonError::TooDeep(error) => {
                Error::Validation(vec![error])
            }
        })?;
    let Value::Object(members) = &header else {
        return Err(Error::invalid(
            header_loc,
            "the first line of an application/x-ndjson batch is a JSON object \
             {revision?, questions?, capture?}; the items follow, one per line",
            "type",
        ));
    };
    for member in ["items", "examples"] {
        if members.contains_key(member) {
            return Err(Error::invalid(
                header_loc.key(member),
                format!(
                    "the first line of an application/x-ndjson batch holds revision, questions \
                     and capture; the items follow it, one per line (no `{member}`)"
                ),
                "unknown",
            ));
        }
    }
    // The members are located on the first line: `["body", 0, "revision"]`.
    let members = BatchMembers::read(&header, &header_loc)?;
    // The items start on the line after the members' line, which is their line 1.
    Ok((members, bytes.slice((end + 1).min(bytes.len())..)))
}

/// `GET /v1/models/{modelId}/batch-decisions/{jobId}/results`: the finished lines so far,
/// in input order, as NDJSON; `Arbiter-Job-Status` says whether more will come.
#[utoipa::path(
    get,
    path = crate::wire::paths::BATCH_RESULTS,
    tag = "batches",
    operation_id = "getBatchDecisionResults",
    summary = "Read a batch job's results",
    description = "One JSON line per finished item, in input order: `{index, example_id, \
        answers, usage}` or `{index, example_id, error}` (a problem). While the job runs, the \
        lines finished so far; `Arbiter-Job-Status` says whether more will come.",
    security(("bearerAuth" = ["batches"])),
    params(ModelParams, JobParams),
    responses(
        (status = 200, description = "The results so far.", body = BatchResultLine,
            content_type = "application/x-ndjson", headers(("Arbiter-Job-Status"))),
        problems::JobNotFound,
    ),
)]
pub(crate) async fn get_results(
    State(state): State<AppState>,
    Extension(principal): Extension<Principal>,
    AppPath(ModelParams { model_id }): AppPath<ModelParams>,
    AppPath(JobParams { job_id }): AppPath<JobParams>,
) -> ApiResult<Response> {
    let job = jobs::find(&state, principal, &model_id, job_id, KIND).await?;
    Ok(jobs::results(&state, &job).await?)
}
