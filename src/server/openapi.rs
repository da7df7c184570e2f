//! `/openapi.json`: the HTTP interface described as `OpenAPI 3.1`, generated with utoipa.
//!
//! The operations come from the handlers themselves: each carries `#[utoipa::path]` and is
//! registered through `utoipa_axum`'s `OpenApiRouter` (`routes/mod.rs`), so the router and
//! the document are one table. Every schema is derived from the contract types in `wire`.
//! This file adds only what every operation shares: the info and tags, the bearer scheme,
//! `x-request-id` on every request and response, and the shared problem responses (401,
//! 403, 429 on `/v1`, 500 everywhere). Every problem response, shared or declared by a
//! handler, is built from its `ProblemCode`s in `problems`.

pub(crate) mod problems;

use crate::wire::ProblemCode;
use problems::{
    HEAD_UNPARSABLE, HEADERS_TOO_LARGE, INTERNAL, PARAMETER_INVALID, RATE_LIMITED, REQUEST_TIMEOUT,
    STORE_UNAVAILABLE, UNAUTHORIZED, URI_TOO_LONG, problem_response,
};
use std::borrow::Cow;
use std::sync::LazyLock;
use strum::VariantArray as _;
use utoipa::OpenApi as _;
use utoipa::openapi::header::HeaderBuilder;
use utoipa::openapi::path::{Operation, ParameterBuilder, ParameterIn};
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

/// What every operation shares: `x-request-id`, the shared problem responses, and header
/// definitions by reference. (The problem responses a handler declares are built whole by
/// [`problems::problem_responses!`].)
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
    let mut shared: Vec<(&[ProblemCode], Cow<str>)> =
        [INTERNAL, HEAD_UNPARSABLE, URI_TOO_LONG, HEADERS_TOO_LARGE]
            .into_iter()
            .map(|(codes, text)| (codes, Cow::Borrowed(text)))
            .collect();
    if operation.request_body.is_some() {
        shared.push((REQUEST_TIMEOUT.0, REQUEST_TIMEOUT.1.into()));
    }
    if takes_parameters {
        shared.push((PARAMETER_INVALID.0, PARAMETER_INVALID.1.into()));
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
            (UNAUTHORIZED.0, UNAUTHORIZED.1.into()),
            (
                &[ProblemCode::Forbidden],
                format!("the token lacks {scope}, or the role this route needs on the model.")
                    .into(),
            ),
            (RATE_LIMITED.0, RATE_LIMITED.1.into()),
            // The token is looked up in the store before anything else.
            (STORE_UNAVAILABLE.0, STORE_UNAVAILABLE.1.into()),
        ]);
    }
    let responses = &mut operation.responses.responses;
    for (codes, text) in shared {
        let (status, response) = problem_response(codes, &text);
        responses
            .entry(status.to_string())
            .or_insert_with(|| RefOr::T(response));
    }
    for (status, response) in responses.iter_mut() {
        let RefOr::T(response) = response else {
            continue;
        };
        let status: u16 = status.parse().unwrap_or_default();
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
