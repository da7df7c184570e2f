//! The route table: one file per resource.

mod decide;
mod examples;
mod meta;
mod models;

use super::error::{status_problem, ApiError};
use super::{auth, request, AppState};
use crate::error::Error;
use axum::http::StatusCode;
use axum::response::IntoResponse;
use axum::routing::{get, patch, post};
use axum::Router;
use tower_http::catch_panic::CatchPanicLayer;

pub(crate) fn router(state: AppState) -> Router {
    let v1 = Router::new()
        .route("/v1/decision", post(decide::create_decision))
        .route("/v1/systemone", post(decide::create_decision))
        .route("/v1/models", get(models::list_models))
        .route("/v1/models/{model_id}", get(models::get_model))
        .route("/v1/models/{model_id}/checkpoints", get(models::list_checkpoints))
        .route("/v1/models/{model_id}/examples", get(examples::list_examples).post(examples::ingest_examples))
        .route("/v1/models/{model_id}/examples/{example_id}", get(examples::get_example))
        .route("/v1/models/{model_id}/examples/{example_id}/annotations", patch(examples::annotate_example))
        .route_layer(axum::middleware::from_fn_with_state(state.clone(), auth::require_token));
    let base_url = state.ctx.settings().config.server.base_url.clone();
    Router::new()
        .route("/openapi.json", get(meta::openapi))
        .route("/healthz", get(meta::healthz))
        .route("/problems/{code}", get(meta::problem_page))
        .merge(v1)
        .fallback(|| async { ApiError(Error::NotFound("no such route".into())) })
        .method_not_allowed_fallback(|| async {
            status_problem(StatusCode::METHOD_NOT_ALLOWED, "method_not_allowed", "this route does not take that method")
        })
        .layer(CatchPanicLayer::custom(|_panic: Box<dyn std::any::Any + Send>| {
            ApiError(Error::Internal("the server hit a bug while answering; it keeps serving".into())).into_response()
        }))
        .layer(axum::middleware::from_fn(move |request, next| request::identify(base_url.clone(), request, next)))
        .with_state(state)
}
