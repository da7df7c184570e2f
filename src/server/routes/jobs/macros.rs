//! The handlers of one job collection, written out per collection by a macro: a handler in
//! the route table is one concrete function with one path.

/// The list, poll and cancel handlers of one job collection, each described for the
/// document: the generic handlers of `jobs/mod.rs`, named and documented per collection
/// (a handler in the route table is one concrete function with one path).
macro_rules! job_collection {
    (
        $collection:ty,
        paths: $paths:expr,
        tag: $tag:tt,
        scope: $scope:tt,
        name: $name:tt,
        noun: $noun:tt,
        list: $list:ident,
        get: $get:ident,
        cancel: $cancel:ident,
        poll: $poll:expr,
        cancelled: $cancelled:expr $(,)?
    ) => {
        #[utoipa::path(
            get,
            path = $paths.list,
            tag = $tag,
            operation_id = concat!("list", $name),
            summary = concat!("List ", $noun, "s"),
            description = concat!("The model's ", $noun, "s, newest first (role `reader`)."),
            security(("bearerAuth" = [$scope])),
            params(
                crate::server::routes::params::ModelParams,
                crate::server::routes::jobs::ListQuery
            ),
            responses(
                (status = 200, description = "The jobs, newest first.",
                    body = Vec<crate::wire::jobs::Job>),
                crate::server::openapi::problems::ModelNotFound,
                crate::server::openapi::problems::BadQuery,
            ),
        )]
        pub(crate) async fn $list(
            state: axum::extract::State<crate::server::AppState>,
            principal: axum::Extension<crate::core::tokens::Principal>,
            model: crate::server::extract::AppPath<crate::server::routes::params::ModelParams>,
            query: crate::server::extract::ModelQuery<crate::server::routes::jobs::ListQuery>,
        ) -> crate::server::error::ApiResult<axum::Json<Vec<crate::wire::jobs::Job>>> {
            crate::server::routes::jobs::list_in::<$collection>(state, principal, model, query)
                .await
        }

        #[utoipa::path(
            get,
            path = $paths.job,
            tag = $tag,
            operation_id = concat!("get", $name),
            summary = concat!("Poll a ", $noun),
            description = $poll,
            security(("bearerAuth" = [$scope])),
            params(
                crate::server::routes::params::ModelParams,
                crate::server::routes::params::JobParams
            ),
            responses(
                (status = 200, description = "The job.", body = crate::wire::jobs::Job),
                crate::server::openapi::problems::JobNotFound,
            ),
        )]
        pub(crate) async fn $get(
            state: axum::extract::State<crate::server::AppState>,
            principal: axum::Extension<crate::core::tokens::Principal>,
            model: crate::server::extract::AppPath<crate::server::routes::params::ModelParams>,
            job: crate::server::extract::AppPath<crate::server::routes::params::JobParams>,
        ) -> crate::server::error::ApiResult<axum::Json<crate::wire::jobs::Job>> {
            crate::server::routes::jobs::get_in::<$collection>(state, principal, model, job).await
        }

        #[utoipa::path(
            post,
            path = $paths.cancel,
            tag = $tag,
            operation_id = concat!("cancel", $name),
            summary = concat!("Cancel a ", $noun),
            description = $cancelled,
            security(("bearerAuth" = [$scope])),
            params(
                crate::server::routes::params::ModelParams,
                crate::server::routes::params::JobParams
            ),
            responses(
                (status = 204,
                    description = "The cancel is recorded (or the job had already finished)."),
                crate::server::openapi::problems::JobNotFound,
            ),
        )]
        pub(crate) async fn $cancel(
            state: axum::extract::State<crate::server::AppState>,
            principal: axum::Extension<crate::core::tokens::Principal>,
            model: crate::server::extract::AppPath<crate::server::routes::params::ModelParams>,
            job: crate::server::extract::AppPath<crate::server::routes::params::JobParams>,
        ) -> crate::server::error::ApiResult<axum::http::StatusCode> {
            crate::server::routes::jobs::cancel_in::<$collection>(state, principal, model, job)
                .await
        }
    };
}
pub(crate) use job_collection;

/// The `POST` of a job collection whose body is one JSON request (alignments,
/// evaluations), described for the document: [`super::create_json`], named per collection.
macro_rules! json_job_create {
    (
        $collection:ty,
        paths: $paths:expr,
        tag: $tag:tt,
        scope: $scope:tt,
        name: $name:tt,
        create: $create:ident,
        summary: $summary:expr,
        description: $description:expr,
        body: $body:ty,
        body_description: $body_description:expr $(,)?
    ) => {
        #[utoipa::path(
            post,
            path = $paths.list,
            tag = $tag,
            operation_id = concat!("create", $name),
            summary = $summary,
            description = $description,
            security(("bearerAuth" = [$scope])),
            params(
                crate::server::routes::params::ModelParams,
                crate::server::routes::params::RequiredIdempotencyKey
            ),
            request_body(content = $body, description = $body_description),
            responses(
                (status = 202, description = "The job, queued.", body = crate::wire::jobs::Job,
                    headers(("Location"), ("Idempotent-Replayed"))),
                crate::server::openapi::problems::JobNotRunnable,
                crate::server::openapi::problems::RevisionNotFound,
                crate::server::openapi::problems::KeyConflict,
                crate::server::openapi::problems::TooLarge,
                crate::server::openapi::problems::NotJson,
                crate::server::openapi::problems::JobInvalid,
            ),
        )]
        pub(crate) async fn $create(
            state: axum::extract::State<crate::server::AppState>,
            principal: axum::Extension<crate::core::tokens::Principal>,
            info: axum::Extension<crate::server::request::RequestInfo>,
            uri: axum::extract::OriginalUri,
            model: crate::server::extract::AppPath<crate::server::routes::params::ModelParams>,
            headers: axum::http::HeaderMap,
            request: axum::extract::Request,
        ) -> crate::server::error::ApiResult<axum::response::Response> {
            crate::server::routes::jobs::create_json::<$collection>(
                state, principal, info, uri, model, headers, request,
            )
            .await
        }
    };
}
pub(crate) use json_job_create;
