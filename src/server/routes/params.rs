//! The parameters routes share, each described once for the document. Path segments are
//! extracted by name (`AppPath<ModelParams>`), so the route table, the handler and the
//! document agree on them; a route with two segments takes two of these.

use serde::Deserialize;
use utoipa::IntoParams;

/// `{modelId}`.
#[derive(Debug, Deserialize, IntoParams)]
#[serde(rename_all = "camelCase")]
#[into_params(parameter_in = Path)]
pub(crate) struct ModelParams {
    /// The repository model's `modelId` (a UUID), or its path `<owner>/<model>` with the
    /// `/` percent-encoded (`acme%2Fsupport`), as `arbiter --server` sends it. The path as
    /// written (`/v1/models/acme/support/examples`) is answered too.
    #[param(min_length = 1, pattern = "^[^\\u0000]*$")]
    pub(crate) model_id: String,
}

/// `{branch}`.
#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Path)]
pub(crate) struct BranchParams {
    /// The branch's name, percent-encoded as one segment (`alignments%2F<job>`).
    #[param(min_length = 1, max_length = 255)]
    pub(crate) branch: String,
}

/// `{exampleId}`.
#[derive(Debug, Deserialize, IntoParams)]
#[serde(rename_all = "camelCase")]
#[into_params(parameter_in = Path)]
pub(crate) struct ExampleParams {
    /// The example's ID: the caller's `example_id`, or `ex_` + 32 hex digits derived from
    /// the state.
    #[param(value_type = String, min_length = 1, max_length = 255, pattern = "^[^\\u0000]*$")]
    pub(crate) example_id: crate::ids::ExampleId,
}

/// `{questionId}`.
#[derive(Debug, Deserialize, IntoParams)]
#[serde(rename_all = "camelCase")]
#[into_params(parameter_in = Path)]
pub(crate) struct QuestionParams {
    /// The question's ID.
    #[param(min_length = 1, pattern = "^[^\\u0000]*$")]
    pub(crate) question_id: String,
}

/// `{jobId}`.
#[derive(Debug, Deserialize, IntoParams)]
#[serde(rename_all = "camelCase")]
#[into_params(parameter_in = Path)]
pub(crate) struct JobParams {
    /// The job's ID.
    #[param(format = Uuid)]
    pub(crate) job_id: String,
}

/// `Idempotency-Key` where it is optional. Described here only: `idempotency::key` reads
/// the header once the token's scope is checked, so a request without the scope is 403
/// whatever its key.
#[derive(IntoParams)]
#[into_params(parameter_in = Header)]
#[allow(dead_code)]
pub(crate) struct IdempotencyKey {
    /// Reuse when retrying this exact request: the finished response is replayed (for 24
    /// hours). The same key with another payload is 409 `idempotency_key_reused`; while
    /// the first request still runs, 409 `decision_in_progress`. Without a key, each call
    /// is a new request.
    #[param(rename = "Idempotency-Key", value_type = String, required = false)]
    #[param(min_length = 8, max_length = 255)]
    key: Option<String>,
}

/// `Idempotency-Key` where it is required (creating a job). Described here only, as
/// [`IdempotencyKey`].
#[derive(IntoParams)]
#[into_params(parameter_in = Header)]
#[allow(dead_code)]
pub(crate) struct RequiredIdempotencyKey {
    /// Required, so a retried request never starts a second job: the same key and body
    /// return the same job (for 24 hours); the same key with another body is 409
    /// `idempotency_key_reused`.
    #[param(rename = "Idempotency-Key", min_length = 8, max_length = 255)]
    key: String,
}
