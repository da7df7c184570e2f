//! The route table: one file per resource.

mod agreement;
mod alignments;
mod batch_decisions;
mod claims;
mod decide;
mod evaluations;
mod examples;
mod jobs;
mod meta;
mod model_paths;
mod models;
mod params;

use super::error::{ApiError, status_problem};
use super::{AppState, auth, request};
use crate::error::Error;
use axum::Router;
use axum::response::IntoResponse;
use tower_http::catch_panic::CatchPanicLayer;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

/// The `/v1` routes, behind a bearer token. Each handler's `#[utoipa::path]` names its
/// method and path, and describes it: this table is the router and the document.
fn v1() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(decide::create_decision))
        .routes(routes!(decide::create_decision_systemone))
        .routes(routes!(models::list_models))
        .routes(routes!(models::get_model))
        .routes(routes!(models::list_checkpoints))
        .routes(routes!(models::list_history))
        .routes(routes!(models::diff_model))
        .routes(routes!(examples::list_examples, examples::ingest_examples))
        .routes(routes!(
            examples::list_examples_to_annotate,
            examples::pick_examples_to_annotate
        ))
        .routes(routes!(examples::get_example, examples::delete_example))
        .routes(routes!(examples::annotate_example))
        .routes(routes!(examples::annotate_examples))
        .routes(routes!(alignments::plan_alignment))
        .routes(routes!(claims::claim_example_to_annotate))
        .routes(routes!(claims::release_example_claim))
        .routes(routes!(claims::delete_annotation))
        .routes(routes!(agreement::get_annotation_agreement))
        .routes(routes!(
            batch_decisions::list_batches,
            batch_decisions::create_batch
        ))
        .routes(routes!(batch_decisions::get_batch))
        .routes(routes!(batch_decisions::get_results))
        .routes(routes!(batch_decisions::cancel_batch))
        .routes(routes!(
            alignments::list_alignments,
            alignments::create_alignment
        ))
        .routes(routes!(alignments::get_alignment))
        .routes(routes!(alignments::cancel_alignment))
        .routes(routes!(alignments::promote))
        .routes(routes!(models::delete_branch))
        .routes(routes!(
            evaluations::list_evaluations,
            evaluations::create_evaluation
        ))
        .routes(routes!(evaluations::get_evaluation))
        .routes(routes!(evaluations::cancel_evaluation))
        .routes(routes!(jobs::list_jobs))
        .routes(routes!(jobs::get_job))
        .routes(routes!(jobs::cancel_job))
        .routes(routes!(jobs::get_job_results))
}

/// The routes anyone may call.
fn public() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(meta::openapi))
        .routes(routes!(meta::healthz))
        .routes(routes!(meta::problem_page))
}

/// The operations of the route table, as `openapi.rs` completes them into the document.
pub(crate) fn described() -> utoipa::openapi::OpenApi {
    v1().merge(public()).into_openapi()
}

pub(crate) fn router(state: AppState) -> Router {
    let (v1, _) = v1().split_for_parts();
    let v1 = v1.route_layer(axum::middleware::from_fn_with_state(
        state.clone(),
        auth::require_token,
    ));
    let (public, _) = public().split_for_parts();
    let mut routes = public.merge(v1);
    if state.ui.is_some() {
        routes = routes.merge(super::ui::router());
    }
    with_layers(routes, state)
}

/// Fallbacks, the panic catcher and request identity around `routes`. A path no route
/// takes is retried once with its model path encoded (`model_paths`).
fn with_layers(routes: Router<AppState>, state: AppState) -> Router {
    let problems_url = state.problems_url.clone();
    let encoded = with_fallbacks(routes.clone(), |uri: axum::http::Uri| async move {
        model_paths::no_such_route(&uri)
    })
    .layer(axum::middleware::from_fn(request::tag_route))
    .with_state(state.clone());
    with_fallbacks(routes, move |request| {
        model_paths::retry_encoded(encoded.clone(), request)
    })
    .layer(CatchPanicLayer::custom(
        |_panic: Box<dyn std::any::Any + Send>| {
            ApiError(Error::bug(
                "the server hit a bug while answering; it keeps serving",
            ))
            .into_response()
        },
    ))
    .layer(axum::middleware::from_fn(move |request, next| {
        request::identify(problems_url.clone(), request, next)
    }))
    .with_state(state)
}

/// `routes` with `fallback` for a path no route takes and a problem for a wrong method.
fn with_fallbacks<H, T>(routes: Router<AppState>, fallback: H) -> Router<AppState>
where
    H: axum::handler::Handler<T, AppState>,
    T: 'static,
{
    routes
        .fallback(fallback)
        .method_not_allowed_fallback(|| async {
            status_problem(
                crate::wire::ProblemCode::MethodNotAllowed,
                "this route does not take that method",
            )
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::body::Body;
    use axum::http::Request;
    use axum::http::StatusCode;
    use axum::routing::get;
    use tower::ServiceExt;

    #[allow(clippy::unused_async)]
    async fn boom() -> &'static str {
        panic!("a bug")
    }

    #[tokio::test]
    async fn a_panicking_handler_answers_500_and_the_router_keeps_serving() {
        let (_dir, ctx) = crate::core::test_support::home();
        let state = crate::server::state(ctx, "127.0.0.1:8080".parse().unwrap());
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
