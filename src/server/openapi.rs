//! `/openapi.json`: the HTTP interface described as `OpenAPI 3.1`, generated with utoipa.
//!
//! Every schema, request bodies included, is derived from the contract types in `wire`
//! (`#[derive(ToSchema)]`), so a renamed or added member shows up here without a second
//! edit, and `wire::contract_tests` checks each validation pass against its schema. The
//! paths are still built with utoipa's builders, one function per resource, mirroring
//! `routes/mod.rs`; a unit test fails when a served route is not described. The document
//! is built once, on first use.

use serde_json::json;
use std::sync::LazyLock;
use utoipa::ToSchema;
use utoipa::openapi::content::ContentBuilder;
use utoipa::openapi::header::{Header, HeaderBuilder};
use utoipa::openapi::info::{Info, InfoBuilder, LicenseBuilder};
use utoipa::openapi::path::{
    HttpMethod, Operation, OperationBuilder, Parameter, ParameterBuilder, ParameterIn, PathItem,
    PathsBuilder,
};
use utoipa::openapi::request_body::{RequestBody, RequestBodyBuilder};
use utoipa::openapi::response::{ResponseBuilder, ResponsesBuilder};
use utoipa::openapi::schema::{
    AdditionalProperties, ArrayBuilder, ComponentsBuilder, KnownFormat, ObjectBuilder, Schema,
    SchemaFormat, SchemaType, Type,
};
use utoipa::openapi::security::{HttpAuthScheme, HttpBuilder, SecurityRequirement, SecurityScheme};
use utoipa::openapi::tag::{Tag, TagBuilder};
use utoipa::openapi::{Components, OpenApi, OpenApiBuilder, Ref, RefOr, Required};

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

fn build() -> OpenApi {
    let paths = RESOURCES
        .iter()
        .fold(PathsBuilder::new(), |paths, resource| resource(paths));
    OpenApiBuilder::new()
        .info(info())
        .tags(Some(tags()))
        .paths(paths.build())
        .components(Some(components()))
        .build()
}

/// One function per resource, each adding its routes. When `routes/mod.rs` gains a
/// resource's routes, describe them in its function (and add a function here for a new one).
const RESOURCES: &[fn(PathsBuilder) -> PathsBuilder] = &[
    decisions,
    models,
    examples,
    batch_decisions,
    alignments,
    evaluations,
    jobs,
    meta,
];

fn info() -> Info {
    InfoBuilder::new()
        .title("Arbiter")
        .version(env!("CARGO_PKG_VERSION"))
        .description(Some(
            "Decision models (System One) over HTTP: typed questions (`noul`, `choice`, \
             `score`) evaluated against a JSON state, on base models or on versioned repository \
             models, with captured examples and annotations.\n\n\
             Every response carries `x-request-id`. Every error is `application/problem+json` \
             (the `Problem` schema).",
        ))
        .license(Some(
            LicenseBuilder::new()
                .name("MIT")
                .identifier(Some("MIT"))
                .build(),
        ))
        .build()
}

fn tags() -> Vec<Tag> {
    [
        (
            "decisions",
            "Decisions on a base model or a repository model.",
        ),
        ("models", "Base models and repository models."),
        (
            "examples",
            "Examples of a repository model: list, ingest, show, annotate.",
        ),
        (
            "batches",
            "Batch decisions: jobs over many states, with NDJSON results.",
        ),
        (
            "alignments",
            "Alignments: better questions from annotated examples, as new checkpoints.",
        ),
        (
            "evaluations",
            "Evaluations: a checkpoint's figures over the annotated examples.",
        ),
        (
            "jobs",
            "Any job by its ID alone: batch decisions, alignments and evaluations.",
        ),
        (
            "meta",
            "No token needed: this document, health, problem pages.",
        ),
    ]
    .into_iter()
    .map(|(name, description)| {
        TagBuilder::new()
            .name(name)
            .description(Some(description))
            .build()
    })
    .collect()
}

// ---------------------------------------------------------------------------------------
// Paths, one function per resource
// ---------------------------------------------------------------------------------------

/// `POST /v1/decision` and its alias `POST /v1/systemone`.
fn decisions(paths: PathsBuilder) -> PathsBuilder {
    let decide = |operation_id: &str, summary: &str| {
        Endpoint::v1(operation_id, "decisions", summary, "decisions")
            .description(
                "Evaluates each question against `state` and returns one answer per question, \
                 keyed by question ID. With a repository model (`<owner>/<model>`, role \
                 `reader`) the saved questions at `revision` (default: the default branch) are \
                 loaded, and the decision is recorded as an example and a decision unless \
                 `capture` is false or the model's sample rate skips it. With an \
                 `Idempotency-Key`, a retry of the same request replays the first response.",
            )
            .parameter("idempotencyKey")
            .body(json_body("The decision request.", "DecisionRequest"))
            .ok(
                "The answers.",
                "application/json",
                schema_ref("DecisionResponse"),
            )
            .ok_header("Idempotent-Replayed")
            .problems(DECIDE_PROBLEMS)
            .build()
    };
    let alias = "Create a decision (alias of `POST /v1/decision`)";
    paths
        .path(
            "/v1/decision",
            post(decide("createDecision", "Create a decision")),
        )
        .path(
            "/v1/systemone",
            post(decide("createDecisionSystemOne", alias)),
        )
}

const DECIDE_PROBLEMS: &[(u16, &[&str], &str)] = &[
    (400, &["bad_request"], "The body is not valid JSON."),
    (
        404,
        &["model_not_found", "revision_not_found"],
        "No such base model or repository model visible to this token, or the revision cannot \
         be read.",
    ),
    (
        409,
        &["idempotency_key_reused", "decision_in_progress"],
        "The `Idempotency-Key` was used with another payload, or its first request is still \
         running (retry with the same key after a short delay).",
    ),
    (413, &["payload_too_large"], TOO_LARGE),
    (415, &["unsupported_media_type"], NOT_JSON),
    (
        422,
        &["validation_error", "invalid_checkpoint"],
        "The body or the `Idempotency-Key` failed validation (`details` locates each problem), \
         or the repository model's files at that revision do not form a valid model.",
    ),
    (
        502,
        &["upstream_failed"],
        "A remote engine answered with an error.",
    ),
    (
        503,
        &["upstream_unavailable"],
        "A remote engine could not be reached.",
    ),
];

/// `GET /v1/models`, `GET /v1/models/{modelId}`, `GET /v1/models/{modelId}/checkpoints`.
fn models(paths: PathsBuilder) -> PathsBuilder {
    let list = Endpoint::v1("listModels", "models", "List models", "models:read")
        .description("The base models, and the repository models this token has a role on.")
        .ok("The models.", "application/json", schema_ref("ModelList"))
        .build();
    let show = Endpoint::v1(
        "getModel",
        "models",
        "Show a repository model",
        "models:read",
    )
    .description(
        "Path, default branch, branches, tags, capture policy and question IDs (role \
         `reader`).",
    )
    .parameter("modelId")
    .ok(
        "The repository model.",
        "application/json",
        schema_ref("ModelDetail"),
    )
    .problems(&[
        (404, &["model_not_found"], MODEL_NOT_FOUND),
        (422, &["invalid_checkpoint"], INVALID_CHECKPOINT),
    ])
    .build();
    let checkpoints = ArrayBuilder::new().items(schema_ref("Checkpoint")).into();
    let log = Endpoint::v1(
        "listCheckpoints",
        "models",
        "List checkpoints",
        "models:read",
    )
    .description("The commits of a revision, newest first (role `reader`).")
    .parameter("modelId")
    .query(
        "revision",
        "Branch, tag or commit SHA [default: the default branch].",
        string(),
    )
    .query(
        "limit",
        "How many checkpoints (1–1000; anything else is refused).",
        limit(),
    )
    .ok(
        "The checkpoints, newest first.",
        "application/json",
        checkpoints,
    )
    .problems(&[
        (
            404,
            &["model_not_found", "revision_not_found"],
            "No repository model with this `modelId` visible to this token, or the \
             revision cannot be read.",
        ),
        (422, &["validation_error"], BAD_QUERY),
    ])
    .build();
    paths
        .path("/v1/models", get(list))
        .path("/v1/models/{modelId}", get(show))
        .path("/v1/models/{modelId}/checkpoints", get(log))
}

/// Examples of a repository model: list, ingest, show, annotate.
fn examples(paths: PathsBuilder) -> PathsBuilder {
    let examples = "/v1/models/{modelId}/examples";
    paths
        .path(examples, get(list_examples()))
        .path(examples, post(ingest_examples()))
        .path(
            "/v1/models/{modelId}/examples/{exampleId}",
            get(show_example()),
        )
        .path(
            "/v1/models/{modelId}/examples/{exampleId}/annotations",
            patch(annotate_example()),
        )
        .path(
            "/v1/models/{modelId}/annotations",
            post(annotate_examples()),
        )
}

fn list_examples() -> Operation {
    let annotated = "`true`: only annotated examples; `false`: only the others.";
    Endpoint::v1("listExamples", "examples", "List examples", "examples:read")
        .description(
            "A page of examples in example ID order (role `reader`); pass `nextCursor` as \
             `after` for the next page.",
        )
        .parameter("modelId")
        .query("annotated", annotated, boolean())
        .query(
            "question",
            "Only examples annotated for this question ID.",
            string(),
        )
        .query("after", "The `nextCursor` of the previous page.", string())
        .query(
            "limit",
            "Page size (1–1000; anything else is refused).",
            limit(),
        )
        .ok("A page of examples.", JSON, schema_ref("ExamplePage"))
        .problems(&[
            (404, &["model_not_found"], MODEL_NOT_FOUND),
            (422, &["validation_error"], BAD_QUERY),
        ])
        .build()
}

fn ingest_examples() -> Operation {
    let atomic = boolean().default(Some(false.into()));
    Endpoint::v1(
        "ingestExamples",
        "examples",
        "Ingest examples",
        "examples:write",
    )
    .description(
        "Stores examples in bulk (role `writer`). Bad items are reported in `rejected` and \
         the valid ones are written; with `atomic=true` any bad item is a 422 and nothing \
         is written. Annotations are checked against the questions at the default branch. \
         Re-ingesting a state never duplicates its example. A large upload can be sent in \
         chunks (JSON Lines split at line ends), each with its own `Idempotency-Key`, so a \
         retried chunk replays its first report.",
    )
    .parameter("modelId")
    .parameter("idempotencyKey")
    .query("atomic", "Write nothing when any item is bad.", atomic)
    .body(ingest_body())
    .ok(
        "What was written, and what was not.",
        JSON,
        schema_ref("IngestReport"),
    )
    .problems(&[
        (404, &["model_not_found"], MODEL_NOT_FOUND),
        (
            409,
            &["idempotency_key_reused", "decision_in_progress"],
            KEY_CONFLICT,
        ),
        (400, &["bad_request"], LINES_NOT_JSON),
        (413, &["payload_too_large"], TOO_LARGE),
        (415, &["unsupported_media_type"], NOT_JSON_OR_LINES),
        (
            422,
            &["validation_error", "invalid_checkpoint"],
            "A query parameter is not valid; an `application/json` body is not an array; \
             with `atomic=true`, an item is bad (`details` locates each by index); or the \
             model's files at the default branch do not form a valid model.",
        ),
    ])
    .build()
}

fn show_example() -> Operation {
    Endpoint::v1("getExample", "examples", "Show an example", "examples:read")
        .description(
            "One example with its annotations and every decision taken on it, oldest first \
             (role `reader`).",
        )
        .parameter("modelId")
        .parameter("exampleId")
        .ok("The example.", JSON, schema_ref("ExampleDetail"))
        .problems(&[(
            404,
            &["model_not_found", "example_not_found"],
            EXAMPLE_NOT_FOUND,
        )])
        .build()
}

fn annotate_example() -> Operation {
    let summary = "Annotate an example";
    Endpoint::v1("annotateExample", "examples", summary, "examples:write")
        .description(
            "Writes ground truth (and optional reasoning) for some questions of one example \
             (role `writer`). Every answer is checked against the questions at the default \
             branch before anything is written. A `choice` answer given as a number or a \
             boolean names the option of that text (`2` names option `\"2\"`).",
        )
        .parameter("modelId")
        .parameter("exampleId")
        .body(json_body("Question ID → annotation.", "AnnotationsPatch"))
        .ok("The example, annotated.", JSON, schema_ref("ExampleDetail"))
        .problems(&[
            (400, &["bad_request"], "The body is not valid JSON."),
            (
                404,
                &["model_not_found", "example_not_found"],
                EXAMPLE_NOT_FOUND,
            ),
            (413, &["payload_too_large"], TOO_LARGE),
            (415, &["unsupported_media_type"], NOT_JSON),
            (
                422,
                &["validation_error", "invalid_checkpoint"],
                "An annotation does not fit its question (or names no question), or the \
                 model's files at the default branch do not form a valid model.",
            ),
        ])
        .build()
}

fn annotate_examples() -> Operation {
    let summary = "Annotate many examples";
    Endpoint::v1("annotateExamples", "examples", summary, "examples:write")
        .description(
            "Writes ground truth for many examples at once (role `writer`), one \
             `{example_id, question, answer, reasoning?}` per line (or a JSON array of them), \
             as `arbiter examples annotate --file`. Each is checked against the questions at \
             the default branch; bad lines (and lines naming no stored example) are reported \
             in `rejected` with their line numbers, and the good ones written. With an \
             `Idempotency-Key`, a retry replays the first report.",
        )
        .parameter("modelId")
        .parameter("idempotencyKey")
        .body(lines_body(
            "The annotations: JSON Lines (`application/x-ndjson`, `application/jsonl`) of \
             `AnnotationLine`, or a JSON array of them (`application/json`); blank lines are \
             skipped.",
            "AnnotationLine",
        ))
        .ok(
            "What was written (`annotations`), and what was not (`rejected`).",
            JSON,
            schema_ref("IngestReport"),
        )
        .problems(&[
            (404, &["model_not_found"], MODEL_NOT_FOUND),
            (
                409,
                &["idempotency_key_reused", "decision_in_progress"],
                KEY_CONFLICT,
            ),
            (400, &["bad_request"], LINES_NOT_JSON),
            (413, &["payload_too_large"], TOO_LARGE),
            (415, &["unsupported_media_type"], NOT_JSON_OR_LINES),
            (
                422,
                &["validation_error", "invalid_checkpoint"],
                "The `Idempotency-Key` is not valid, or the model's files at the default branch \
                 do not form a valid model.",
            ),
        ])
        .build()
}

/// A body of items each checked alone: a JSON array or JSON Lines whose elements are
/// `schema` (named in the description). A bad item is rejected in the report with its line
/// number while the others are written, so the body's schema admits any element: a
/// stricter one would document refusals the server does not make.
fn lines_body(description: &str, schema: &str) -> RequestBody {
    let description = format!(
        "{description} Each element should be a `{schema}`; one that is not is rejected \
         alone, in the report's `rejected`."
    );
    let any = || {
        ObjectBuilder::new()
            .schema_type(SchemaType::AnyValue)
            .build()
    };
    let array = ArrayBuilder::new().items(any());
    let line = || ContentBuilder::new().schema(Some(any())).build();
    RequestBodyBuilder::new()
        .description(Some(description))
        .required(Some(Required::True))
        .content(
            "application/json",
            ContentBuilder::new().schema(Some(array)).build(),
        )
        .content("application/x-ndjson", line())
        .content("application/jsonl", line())
        .build()
}

/// The body of an ingest: a JSON array, or JSON Lines.
fn ingest_body() -> RequestBody {
    lines_body(
        "The examples: a JSON array (`application/json`), or JSON Lines \
         (`application/x-ndjson`, `application/jsonl`); blank lines are skipped.",
        "IngestExample",
    )
}

/// What a job collection's description needs (batch decisions, alignments, evaluations).
struct JobResource {
    collection: &'static str,
    /// `BatchDecisions`, `Alignment`, `Evaluation`: operation IDs are built from it.
    name: &'static str,
    /// "batch job", "alignment", "evaluation".
    noun: &'static str,
    tag: &'static str,
    scope: &'static str,
    create_summary: &'static str,
    create_description: &'static str,
    body: &'static str,
    body_schema: &'static str,
    /// The schema of a JSON Lines body's lines, when the create route also takes one.
    ndjson_line_schema: Option<&'static str>,
    poll_description: &'static str,
    cancel_description: &'static str,
}

/// Create (202 with `Location`, `Idempotency-Key` required), list, poll and cancel (204).
// Declarative: the four operations of a job collection, together as they are served.
#[allow(clippy::too_many_lines)]
fn job_collection(paths: PathsBuilder, r: &JobResource) -> PathsBuilder {
    let job_not_found = format!(
        "No repository model with this `modelId` visible to this token, or no {} with this \
         `jobId` under it.",
        r.noun
    );
    let create = Endpoint::v1(
        &format!("create{}", r.name),
        r.tag,
        r.create_summary,
        r.scope,
    )
    .description(r.create_description)
    .parameter("modelId")
    .parameter("idempotencyKeyRequired")
    .body(match r.ndjson_line_schema {
        None => json_body(r.body, r.body_schema),
        Some(line) => json_or_lines_body(r.body, r.body_schema, line),
    })
    .status(202)
    .ok("The job, queued.", JSON, schema_ref("Job"))
    .ok_header("Location")
    .ok_header("Idempotent-Replayed")
    .problems(&[
        (
            400,
            &["bad_request"],
            "The body is not valid JSON, or the request cannot be run.",
        ),
        (
            404,
            &["model_not_found", "revision_not_found"],
            "No repository model with this `modelId` visible to this token, or a revision \
                 cannot be resolved.",
        ),
        (
            409,
            &["idempotency_key_reused", "decision_in_progress"],
            "The key was used with another body, or its first request is still being \
                 answered.",
        ),
        (413, &["payload_too_large"], TOO_LARGE),
        (415, &["unsupported_media_type"], NOT_JSON),
        (
            422,
            &["validation_error", "invalid_checkpoint"],
            "The body or the `Idempotency-Key` is not valid (`details` locates each fault), \
                 or the checkpoint's files do not form a valid model.",
        ),
    ])
    .build();
    let jobs = ArrayBuilder::new().items(schema_ref("Job")).into();
    let list = Endpoint::v1(
        &format!("list{}", r.name),
        r.tag,
        &format!("List {}s", r.noun),
        r.scope,
    )
    .description(&format!(
        "The model's {}s, newest first (role `reader`).",
        r.noun
    ))
    .parameter("modelId")
    .query(
        "status",
        "Only jobs with this status.",
        string().enum_values(Some(JOB_STATUSES)),
    )
    .query(
        "limit",
        "How many jobs (1–1000; anything else is refused).",
        limit(),
    )
    .ok("The jobs, newest first.", JSON, jobs)
    .problems(&[
        (404, &["model_not_found"], MODEL_NOT_FOUND),
        (422, &["validation_error"], BAD_QUERY),
    ])
    .build();
    let poll = Endpoint::v1(
        &format!("get{}", r.name),
        r.tag,
        &format!("Poll a {}", r.noun),
        r.scope,
    )
    .description(r.poll_description)
    .parameter("modelId")
    .parameter("jobId")
    .ok("The job.", JSON, schema_ref("Job"))
    .problems(&[(404, &["model_not_found", "job_not_found"], &job_not_found)])
    .build();
    let cancel = Endpoint::v1(
        &format!("cancel{}", r.name),
        r.tag,
        &format!("Cancel a {}", r.noun),
        r.scope,
    )
    .description(r.cancel_description)
    .parameter("modelId")
    .parameter("jobId")
    .no_content("The cancel is recorded (or the job had already finished).")
    .problems(&[(404, &["model_not_found", "job_not_found"], &job_not_found)])
    .build();
    let collection = r.collection;
    paths
        .path(collection, get(list))
        .path(collection, post(create))
        .path(format!("{collection}/{{jobId}}"), get(poll))
        .path(format!("{collection}/{{jobId}}/cancel"), post(cancel))
}

const JOB_STATUSES: [&str; 5] = ["queued", "running", "completed", "failed", "cancelled"];

/// Batch decisions, and their results (NDJSON).
fn batch_decisions(paths: PathsBuilder) -> PathsBuilder {
    let resource = JobResource {
        collection: "/v1/models/{modelId}/batch-decisions",
        name: "BatchDecisions",
        noun: "batch job",
        tag: "batches",
        scope: "batches",
        create_summary: "Start a batch of decisions",
        create_description: "Stages the items (or the model's stored examples) and queues a job \
            that decides each with the checkpoint the revision resolves to now (role `reader`; \
            `writer` with `capture: true`). Answers 202 at once with the job and its `Location`. \
            One bad item becomes an error line in the results, not a failed job. The \
            `Idempotency-Key` is required: a retry with the same key and body returns the same job.",
        body: "The batch: a JSON `BatchRequest`; or JSON Lines (`application/x-ndjson`) whose \
            first line holds the other members (`{revision?, questions?, capture?}`, possibly \
            `{}`) and each further line one item `{example_id?, state}`, staged as sent (a line \
            that is not JSON fails only its own item). The body is bounded by the server's \
            `server.max_body_bytes` either way.",
        body_schema: "BatchRequest",
        ndjson_line_schema: Some("BatchItem"),
        poll_description: "The job: status, progress `{total, done, failed}`, timestamps; when \
            completed, the summary in `result`; when failed, the problem in `error`.",
        cancel_description: "A queued job is cancelled at once; a running one stops at its next \
            item and keeps its finished results. Idempotent: a finished job answers 204 and \
            stays as it finished.",
    };
    let results = Endpoint::v1(
        "getBatchDecisionResults",
        "batches",
        "Read a batch job's results",
        "batches",
    )
    .description(
        "One JSON line per finished item, in input order: `{index, example_id, answers, \
         usage}` or `{index, example_id, error}` (a problem). While the job runs, the lines \
         finished so far; `Arbiter-Job-Status` says whether more will come.",
    )
    .parameter("modelId")
    .parameter("jobId")
    .ok(
        "The results so far.",
        "application/x-ndjson",
        schema_ref("BatchResultLine"),
    )
    .ok_header("Arbiter-Job-Status")
    .problems(&[(
        404,
        &["model_not_found", "job_not_found"],
        "No repository model with this `modelId` visible to this token, or no batch job with \
         this `jobId` under it.",
    )])
    .build();
    job_collection(paths, &resource).path(
        format!("{}/{{jobId}}/results", resource.collection),
        get(results),
    )
}

/// Alignments (jobs), and promoting a checkpoint to the default branch.
fn alignments(paths: PathsBuilder) -> PathsBuilder {
    let resource = JobResource {
        collection: "/v1/models/{modelId}/alignments",
        name: "Alignment",
        noun: "alignment",
        tag: "alignments",
        scope: "alignments",
        create_summary: "Start an alignment",
        create_description: "Queues a job that improves the questions of a checkpoint from the \
            model's annotated examples (role `writer`: it commits a branch). Candidates \
            (exemplars, cues, a calibration) are chosen and scored by nested cross-validation; \
            a question changes only when its held-out loss improves by the margin and a seeded \
            paired bootstrap's lower bound is above zero. The improved questions are committed \
            on `alignments/<jobId>`, parent the base checkpoint; when nothing improves, nothing \
            is committed. The `Idempotency-Key` is required.",
        body: "The alignment.",
        body_schema: "AlignmentRequest",
        ndjson_line_schema: None,
        poll_description: "The job; when completed, `result` is an `AlignmentResult`: `improved`, \
            the new branch and checkpoint, and per question the held-out figures before and \
            after with the gate's verdict.",
        cancel_description: "A queued alignment is cancelled at once; a running one stops at its \
            next step and commits nothing. Idempotent.",
    };
    let body = object()
        .property(
            "revision",
            string()
                .min_length(Some(1))
                .description(Some("The branch, tag or commit SHA to fast-forward to.")),
        )
        .required("revision")
        .additional_properties(Some(AdditionalProperties::FreeForm(true)));
    let promote = Endpoint::v1(
        "promoteModel",
        "alignments",
        "Promote a checkpoint",
        "alignments",
    )
    .description(
        "Fast-forwards the model's default branch to the revision (role `writer`), e.g. an \
         alignment's `alignments/<jobId>` branch once its evaluation passes.",
    )
    .parameter("modelId")
    .body(
        RequestBodyBuilder::new()
            .description(Some("The revision to promote."))
            .content(JSON, ContentBuilder::new().schema(Some(body)).build())
            .required(Some(Required::True))
            .build(),
    )
    .ok(
        "The checkpoint the default branch is at now.",
        JSON,
        schema_ref("Checkpoint"),
    )
    .problems(&[
        (400, &["bad_request"], "The body is not valid JSON."),
        (
            404,
            &["model_not_found", "revision_not_found"],
            "No repository model with this `modelId` visible to this token, or no such revision.",
        ),
        (
            409,
            &["not_fast_forward"],
            "The revision is not ahead of the default branch.",
        ),
        (415, &["unsupported_media_type"], NOT_JSON),
        (422, &["validation_error"], "The body has no `revision`."),
    ])
    .build();
    job_collection(paths, &resource).path("/v1/models/{modelId}/promote", post(promote))
}

/// Evaluations (jobs): a checkpoint's figures over the annotated examples.
fn evaluations(paths: PathsBuilder) -> PathsBuilder {
    job_collection(
        paths,
        &JobResource {
            collection: "/v1/models/{modelId}/evaluations",
            name: "Evaluation",
            noun: "evaluation",
            tag: "evaluations",
            scope: "batches",
            create_summary: "Start an evaluation",
            create_description: "Queues a job that decides every annotated example at the \
                revision (and at the baseline, when given) and reports, per question and \
                overall, log loss or RPS, accuracy, macro-F1, Cohen's kappa, Brier, ECE and, for \
                scores, MAE. An aligned question never uses an example as its own exemplar. \
                Answers are cached by engine, questions and state, so a re-run calls no engine. \
                The `Idempotency-Key` is required.",
            body: "The evaluation.",
            body_schema: "EvaluationRequest",
            ndjson_line_schema: None,
            poll_description: "The job; when completed, `result` is an `EvaluationReport`.",
            cancel_description: "A queued evaluation is cancelled at once; a running one stops \
                at its next example. Idempotent.",
        },
    )
}

/// `/v1/jobs`: any job by its ID alone, whatever its kind and model.
fn jobs(paths: PathsBuilder) -> PathsBuilder {
    let visible = "Jobs on models the token has a role on, of the kinds whose scope it holds \
                   (`batches` for batch jobs and evaluations, `alignments` for alignments).";
    let not_found = "No job with this `jobId` on a model visible to this token.";
    let jobs = ArrayBuilder::new().items(schema_ref("Job")).into();
    let list = Endpoint::v1("listJobs", "jobs", "List jobs", "batches")
        .description(&format!("Jobs of every kind, newest first. {visible}"))
        .query(
            "model",
            "Only the jobs of this repository model: its `modelId` or its path `<owner>/<model>`.",
            string(),
        )
        .query(
            "status",
            "Only jobs with this status.",
            string().enum_values(Some(JOB_STATUSES)),
        )
        .query(
            "limit",
            "How many jobs (1–1000; anything else is refused).",
            limit(),
        )
        .ok("The jobs, newest first.", JSON, jobs)
        .problems(&[
            (404, &["model_not_found"], MODEL_NOT_FOUND),
            (422, &["validation_error"], BAD_QUERY),
        ])
        .build();
    let poll = Endpoint::v1("getJob", "jobs", "Poll a job", "batches")
        .description(&format!(
            "A job of any kind, as its own collection's poll route shows it. {visible}"
        ))
        .parameter("jobId")
        .ok("The job.", JSON, schema_ref("Job"))
        .problems(&[(404, &["job_not_found"], not_found)])
        .build();
    let cancel = Endpoint::v1("cancelJob", "jobs", "Cancel a job", "batches")
        .description(
            "As its own collection's cancel route: a queued job is cancelled at once, a running \
             one at its next item; idempotent, and a finished job stays as it finished.",
        )
        .parameter("jobId")
        .no_content("The cancel is recorded (or the job had already finished).")
        .problems(&[(404, &["job_not_found"], not_found)])
        .build();
    let results = Endpoint::v1("getJobResults", "jobs", "Read a job's results", "batches")
        .description(
            "The complete result lines written so far, one JSON line per finished item in \
             input order (for a batch job, `BatchResultLine`); `Arbiter-Job-Status` says \
             whether more will come. A job that writes no lines answers an empty body.",
        )
        .parameter("jobId")
        .ok(
            "The results so far.",
            "application/x-ndjson",
            schema_ref("BatchResultLine"),
        )
        .ok_header("Arbiter-Job-Status")
        .problems(&[(404, &["job_not_found"], not_found)])
        .build();
    paths
        .path("/v1/jobs", get(list))
        .path("/v1/jobs/{jobId}", get(poll))
        .path("/v1/jobs/{jobId}/cancel", post(cancel))
        .path("/v1/jobs/{jobId}/results", get(results))
}

/// `GET /openapi.json`, `GET /healthz`, `GET /problems/{code}`: no token.
fn meta(paths: PathsBuilder) -> PathsBuilder {
    let openapi = Endpoint::public("getOpenApi", "meta", "This document")
        .ok(
            "The OpenAPI 3.1 document.",
            "application/json",
            object().into(),
        )
        .build();
    let health = object()
        .property("status", string().enum_values(Some(["ok"])))
        .required("status")
        .property(
            "version",
            string().description(Some("The server's version.")),
        )
        .required("version");
    let health = Endpoint::public("healthz", "meta", "Health")
        .description("Answers 200 while the server serves.")
        .ok("The server is up.", "application/json", health.into())
        .build();
    let code = string().pattern(Some("^[a-z0-9]+(-[a-z0-9]+)*$"));
    let problem = Endpoint::public("getProblem", "meta", "Describe a problem type")
        .description("The page a problem's `type` URI names: what it means and how to fix it.")
        .path_parameter(
            "code",
            "The kebab-case problem code, e.g. `validation-error`.",
            code,
        )
        .ok("A short page on the problem.", "text/html", string().into())
        .problems(&[(404, &["not_found"], "No problem type of that name.")])
        .build();
    paths
        .path("/openapi.json", get(openapi))
        .path("/healthz", get(health))
        .path("/problems/{code}", get(problem))
}

const MODEL_NOT_FOUND: &str = "No repository model with this `modelId` visible to this token.";
const EXAMPLE_NOT_FOUND: &str =
    "No repository model with this `modelId` visible to this token, or no such example in it.";
const INVALID_CHECKPOINT: &str = "The model's files at the default branch do not form a valid \
                                  model; `details` locates each problem in its file.";
const BAD_QUERY: &str = "A query parameter is not valid (e.g. `limit=abc`).";
const KEY_CONFLICT: &str = "The `Idempotency-Key` was used with another body, or its first \
                            request is still being answered.";
const TOO_LARGE: &str = "The body exceeds the server's limit.";
const NOT_JSON: &str = "The body is not `application/json`.";
const NOT_JSON_OR_LINES: &str = "The body is neither JSON nor JSON Lines.";
const LINES_NOT_JSON: &str =
    "An `application/json` body is not valid JSON (it is refused before anything is written).";
const JSON: &str = "application/json";

fn get(operation: Operation) -> PathItem {
    PathItem::new(HttpMethod::Get, operation)
}

fn post(operation: Operation) -> PathItem {
    PathItem::new(HttpMethod::Post, operation)
}

fn patch(operation: Operation) -> PathItem {
    PathItem::new(HttpMethod::Patch, operation)
}

/// One operation being described. Every response gets `x-request-id`; a `/v1` operation
/// also gets the bearer requirement, the rate-limit headers and the 401/403/429 problems.
struct Endpoint {
    operation: OperationBuilder,
    /// The success response and its extra headers.
    ok: Option<(ResponseBuilder, Vec<&'static str>)>,
    /// Its status: 200 unless said otherwise (202 for a queued job, 204 for no content).
    ok_status: u16,
    problems: Vec<(u16, ResponseBuilder)>,
    /// Behind the bearer token and the per-token rate limit.
    authenticated: bool,
}

impl Endpoint {
    /// A route without a token.
    fn public(operation_id: &str, tag: &str, summary: &str) -> Self {
        let operation = OperationBuilder::new()
            .operation_id(Some(operation_id))
            .tag(tag)
            .summary(Some(summary))
            .parameter_ref(parameter_ref("requestId"));
        let endpoint = Self {
            operation,
            ok: None,
            ok_status: 200,
            problems: Vec::new(),
            authenticated: false,
        };
        endpoint.problems(&[(
            500,
            &["internal"],
            "The server failed; quote the `requestId`.",
        )])
    }

    /// A `/v1` route: a bearer token with `scope`, rate limited per token.
    fn v1(operation_id: &str, tag: &str, summary: &str, scope: &str) -> Self {
        let mut endpoint = Self::public(operation_id, tag, summary);
        endpoint.authenticated = true;
        endpoint.operation = endpoint
            .operation
            .security(SecurityRequirement::new(BEARER, [scope]));
        let forbidden = format!(
            "The token lacks the `{scope}` scope, or the role this route needs on the model."
        );
        endpoint.problems(&[
            (
                401,
                &["unauthorized"],
                "Authentication is missing, invalid or revoked.",
            ),
            (403, &["forbidden"], &forbidden),
            (
                429,
                &["rate_limited"],
                "Too many requests for this token; retry after `Retry-After`.",
            ),
        ])
    }

    fn description(mut self, description: &str) -> Self {
        self.operation = self.operation.description(Some(description));
        self
    }

    /// A parameter from `components.parameters`.
    fn parameter(mut self, name: &str) -> Self {
        self.operation = self.operation.parameter_ref(parameter_ref(name));
        self
    }

    fn path_parameter(mut self, name: &str, description: &str, schema: ObjectBuilder) -> Self {
        let parameter = parameter(name, ParameterIn::Path, Required::True, description, schema);
        self.operation = self.operation.parameter(parameter);
        self
    }

    fn query(mut self, name: &str, description: &str, schema: ObjectBuilder) -> Self {
        let parameter = parameter(
            name,
            ParameterIn::Query,
            Required::False,
            description,
            schema,
        );
        self.operation = self.operation.parameter(parameter);
        self
    }

    fn body(mut self, body: RequestBody) -> Self {
        self.operation = self.operation.request_body(Some(body));
        self
    }

    /// The success status, when not 200.
    fn status(mut self, status: u16) -> Self {
        self.ok_status = status;
        self
    }

    /// A 204 response: no body.
    fn no_content(mut self, description: &str) -> Self {
        self.ok = Some((ResponseBuilder::new().description(description), Vec::new()));
        self.ok_status = 204;
        self
    }

    /// The success response (200 unless [`Self::status`] says otherwise).
    fn ok(mut self, description: &str, media_type: &str, schema: RefOr<Schema>) -> Self {
        let content = ContentBuilder::new().schema(Some(schema)).build();
        let response = ResponseBuilder::new()
            .description(description)
            .content(media_type, content);
        self.ok = Some((response, Vec::new()));
        self
    }

    /// A header from `components.headers` on the 200 response.
    fn ok_header(mut self, name: &'static str) -> Self {
        if let Some((_, headers)) = &mut self.ok {
            headers.push(name);
        }
        self
    }

    /// Problem responses: `(status, the problem codes answered with it, when)`. A status
    /// given again replaces the earlier description.
    fn problems(mut self, problems: &[(u16, &[&str], &str)]) -> Self {
        for &(status, codes, description) in problems {
            self.problems.retain(|(s, _)| *s != status);
            self.problems
                .push((status, problem_response(status, codes, description)));
        }
        self
    }

    fn build(self) -> Operation {
        let mut responses: Vec<(u16, ResponseBuilder, Vec<&str>)> = Vec::new();
        if let Some((response, headers)) = self.ok {
            responses.push((self.ok_status, response, headers));
        }
        for (status, response) in self.problems {
            let headers = match status {
                401 => vec!["WWW-Authenticate"],
                429 => vec!["Retry-After"],
                _ => Vec::new(),
            };
            responses.push((status, response, headers));
        }
        responses.sort_by_key(|(status, _, _)| *status);
        let responses = responses
            .into_iter()
            .map(|(status, mut response, mut headers)| {
                headers.push("x-request-id");
                // The rate limit is applied once the token is known, so a 401 has no quota.
                if self.authenticated && status != 401 {
                    headers.extend(["RateLimit-Limit", "RateLimit-Remaining", "RateLimit-Reset"]);
                }
                for name in headers {
                    response =
                        response.header_ref(name, Ref::new(format!("#/components/headers/{name}")));
                }
                (status.to_string(), response.build())
            });
        self.operation
            .responses(ResponsesBuilder::new().responses_from_iter(responses))
            .build()
    }
}

/// An `application/problem+json` response whose example carries the first of `codes`.
fn problem_response(status: u16, codes: &[&str], description: &str) -> ResponseBuilder {
    let title = crate::wire::problem::status_title(status);
    let listed: Vec<String> = codes.iter().map(|code| format!("`{code}`")).collect();
    let code = codes.first().copied().unwrap_or("internal");
    let example = json!({
        "type": format!("https://arbiter.example/problems/{}", code.replace('_', "-")),
        "title": title,
        "status": status,
        "detail": description,
        "code": code,
        "requestId": "0b5e7c1e-4f0b-4c55-9a3e-6a2f1d8c9e10",
        "details": [],
    });
    let content = ContentBuilder::new()
        .schema(Some(schema_ref("Problem")))
        .example(Some(example));
    ResponseBuilder::new()
        .description(format!("{title} ({}). {description}", listed.join(", ")))
        .content("application/problem+json", content.build())
}

fn parameter(
    name: &str,
    location: ParameterIn,
    required: Required,
    description: &str,
    schema: ObjectBuilder,
) -> Parameter {
    ParameterBuilder::new()
        .name(name)
        .parameter_in(location)
        .required(required)
        .description(Some(description))
        .schema(Some(schema))
        .build()
}

fn parameter_ref(name: &str) -> Ref {
    Ref::new(format!("#/components/parameters/{name}"))
}

fn schema_ref(name: &str) -> RefOr<Schema> {
    RefOr::Ref(Ref::from_schema_name(name))
}

/// A JSON body of `schema`, or JSON Lines of `line`.
fn json_or_lines_body(description: &str, schema: &str, line: &str) -> RequestBody {
    let line = || ContentBuilder::new().schema(Some(schema_ref(line))).build();
    RequestBodyBuilder::new()
        .description(Some(description))
        .required(Some(Required::True))
        .content(
            "application/json",
            ContentBuilder::new()
                .schema(Some(schema_ref(schema)))
                .build(),
        )
        .content("application/x-ndjson", line())
        .content("application/jsonl", line())
        .build()
}

fn json_body(description: &str, schema: &str) -> RequestBody {
    RequestBodyBuilder::new()
        .description(Some(description))
        .required(Some(Required::True))
        .content(
            "application/json",
            ContentBuilder::new()
                .schema(Some(schema_ref(schema)))
                .build(),
        )
        .build()
}

fn object() -> ObjectBuilder {
    ObjectBuilder::new().schema_type(Type::Object)
}

fn string() -> ObjectBuilder {
    ObjectBuilder::new().schema_type(Type::String)
}

fn boolean() -> ObjectBuilder {
    ObjectBuilder::new().schema_type(Type::Boolean)
}

fn count() -> ObjectBuilder {
    ObjectBuilder::new()
        .schema_type(Type::Integer)
        .minimum(Some(0))
}

fn uuid() -> ObjectBuilder {
    string().format(Some(SchemaFormat::KnownFormat(KnownFormat::Uuid)))
}

fn limit() -> ObjectBuilder {
    ObjectBuilder::new()
        .schema_type(Type::Integer)
        .minimum(Some(1))
        .maximum(Some(1000))
        .default(Some(50.into()))
}

// ---------------------------------------------------------------------------------------
// Components
// ---------------------------------------------------------------------------------------

const BEARER: &str = "bearerAuth";

fn components() -> Components {
    let example_id = string().min_length(Some(1)).max_length(Some(255));
    let key = string().min_length(Some(8)).max_length(Some(255));
    let (path, header_in) = (ParameterIn::Path, ParameterIn::Header);
    let parameters = [
        (
            "modelId",
            parameter(
                "modelId",
                path.clone(),
                Required::True,
                MODEL_ID,
                string().min_length(Some(1)),
            ),
        ),
        (
            "exampleId",
            parameter("exampleId", path, Required::True, EXAMPLE_ID, example_id),
        ),
        (
            "jobId",
            parameter(
                "jobId",
                ParameterIn::Path,
                Required::True,
                "The job's ID.",
                uuid(),
            ),
        ),
        (
            "idempotencyKeyRequired",
            parameter(
                "Idempotency-Key",
                ParameterIn::Header,
                Required::True,
                IDEMPOTENCY_KEY_REQUIRED,
                string().min_length(Some(8)).max_length(Some(255)),
            ),
        ),
        (
            "requestId",
            parameter(
                "x-request-id",
                header_in.clone(),
                Required::False,
                REQUEST_ID,
                string(),
            ),
        ),
        (
            "idempotencyKey",
            parameter(
                "Idempotency-Key",
                header_in,
                Required::False,
                IDEMPOTENCY_KEY,
                key,
            ),
        ),
    ];
    let mut builder = ComponentsBuilder::new()
        .schemas_from_iter(schemas())
        .security_scheme(BEARER, bearer());
    for (name, parameter) in parameters {
        builder = builder.parameter(name, parameter);
    }
    for (name, schema, description) in headers() {
        builder = builder.header(name, header(schema, description));
    }
    builder.build()
}

/// Every schema the paths reference: the contract types with everything they reference,
/// and the hand-written request bodies.
fn schemas() -> Vec<(String, RefOr<Schema>)> {
    let mut schemas = Vec::new();
    collect::<crate::wire::DecisionRequest>(&mut schemas);
    collect::<crate::wire::question::QuestionDoc>(&mut schemas);
    collect::<crate::wire::DecisionResponse>(&mut schemas);
    collect::<crate::wire::Problem>(&mut schemas);
    collect::<crate::wire::models::ModelList>(&mut schemas);
    collect::<crate::wire::models::ModelDetail>(&mut schemas);
    collect::<crate::wire::decision::Checkpoint>(&mut schemas);
    collect::<crate::wire::examples::ExamplePage>(&mut schemas);
    collect::<crate::wire::examples::IngestReport>(&mut schemas);
    collect::<crate::wire::examples::ExampleDetail>(&mut schemas);
    collect::<crate::wire::examples::IngestExample>(&mut schemas);
    collect::<crate::wire::examples::AnnotationsPatch>(&mut schemas);
    collect::<crate::wire::examples::AnnotationLine>(&mut schemas);
    collect::<crate::wire::jobs::Job>(&mut schemas);
    collect::<crate::wire::jobs::BatchSummary>(&mut schemas);
    collect::<crate::wire::jobs::BatchRequestDoc>(&mut schemas);
    collect::<crate::wire::jobs::BatchMembers>(&mut schemas);
    collect::<crate::wire::jobs::BatchItem>(&mut schemas);
    collect::<crate::wire::jobs::BatchResultLine>(&mut schemas);
    collect::<crate::wire::align::AlignmentRequest>(&mut schemas);
    collect::<crate::wire::align::EvaluationRequest>(&mut schemas);
    collect::<crate::wire::align::AlignmentResult>(&mut schemas);
    collect::<crate::wire::align::EvaluationReport>(&mut schemas);
    schemas
}

/// `T`'s schema and every schema it references.
fn collect<T: ToSchema>(schemas: &mut Vec<(String, RefOr<Schema>)>) {
    schemas.push((T::name().into_owned(), T::schema()));
    T::schemas(schemas);
}

fn bearer() -> SecurityScheme {
    SecurityScheme::Http(
        HttpBuilder::new()
            .scheme(HttpAuthScheme::Bearer)
            .description(Some(
                "A token from `arbiter tokens create`. Each operation's security requirement \
                 names the scope it needs (`decisions`, `models:read`, `examples:read`, `batches`, \
                 `examples:write`, `alignments`); routes on a repository model also need a role on its path \
                 (`reader`, `writer`, `admin`). A model the token has no role on answers 404 \
                 `model_not_found`, as if it did not exist.",
            ))
            .build(),
    )
}

const MODEL_ID: &str = "The repository model's `modelId` (a UUID), or its path \
                        `<owner>/<model>` with the `/` percent-encoded (`acme%2Fsupport`), as \
                        `arbiter --server` sends it.";
const EXAMPLE_ID: &str =
    "The example's ID: the caller's `example_id`, or `ex_` + 32 hex digits derived from the state.";
const REQUEST_ID: &str = "A UUID to correlate this request, echoed in the `x-request-id` response \
                          header and in problems' `requestId`. Any other value is accepted and \
                          replaced by a UUID the server generates, as when it is absent.";
const IDEMPOTENCY_KEY_REQUIRED: &str = "Required, so a retried request never starts a second \
                                        job: the same key and body return the same job (for 24 \
                                        hours); the same key with another body is 409 \
                                        `idempotency_key_reused`.";
const IDEMPOTENCY_KEY: &str = "Reuse when retrying this exact request: the finished response \
                               is replayed (for 24 hours). The same key with another payload \
                               is 409 `idempotency_key_reused`; while the first request still \
                               runs, 409 `decision_in_progress`. Without a key, each call is a \
                               new request.";

/// The response headers: name, schema, description.
fn headers() -> [(&'static str, ObjectBuilder, &'static str); 9] {
    [
        (
            "x-request-id",
            uuid(),
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
            "Where to poll the job: `/v1/models/{modelId}/<batch-decisions|alignments|evaluations>/{jobId}`.",
        ),
        (
            "Arbiter-Job-Status",
            string().enum_values(Some(JOB_STATUSES)),
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

fn header(schema: ObjectBuilder, description: &str) -> Header {
    HeaderBuilder::new()
        .schema(Some(schema))
        .description(Some(description))
        .build()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::Value;

    fn parsed() -> Value {
        serde_json::from_str(&document()).expect("the document is JSON")
    }

    /// Every `$ref` in `value`.
    fn refs<'a>(value: &'a Value, out: &mut Vec<&'a str>) {
        match value {
            Value::Object(map) => {
                for (key, value) in map {
                    match (key.as_str(), value) {
                        ("$ref", Value::String(target)) => out.push(target),
                        _ => refs(value, out),
                    }
                }
            }
            Value::Array(items) => items.iter().for_each(|v| refs(v, out)),
            _ => {}
        }
    }

    #[test]
    fn is_openapi_3_1() {
        let doc = parsed();
        assert!(
            doc["openapi"]
                .as_str()
                .is_some_and(|v| v.starts_with("3.1")),
            "{}",
            doc["openapi"]
        );
        assert_eq!(doc["info"]["version"], env!("CARGO_PKG_VERSION"));
    }

    #[test]
    fn lists_every_route() {
        let doc = parsed();
        for (method, path) in [
            ("post", "/v1/decision"),
            ("post", "/v1/systemone"),
            ("get", "/v1/models"),
            ("get", "/v1/models/{modelId}"),
            ("get", "/v1/models/{modelId}/checkpoints"),
            ("get", "/v1/models/{modelId}/examples"),
            ("post", "/v1/models/{modelId}/examples"),
            ("get", "/v1/models/{modelId}/examples/{exampleId}"),
            (
                "patch",
                "/v1/models/{modelId}/examples/{exampleId}/annotations",
            ),
            ("get", "/openapi.json"),
            ("get", "/healthz"),
            ("get", "/problems/{code}"),
        ] {
            assert!(
                doc["paths"][path][method].is_object(),
                "{} {path} is not described",
                method.to_uppercase()
            );
        }
    }

    /// The route table, read from its source: `(method, OpenAPI path)` for each `.route(…)`.
    fn served_routes() -> Vec<(String, String)> {
        let source = include_str!("routes/mod.rs");
        // Routes its own tests build are not served.
        let source = source.split("#[cfg(test)]").next().unwrap_or(source);
        // rustfmt may break a call over lines: read it with white space removed.
        let source: String = source.chars().filter(|c| !c.is_whitespace()).collect();
        let source = source.as_str();
        let mut routes = Vec::new();
        for (start, _) in source.match_indices(".route(\"") {
            let call = &source[start + ".route(".len()..];
            let mut depth = 1;
            let end = call
                .char_indices()
                .find(|&(_, c)| {
                    depth += match c {
                        '(' => 1,
                        ')' => -1,
                        _ => 0,
                    };
                    depth == 0
                })
                .map_or(call.len(), |(i, _)| i);
            let call = &call[..end];
            let path = call[1..].split('"').next().unwrap_or_default();
            // `{model_id}` in axum is `{modelId}` in the contract.
            let path = path
                .split('/')
                .map(
                    |segment| match segment.strip_prefix('{').and_then(|s| s.strip_suffix('}')) {
                        Some(name) => {
                            let mut parts = name.split('_');
                            let first = parts.next().unwrap_or_default().to_owned();
                            let rest: String =
                                parts.map(|p| p[..1].to_uppercase() + &p[1..]).collect();
                            format!("{{{first}{rest}}}")
                        }
                        None => segment.to_owned(),
                    },
                )
                .collect::<Vec<_>>()
                .join("/");
            let handlers = &call[call.find(',').unwrap_or(call.len())..];
            for method in ["get", "post", "put", "patch", "delete", "head"] {
                let called = handlers.match_indices(&format!("{method}(")).any(|(i, _)| {
                    i == 0 || !handlers[..i].ends_with(|c: char| c.is_alphanumeric() || c == '_')
                });
                if called {
                    routes.push((method.to_owned(), path.clone()));
                }
            }
        }
        routes
    }

    #[test]
    fn describes_every_served_route() {
        let doc = parsed();
        let routes = served_routes();
        assert!(
            routes.len() >= 12,
            "the route table did not parse: {routes:?}"
        );
        for (method, path) in routes {
            assert!(
                doc["paths"][&path][&method].is_object(),
                "{} {path} is served (routes/mod.rs) but not described in openapi.rs",
                method.to_uppercase()
            );
        }
    }

    #[test]
    fn every_reference_resolves() {
        let doc = parsed();
        let mut targets = Vec::new();
        refs(&doc, &mut targets);
        assert!(!targets.is_empty());
        for target in targets {
            let pointer = target
                .strip_prefix('#')
                .unwrap_or_else(|| panic!("external $ref {target}"));
            assert!(
                doc.pointer(pointer).is_some(),
                "$ref {target} does not resolve"
            );
        }
    }

    #[test]
    fn schemas_come_from_the_contract_types() {
        let doc = parsed();
        let schemas = &doc["components"]["schemas"];
        for name in [
            "DecisionRequest",
            "Question",
            "DecisionResponse",
            "Answer",
            "Usage",
            "Problem",
            "FieldError",
            "ModelList",
            "ModelDetail",
            "Checkpoint",
            "ExamplePage",
            "ExampleDetail",
            "IngestReport",
        ] {
            assert!(schemas[name].is_object(), "schema {name} is missing");
        }
        for (schema, kind) in [
            ("NoulQuestion", "noul"),
            ("ChoiceQuestion", "choice"),
            ("ScoreQuestion", "score"),
        ] {
            let tag = schemas[schema]["properties"]["type"]["$ref"]
                .as_str()
                .unwrap();
            let tag = &schemas[tag.rsplit('/').next().unwrap()];
            assert_eq!(tag["enum"], serde_json::json!([kind]), "{schema}");
            assert!(
                schemas["Question"]["oneOf"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .any(|v| v["$ref"] == format!("#/components/schemas/{schema}")),
                "{schema} is one of Question's forms"
            );
        }
        let required = schemas["DecisionRequest"]["required"]
            .as_array()
            .expect("required members");
        assert!(
            required.contains(&"model".into()) && required.contains(&"state".into()),
            "{required:?}"
        );
        assert!(schemas["Problem"]["properties"]["requestId"].is_object());
    }

    #[test]
    fn every_response_carries_a_request_id_and_errors_are_problems() {
        let doc = parsed();
        for (path, item) in doc["paths"].as_object().expect("paths") {
            for (method, operation) in item.as_object().expect("path item") {
                for (status, response) in operation["responses"].as_object().expect("responses") {
                    let at = format!("{method} {path} {status}");
                    assert!(
                        response["headers"]["x-request-id"].is_object(),
                        "{at}: no x-request-id"
                    );
                    if !status.starts_with('2') {
                        let schema =
                            &response["content"]["application/problem+json"]["schema"]["$ref"];
                        assert_eq!(schema, "#/components/schemas/Problem", "{at}");
                    }
                }
                let secured = operation["security"].is_array();
                assert_eq!(
                    secured,
                    path.starts_with("/v1/"),
                    "{method} {path}: security"
                );
            }
        }
    }
}
