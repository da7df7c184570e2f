//! Examples in client mode: ingest and bulk annotation sent up in chunks of whole lines,
//! their reports summed, and the server's refusals said in the words a local run uses.

use super::Remote;
use super::http::Request;
use super::upload::{self, NDJSON, Upload};
use crate::core::service::{Annotator, Input};
use crate::error::{Error, Result};
use crate::store::IngestCounts;
use crate::wire::examples::ExampleDetail;
use crate::wire::examples::{IngestReport, RejectedLine};
use crate::wire::validate::Segment;
use crate::wire::{ProblemCode, paths};
use bytes::Bytes;
use sha2::{Digest, Sha256};

impl Remote {
    /// Send an input in chunks of whole lines to `route` of `model` ([`paths::EXAMPLES`] or
    /// [`paths::ANNOTATIONS`]), summing the reports; line numbers are the whole input's.
    pub(super) async fn upload(
        &self,
        model: &str,
        route: &'static str,
        input: Input,
        progress: &(dyn Fn(IngestCounts) + Send + Sync),
    ) -> Result<IngestReport> {
        let mut total = IngestReport {
            committed: true,
            ..IngestReport::default()
        };
        // Keys are fresh per upload: a retry within it replays; a later run counts anew.
        let nonce = uuid::Uuid::new_v4().to_string();
        let key = |index: usize, bytes: &[u8]| {
            let mut hasher = Sha256::new();
            hasher.update(nonce.as_bytes());
            hasher.update((index as u64).to_le_bytes());
            hasher.update(bytes);
            let name = route.rsplit('/').next().unwrap_or_default();
            format!("arbiter-{name}-{}", &hex::encode(hasher.finalize())[..40])
        };
        let mut chunker = match upload::open(input, self.chunk_bytes)? {
            Upload::Whole(bytes) => {
                let request = Request::post(route, &[model])
                    .body("application/json", Bytes::from(bytes.clone()))
                    .key(key(0, &bytes));
                let report: IngestReport = self.http.json(&request).await?;
                progress(counts(&report));
                return Ok(report);
            }
            Upload::Chunks(chunker) => chunker,
        };
        while let Some(chunk) = chunker.next_chunk()? {
            let request = Request::post(route, &[model])
                .body(NDJSON, Bytes::from(chunk.bytes.clone()))
                .key(key(chunk.index, &chunk.bytes));
            let part: IngestReport = self.http.json(&request).await.map_err(|error| {
                if chunk.index == 0 {
                    error
                } else {
                    append(
                        error,
                        &format!(
                            " (in the request for lines {} on; the {} lines before it were sent: \
                             {} new and {} existing examples, {} annotations)",
                            chunk.lines_before + 1,
                            chunk.lines_before,
                            total.created,
                            total.existing,
                            total.annotations
                        ),
                    )
                }
            })?;
            total.created += part.created;
            total.existing += part.existing;
            total.annotations += part.annotations;
            total
                .rejected
                .extend(part.rejected.into_iter().map(|rejected| RejectedLine {
                    line: rejected.line + chunk.lines_before,
                    ..rejected
                }));
            progress(counts(&total));
        }
        Ok(total)
    }

    /// An atomic ingest: the whole input in one request (it cannot be split and stay
    /// all-or-nothing). A refusal for bad lines is read back into the report the local
    /// command prints.
    pub(super) async fn ingest_atomic(&self, model: &str, input: Input) -> Result<IngestReport> {
        let (media_type, bytes) = upload::whole(input)?;
        let request = Request::post(paths::EXAMPLES, &[model])
            .query("atomic", &"true")
            .body(media_type, Bytes::from(bytes.clone()))
            .key(format!("arbiter-ingest-{}", uuid::Uuid::new_v4()));
        match self.http.json::<IngestReport>(&request).await {
            Ok(report) => Ok(report),
            Err(error) => {
                let Some(indexes) = rejected_items(&error) else {
                    return Err(too_large_hint(
                        error,
                        "an --atomic ingest is sent in one request: drop --atomic to send it in \
                         chunks, or raise server.max_body_bytes on the server",
                    ));
                };
                let rejected = indexes
                    .into_iter()
                    .zip(error.details())
                    .map(|(index, detail)| RejectedLine {
                        line: index as u64 + 1,
                        example_id: upload::example_id_at(media_type, &bytes, index),
                        reason: detail.msg.clone(),
                    })
                    .collect();
                Ok(IngestReport {
                    committed: false,
                    rejected,
                    ..IngestReport::default()
                })
            }
        }
    }

    pub(super) async fn get_example(&self, model: &str, example_id: &str) -> Result<ExampleDetail> {
        self.http
            .json(&Request::get(paths::EXAMPLE, &[model, example_id]))
            .await
    }
}

/// The server's answer that no example has this ID.
pub(super) fn is_example_not_found(error: &Error) -> bool {
    matches!(error, Error::Remote(problem) if problem.code == ProblemCode::ExampleNotFound.as_str())
}

/// A server records its token's name as the annotator: one named here is refused, not
/// silently replaced.
pub(super) fn server_names_annotator(annotator: &Annotator) -> Result<()> {
    match annotator {
        None => Ok(()),
        Some(name) => Err(Error::BadRequest(format!(
            "a server records the token's name as the annotator; it cannot annotate as \
             `{name}` (drop --annotator, or name annotators in the lines of a file)"
        ))),
    }
}

pub(super) fn counts(report: &IngestReport) -> IngestCounts {
    IngestCounts {
        created: report.created,
        existing: report.existing,
        annotations: report.annotations,
    }
}

/// The items an atomic ingest refused, when that is what `error` is: a 422 locating each
/// at `["body", index]`.
pub(super) fn rejected_items(error: &Error) -> Option<Vec<usize>> {
    if !matches!(error, Error::Remote(_)) || error.code() != ProblemCode::ValidationError.as_str() {
        return None;
    }
    let details = error.details();
    if details.is_empty() {
        return None;
    }
    details
        .iter()
        .map(|detail| match detail.loc.0.as_slice() {
            [Segment::Key(root), Segment::Index(index)]
                if root == "body" && detail.kind == "invalid_example" =>
            {
                Some(*index)
            }
            _ => None,
        })
        .collect()
}

/// A server's problem with `suffix` added to its detail.
pub(super) fn append(error: Error, suffix: &str) -> Error {
    match error {
        Error::Remote(mut problem) => {
            problem.detail.push_str(suffix);
            Error::Remote(problem)
        }
        Error::UpstreamUnavailable(detail) => Error::UpstreamUnavailable(detail + suffix),
        other => other,
    }
}

/// A body-limit refusal, with what to do about it.
pub(super) fn too_large_hint(error: Error, hint: &str) -> Error {
    if error.code() == ProblemCode::PayloadTooLarge.as_str() {
        append(error, &format!(": {hint}"))
    } else {
        error
    }
}
