//! Jobs in client mode: the request that creates a job under an `Idempotency-Key`, a
//! job named by a prefix of its ID, and its result lines.

use super::Remote;
use super::http::Request;
use super::upload::NDJSON;
use crate::core::service::{BatchItems, JobRequest};
use crate::error::{Error, Result};
use crate::ids::{JobId, JobRef};
use crate::wire::jobs::{BatchMembers, BatchRequest, Job, JobKind};
use crate::wire::paths;
use crate::wire::value::canonical_json;
use bytes::Bytes;
use sha2::{Digest, Sha256};
use std::io::Read;

impl Remote {
    /// An `Idempotency-Key` for a job: the same kind, model, request, input and CI run give
    /// the same key.
    pub(super) fn job_key(&self, kind: JobKind, model: &str, parts: &[&[u8]]) -> String {
        let mut hasher = Sha256::new();
        let run = self.run_id.as_deref().unwrap_or_default();
        for part in [kind.as_str().as_bytes(), model.as_bytes(), run.as_bytes()]
            .into_iter()
            .chain(parts.iter().copied())
        {
            // Length-prefixed, so no two different lists of parts hash alike.
            hasher.update((part.len() as u64).to_le_bytes());
            hasher.update(part);
        }
        format!(
            "arbiter-{}-{}",
            kind.as_str(),
            &hex::encode(hasher.finalize())[..40]
        )
    }

    /// The request that creates a job, keyed, and its kind.
    pub(super) fn job_request(
        &self,
        model: &str,
        request: JobRequest,
    ) -> Result<(JobKind, Request)> {
        Ok(match request {
            JobRequest::Batch { members, items } => {
                (JobKind::Batch, self.batch_request(model, members, items)?)
            }
            JobRequest::Alignment(request) => {
                let body = serde_json::to_value(&request)
                    .map_err(|e| Error::internal("serializing an alignment", e))?;
                let key = self.job_key(
                    JobKind::Alignment,
                    model,
                    &[canonical_json(&body).as_bytes()],
                );
                (
                    JobKind::Alignment,
                    Request::post(paths::ALIGNMENTS.list, &[model])
                        .json(&body)?
                        .key(key),
                )
            }
            JobRequest::Evaluation(request) => {
                let body = serde_json::to_value(&request)
                    .map_err(|e| Error::internal("serializing an evaluation", e))?;
                let key = self.job_key(
                    JobKind::Evaluation,
                    model,
                    &[canonical_json(&body).as_bytes()],
                );
                (
                    JobKind::Evaluation,
                    Request::post(paths::EVALUATIONS.list, &[model])
                        .json(&body)?
                        .key(key),
                )
            }
        })
    }

    /// The request that creates a batch job: JSON for stored examples or inline items, or
    /// the members on a first line followed by the input's lines as they are.
    fn batch_request(
        &self,
        model: &str,
        members: BatchMembers,
        items: BatchItems,
    ) -> Result<Request> {
        let values = [model];
        let given = match items {
            BatchItems::Given(given) => given,
            BatchItems::Compact(lines) => {
                crate::wire::jobs::BatchItems::Inline(lines.values().collect())
            }
            BatchItems::Lines(mut input) => {
                // The first line holds the members; the input follows as it is.
                let mut body = serde_json::to_vec(&members)
                    .map_err(|e| Error::internal("serializing a batch", e))?;
                body.push(b'\n');
                let header = body.len();
                input
                    .read_to_end(&mut body)
                    .map_err(|e| Error::BadRequest(format!("reading the input: {e}")))?;
                let key = self.job_key(JobKind::Batch, model, &[&body[..header], &body[header..]]);
                return Ok(Request::post(paths::BATCHES.list, &values)
                    .body(NDJSON, Bytes::from(body))
                    .key(key));
            }
        };
        let body = serde_json::to_value(BatchRequest::new(members, given))
            .map_err(|e| Error::internal("serializing a batch", e))?;
        let key = canonical_json(&body);
        Ok(Request::post(paths::BATCHES.list, &values)
            .json(&body)?
            .key(self.job_key(JobKind::Batch, model, &[key.as_bytes()])))
    }

    /// The whole ID of the job `job` names: a prefix is the one job the server lists as
    /// starting with it (the job routes take whole IDs only).
    pub(super) async fn resolve_job(&self, job: &JobRef) -> Result<String> {
        let text = match job {
            JobRef::Id(id) => return Ok(id.to_string()),
            JobRef::Prefix(text) => text,
        };
        // Text that is neither a whole ID nor a prefix goes as it is: the server's own
        // not-found answer (with its request ID) says so.
        // A prefix too short is refused here, in the words a local command uses.
        let prefix = match crate::core::jobs::id_prefix(text) {
            Ok(prefix) => prefix,
            Err(Error::JobNotFound(_)) => return Ok(text.to_owned()),
            Err(other) => return Err(other),
        };
        // Two are enough to tell one from many; a few more name them in the error.
        let request = Request::get(paths::JOBS, &[])
            .query("idPrefix", &prefix)
            .query("limit", &5);
        let jobs: Vec<Job> = self.http.json(&request).await?;
        Ok(crate::core::jobs::unique(prefix, jobs.iter().map(|job| job.job_id))?.to_string())
    }

    /// The complete result lines of a job so far, chunk by chunk, to `sink`.
    pub(super) async fn results(
        &self,
        job_id: &JobId,
        sink: &mut (dyn FnMut(&[u8]) -> Result<()> + Send),
    ) -> Result<()> {
        let job_id = job_id.to_string();
        self.http
            .stream(&Request::get(paths::JOB_RESULTS, &[&job_id]), sink)
            .await
    }
}
