//! The route table: one file per resource.

mod alignments;
mod batch_decisions;
mod decide;
mod evaluations;
mod examples;
mod jobs;
mod meta;
mod models;

use super::error::{ApiError, status_problem};
use super::{AppState, auth, request};
use crate::error::Error;
use axum::Router;
use axum::http::StatusCode;
use axum::response::IntoResponse;
use axum::routing::{get, patch, post};
use tower_http::catch_panic::CatchPanicLayer;

pub(crate) fn router(state: AppState) -> Router {
    let v1 = Router::new()
        .route("/v1/decision", post(decide::create_decision))
        .route("/v1/systemone", post(decide::create_decision))
        .route("/v1/models", get(models::list_models))
        .route("/v1/models/{model_id}", get(models::get_model))
        .route(
            "/v1/models/{model_id}/checkpoints",
            get(models::list_checkpoints),
        )
        .route(
            "/v1/models/{model_id}/examples",
            get(examples::list_examples).post(examples::ingest_examples),
        )
        .route(
            "/v1/models/{model_id}/examples/{example_id}",
            get(examples::get_example),
        )
        .route(
            "/v1/models/{model_id}/examples/{example_id}/annotations",
            patch(examples::annotate_example),
        )
        .route(
            "/v1/models/{model_id}/annotations",
            post(examples::annotate_examples),
        )
        .route(
            "/v1/models/{model_id}/batch-decisions",
            get(jobs::list_in::<jobs::Batches>).post(batch_decisions::create_batch),
        )
        .route(
            "/v1/models/{model_id}/batch-decisions/{job_id}",
            get(jobs::get_in::<jobs::Batches>),
        )
        .route(
            "/v1/models/{model_id}/batch-decisions/{job_id}/results",
            get(batch_decisions::get_results),
        )
        .route(
            "/v1/models/{model_id}/batch-decisions/{job_id}/cancel",
            post(jobs::cancel_in::<jobs::Batches>),
        )
        .route(
            "/v1/models/{model_id}/alignments",
            get(jobs::list_in::<jobs::Alignments>).post(jobs::create_json::<jobs::Alignments>),
        )
        .route(
            "/v1/models/{model_id}/alignments/{job_id}",
            get(jobs::get_in::<jobs::Alignments>),
        )
        .route(
            "/v1/models/{model_id}/alignments/{job_id}/cancel",
            post(jobs::cancel_in::<jobs::Alignments>),
        )
        .route(
            "/v1/models/{model_id}/evaluations",
            get(jobs::list_in::<jobs::Evaluations>).post(jobs::create_json::<jobs::Evaluations>),
        )
        .route(
            "/v1/models/{model_id}/evaluations/{job_id}",
            get(jobs::get_in::<jobs::Evaluations>),
        )
        .route(
            "/v1/models/{model_id}/evaluations/{job_id}/cancel",
            post(jobs::cancel_in::<jobs::Evaluations>),
        )
        .route("/v1/models/{model_id}/promote", post(alignments::promote))
        .route("/v1/jobs", get(jobs::list_jobs))
        .route("/v1/jobs/{job_id}", get(jobs::get_job))
        .route("/v1/jobs/{job_id}/cancel", post(jobs::cancel_job))
        .route("/v1/jobs/{job_id}/results", get(jobs::get_job_results))
        .route_layer(axum::middleware::from_fn_with_state(
            state.clone(),
            auth::require_token,
        ));
    let public = Router::new()
        .route("/openapi.json", get(meta::openapi))
        .route("/healthz", get(meta::healthz))
        .route("/problems/{code}", get(meta::problem_page));
    with_layers(public.merge(v1), state)
}

/// Fallbacks, the panic catcher and request identity around `routes`.
fn with_layers(routes: Router<AppState>, state: AppState) -> Router {
    let base_url = state.ctx.settings().server.base_url.clone();
    routes
        .fallback(|| async { ApiError(Error::NotFound("no such route".into())) })
        .method_not_allowed_fallback(|| async {
            status_problem(
                StatusCode::METHOD_NOT_ALLOWED,
                "method_not_allowed",
                "this route does not take that method",
            )
        })
        .layer(CatchPanicLayer::custom(
            |_panic: Box<dyn std::any::Any + Send>| {
                ApiError(Error::Internal(
                    "the server hit a bug while answering; it keeps serving".into(),
                ))
                .into_response()
            },
        ))
        .layer(axum::middleware::from_fn(move |request, next| {
            request::identify(base_url.clone(), request, next)
        }))
        .with_state(state)
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::body::Body;
    use axum::http::Request;
    use tower::ServiceExt;

    #[allow(clippy::unused_async)]
    async fn boom() -> &'static str {
        panic!("a bug")
    }

    #[tokio::test]
    async fn a_panicking_handler_answers_500_and_the_router_keeps_serving() {
        let dir = tempfile::tempdir().unwrap();
        let ctx = crate::core::Context::new(
            crate::config::Settings::resolve(Some(dir.path().to_owned())).unwrap(),
        )
        .unwrap();
        let state = AppState {
            limiter: std::sync::Arc::new(crate::server::rate_limit::RateLimiter::new(
                crate::config::RateLimit::default(),
            )),
            max_body_bytes: 1024,
            jobs: crate::core::jobs::JobQueue::new(ctx.clone(), 1),
            ctx,
        };
        let routes = Router::new()
            .route("/boom", get(boom))
            .route("/fine", get(|| async { "ok" }));
        let app = with_layers(routes, state);
        let id = "0e7d7c1e-8f2a-4d59-9a55-5b0a2a6f9d11";
        let response = app
            .clone()
            .oneshot(
                Request::get("/boom")
                    .header("x-request-id", id)
                    .body(Body::empty())
                    .unwrap(),
            )
            .await
            .unwrap();
        assert_eq!(response.status(), StatusCode::INTERNAL_SERVER_ERROR);
        assert_eq!(
            response.headers()["content-type"],
            "application/problem+json"
        );
        assert_eq!(response.headers()["x-request-id"], id);
        let body = axum::body::to_bytes(response.into_body(), usize::MAX)
            .await
            .unwrap();
        let problem: serde_json::Value = serde_json::from_slice(&body).unwrap();
        assert_eq!(problem["code"], "internal");
        assert_eq!(problem["requestId"], id);
        let fine = app
            .oneshot(Request::get("/fine").body(Body::empty()).unwrap())
            .await
            .unwrap();
        assert_eq!(fine.status(), StatusCode::OK);
    }
}
