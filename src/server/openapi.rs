//! `/openapi.json`: the HTTP interface described as `OpenAPI 3.1`, generated with utoipa.
//!
//! The operations come from the handlers themselves: each carries `#[utoipa::path]` and is
//! registered through `utoipa_axum`'s `OpenApiRouter` (`routes/mod.rs`), so the router and
//! the document are one table. Every schema is derived from the contract types in `wire`.
//! This file adds only what every operation shares: the info and tags, the bearer scheme,
//! `x-request-id` on every request and response, and the problem responses (401, 403, 429
//! on `/v1`, 500 everywhere, and the `application/problem+json` body of every error a
//! handler declares).

use serde_json::json;
use std::sync::LazyLock;
use strum::VariantArray as _;
use utoipa::OpenApi as _;
use utoipa::openapi::content::ContentBuilder;
use utoipa::openapi::header::HeaderBuilder;
use utoipa::openapi::path::{Operation, ParameterBuilder, ParameterIn};
use utoipa::openapi::response::Response;
use utoipa::openapi::schema::{KnownFormat, ObjectBuilder, SchemaFormat, Type};
use utoipa::openapi::security::{HttpAuthScheme, HttpBuilder, SecurityScheme};
use utoipa::openapi::{Components, OpenApi, Ref, RefOr, Required};

static DOCUMENT: LazyLock<String> = LazyLock::new(|| {
    // Builder output has string keys and finite numbers only: serializing it cannot fail.
    build().to_json().expect("the OpenAPI document serializes")
});

/// The document, as JSON text.
pub(crate) fn document() -> String {
    DOCUMENT.clone()
}

/// The document, pretty-printed.
pub(crate) fn pretty() -> String {
    // As above: serializing the builder output cannot fail.
    build()
        .to_pretty_json()
        .expect("the OpenAPI document serializes")
}

#[derive(utoipa::OpenApi)]
#[openapi(
    info(
        title = "Arbiter",
        description = "Decision models (System One) over HTTP: typed questions (`noul`, \
            `choice`, `score`) evaluated against a JSON state, on base models or on versioned \
            repository models, with captured examples and annotations.\n\nEvery response \
            carries `x-request-id`. Every error is `application/problem+json` (the `Problem` \
            schema).",
        license(name = "MIT", identifier = "MIT"),
    ),
    tags(
        (name = "decisions", description = "Decisions on a base model or a repository model."),
        (name = "models", description = "Base models and repository models."),
        (name = "examples", description = "Examples of a repository model: list, ingest, show, annotate."),
        (name = "batches", description = "Batch decisions: jobs over many states, with NDJSON results."),
        (name = "alignments", description = "Alignments: better questions from annotated examples, as new checkpoints."),
        (name = "evaluations", description = "Evaluations: a checkpoint's figures over the annotated examples."),
        (name = "jobs", description = "Any job by its ID alone: batch decisions, alignments and evaluations."),
        (name = "meta", description = "No token needed: this document, health, problem pages."),
    ),
    // A job's `result` is one of these by kind, and a line body's lines are these: the
    // descriptions name them for clients.
    components(schemas(
        crate::wire::Problem,
        crate::wire::examples::IngestExample,
        crate::wire::examples::AnnotationLine,
        crate::wire::jobs::BatchMembers,
        crate::wire::jobs::BatchSummary,
        crate::wire::align::AlignmentResult,
        crate::wire::align::EvaluationReport,
    )),
)]
struct Shared;

fn build() -> OpenApi {
    let mut document = Shared::openapi();
    document.merge(super::routes::described());
    let components = document.components.get_or_insert_with(Components::new);
    components
        .security_schemes
        .insert(BEARER.into(), RefOr::T(bearer()));
    components
        .parameters
        .insert("requestId".into(), RefOr::T(request_id_parameter()));
    for (name, schema, description) in headers() {
        let header = HeaderBuilder::new()
            .schema(Some(schema))
            .description(Some(description));
        components
            .headers
            .insert(name.into(), RefOr::T(header.build()));
    }
    // What JSON Schema can say of a decision beyond its members' own schemas: a base
    // model takes questions and none of a repository model's members.
    if let Some(RefOr::T(utoipa::openapi::schema::Schema::Object(request))) =
        components.schemas.get_mut("DecisionRequest")
    {
        request.extensions = Some(
            [crate::wire::decision::base_model_rule()]
                .into_iter()
                .collect(),
        );
    }
    for (path, item) in &mut document.paths.paths {
        let authenticated = path.starts_with("/v1/");
        let operations = [
            &mut item.get,
            &mut item.post,
            &mut item.put,
            &mut item.patch,
            &mut item.delete,
        ];
        for operation in operations.into_iter().flatten() {
            share(operation, authenticated);
        }
    }
    document
}

/// What every operation shares: `x-request-id`, the shared problem responses, problem
/// bodies for the errors the handler declares, and header definitions by reference.
fn share(operation: &mut Operation, authenticated: bool) {
    // A path or query parameter may hold what no stored text may (a NUL): 422.
    let takes_parameters = operation.parameters.iter().flatten().any(|parameter| {
        matches!(parameter, RefOr::T(p) if matches!(p.parameter_in, ParameterIn::Path | ParameterIn::Query))
    });
    let request_id = RefOr::Ref(Ref::new("#/components/parameters/requestId"));
    operation
        .parameters
        .get_or_insert_with(Vec::new)
        .insert(0, request_id);
    // Any request's head may be one HTTP cannot parse, or past the head limits.
    let mut shared = vec![
        (500, INTERNAL.to_owned()),
        (400, HEAD_UNPARSABLE.to_owned()),
        (414, URI_TOO_LONG.to_owned()),
        (431, HEADERS_TOO_LARGE.to_owned()),
    ];
    if operation.request_body.is_some() {
        shared.push((408, REQUEST_TIMEOUT.to_owned()));
    }
    if takes_parameters {
        shared.push((422, PARAMETER_INVALID.to_owned()));
    }
    if authenticated {
        let scopes: Vec<String> = serde_json::to_value(&operation.security)
            .ok()
            .and_then(|security| security[0][BEARER].as_array().cloned())
            .unwrap_or_default()
            .iter()
            .filter_map(|scope| scope.as_str().map(|s| format!("`{s}`")))
            .collect();
        // "the `a` scope", "the `a` or the `b` scope": a route needing two checks both.
        let scope = format!("the {} scope", scopes.join(" or the "));
        shared.extend([
            (401, UNAUTHORIZED.to_owned()),
            (
                403,
                format!(
                    "`forbidden`: the token lacks {scope}, or the role this route needs on \
                     the model."
                ),
            ),
            (429, RATE_LIMITED.to_owned()),
            // The token is looked up in the store before anything else.
            (503, STORE_UNAVAILABLE.to_owned()),
        ]);
    }
    let responses = &mut operation.responses.responses;
    for (status, description) in shared {
        responses
            .entry(status.to_string())
            .or_insert_with(|| RefOr::T(Response::new(description)));
    }
    for (status, response) in responses.iter_mut() {
        let RefOr::T(response) = response else {
            continue;
        };
        let status: u16 = status.parse().unwrap_or_default();
        if status >= 400 {
            *response = problem_response(status, &response.description);
        }
        let mut names: Vec<String> = response.headers.keys().cloned().collect();
        names.push("x-request-id".into());
        match status {
            401 => names.push("WWW-Authenticate".into()),
            429 => names.push("Retry-After".into()),
            _ => {}
        }
        // The rate limit is applied once the token is known, so a 401 has no quota.
        if authenticated && status != 401 {
            names.extend(RATE_LIMIT.map(str::to_owned));
        }
        response.headers = names
            .into_iter()
            .map(|name| {
                let target = Ref::new(format!("#/components/headers/{name}"));
                (name, RefOr::Ref(target))
            })
            .collect();
    }
}

/// An `application/problem+json` response. `description` starts with the problem code
/// in backticks (a test checks it), which the example carries.
fn problem_response(status: u16, description: &str) -> Response {
    let title = crate::wire::problem::status_title(status);
    let code = description.split('`').nth(1).unwrap_or("internal");
    let example = json!({
        "type": format!("https://arbiter.example/problems/{}", code.replace('_', "-")),
        "title": title,
        "status": status,
        "code": code,
        "requestId": "0b5e7c1e-4f0b-4c55-9a3e-6a2f1d8c9e10",
        "details": [],
    });
    let content = ContentBuilder::new()
        .schema(Some(RefOr::Ref(Ref::from_schema_name("Problem"))))
        .example(Some(example));
    let mut response = Response::new(format!("{title}: {description}"));
    response
        .content
        .insert("application/problem+json".into(), content.build().into());
    response
}

// Problem descriptions the handlers' `#[utoipa::path]` share. Each starts with the codes it
// answers, in backticks.

pub(crate) const MODEL_NOT_FOUND: &str =
    "`model_not_found`: no repository model with this `modelId` visible to this token.";
pub(crate) const REVISION_NOT_FOUND: &str = "`model_not_found`, `revision_not_found`: no \
    repository model with this `modelId` visible to this token, or the revision cannot be read.";
pub(crate) const EXAMPLE_NOT_FOUND: &str = "`model_not_found`, `example_not_found`: no \
    repository model with this `modelId` visible to this token, or no such example in it.";
pub(crate) const JOB_NOT_FOUND: &str = "`model_not_found`, `job_not_found`: no repository model \
    with this `modelId` visible to this token, or no job of this collection with this `jobId` \
    under it.";
pub(crate) const ANY_JOB_NOT_FOUND: &str =
    "`job_not_found`: no job with this `jobId` on a model visible to this token.";
pub(crate) const JOB_NOT_RUNNABLE: &str =
    "`bad_request`: the body is not valid JSON, or the request cannot be run.";
pub(crate) const JOB_INVALID: &str = "`validation_error`, `invalid_checkpoint`: the body or the \
    `Idempotency-Key` is not valid (`details` locates each fault), or the checkpoint's files do \
    not form a valid model.";
pub(crate) const INVALID_CHECKPOINT: &str = "`invalid_checkpoint`: the model's files at the \
    default branch do not form a valid model; `details` locates each problem in its file.";
pub(crate) const DIFF_INVALID: &str = "`validation_error`, `invalid_checkpoint`: a query \
    parameter is not valid, or a file of either revision cannot be read as a model (not YAML, \
    or past a limit); `details` locates each problem in its file.";
pub(crate) const BAD_QUERY: &str =
    "`validation_error`: a query parameter is not valid (e.g. `limit=abc`).";
pub(crate) const KEY_CONFLICT: &str = "`idempotency_key_reused`, `decision_in_progress`: the \
    `Idempotency-Key` was used with another body, or its first request is still being answered \
    (retry with the same key after a short delay).";
pub(crate) const NOT_JSON_BODY: &str = "`bad_request`: the body is not valid JSON.";
pub(crate) const LINES_NOT_JSON: &str = "`bad_request`: an `application/json` body is not \
    valid JSON (it is refused before anything is written).";
pub(crate) const TOO_LARGE: &str = "`payload_too_large`: the body exceeds the server's limit.";
pub(crate) const NOT_JSON: &str = "`unsupported_media_type`: the body is not `application/json`.";
pub(crate) const NOT_JSON_OR_LINES: &str =
    "`unsupported_media_type`: the body is neither JSON nor JSON Lines.";
pub(crate) const UPSTREAM_FAILED: &str =
    "`upstream_failed`: a remote engine answered with an error.";
const INTERNAL: &str = "`internal`: the server failed; quote the `requestId`.";
const UNAUTHORIZED: &str = "`unauthorized`: authentication is missing, invalid or revoked.";
const RATE_LIMITED: &str =
    "`rate_limited`: too many requests for this token; retry after `Retry-After`.";

const HEAD_UNPARSABLE: &str = "`bad_request`: the request's head could not be parsed (a \
     control character in a header value, a malformed request line).";
const URI_TOO_LONG: &str = "`uri_too_long`: the request's URI is longer than the server reads.";
const HEADERS_TOO_LARGE: &str = "`headers_too_large`: the request's head is over 65,536 bytes \
     or 100 headers.";
const REQUEST_TIMEOUT: &str = "`request_timeout`: the body stalled longer than \
     `server.body_timeout`, or arrived slower than `server.body_min_rate`.";
const PARAMETER_INVALID: &str = "`validation_error`: a path or query parameter is invalid, \
     located at `[\"path\", name]` or `[\"query\", name]`; a NUL character in one is \
     `nul_character`.";
const STORE_UNAVAILABLE: &str = "`store_unavailable`: the store cannot be read or written \
     (the database is down, or a file of it cannot be written); the detail names which and \
     why. Retry once an operator has fixed it.";
const BEARER: &str = "bearerAuth";
const RATE_LIMIT: [&str; 3] = ["RateLimit-Limit", "RateLimit-Remaining", "RateLimit-Reset"];

fn bearer() -> SecurityScheme {
    SecurityScheme::Http(
        HttpBuilder::new()
            .scheme(HttpAuthScheme::Bearer)
            .description(Some(
                "A token from `arbiter tokens create`. Each operation's security requirement \
                 names the scope it needs (`decisions`, `models:read`, `examples:read`, \
                 `batches`, `examples:write`, `alignments`); routes on a repository model also \
                 need a role on its path (`reader`, `writer`, `admin`). A model the token has \
                 no role on answers 404 `model_not_found`, as if it did not exist.",
            ))
            .build(),
    )
}

fn request_id_parameter() -> utoipa::openapi::path::Parameter {
    ParameterBuilder::new()
        .name("x-request-id")
        .parameter_in(ParameterIn::Header)
        .required(Required::False)
        .description(Some(
            "A UUID to correlate this request, echoed in the `x-request-id` response header \
             and in problems' `requestId`. Any other value is accepted and replaced by a UUID \
             the server generates, as when it is absent.",
        ))
        .schema(Some(string()))
        .build()
}

fn string() -> ObjectBuilder {
    ObjectBuilder::new().schema_type(Type::String)
}

fn count() -> ObjectBuilder {
    ObjectBuilder::new()
        .schema_type(Type::Integer)
        .minimum(Some(0))
}

/// The response headers, defined once and referenced: name, schema, description. A handler
/// names the ones its success response carries (`headers(("Location"))`).
fn headers() -> [(&'static str, ObjectBuilder, &'static str); 9] {
    let statuses = crate::wire::jobs::JobStatus::VARIANTS
        .iter()
        .map(|status| status.as_str());
    [
        (
            "x-request-id",
            string().format(Some(SchemaFormat::KnownFormat(KnownFormat::Uuid))),
            "The request's ID: the caller's `x-request-id` if a UUID, else new.",
        ),
        ("RateLimit-Limit", count(), "The token's burst size."),
        (
            "RateLimit-Remaining",
            count(),
            "Requests left in the token's bucket.",
        ),
        (
            "RateLimit-Reset",
            count(),
            "Seconds until the token's bucket is full again.",
        ),
        (
            "Retry-After",
            count().minimum(Some(1)),
            "Seconds to wait before retrying.",
        ),
        (
            "WWW-Authenticate",
            string().enum_values(Some(["Bearer"])),
            "The scheme to use.",
        ),
        (
            "Location",
            string().format(Some(SchemaFormat::Custom("uri-reference".into()))),
            "Where to poll the job: \
             `/v1/models/{modelId}/<batch-decisions|alignments|evaluations>/{jobId}`.",
        ),
        (
            "Arbiter-Job-Status",
            string().enum_values(Some(statuses)),
            "The job's status when the results were read: more lines will come unless it is \
             finished.",
        ),
        (
            "Idempotent-Replayed",
            string().enum_values(Some(["true"])),
            "Present when this response replays an earlier one with the same `Idempotency-Key`.",
        ),
    ]
}

#[cfg(test)]
mod tests;
