//! `POST /v1/decision` and its alias `POST /v1/systemone`.

use super::params::IdempotencyKey;
use crate::core::tokens::Principal;
use crate::core::{self};
use crate::server::error::ApiResult;
use crate::server::extract::JsonBody;
use crate::server::openapi::problems;
use crate::server::request::RequestInfo;
use crate::server::{AppState, idempotency};
use crate::telemetry::metrics::{self, Source};
use crate::wire::{DecisionRequest, DecisionResponse};
use axum::extract::State;
use axum::http::HeaderMap;
use axum::response::{IntoResponse, Response};
use axum::{Extension, Json};

problems::problem_responses! {
    DecisionNotFound = [ModelNotFound, RevisionNotFound]
        "no such base model or repository model visible to this token, or the revision cannot \
        be read.";
    DecisionInvalid = [ValidationError, InvalidCheckpoint, StateTooLarge]
        "the body or the `Idempotency-Key` failed validation (`details` locates each \
        problem), the repository model's files at that revision do not form a valid model, or \
        the state has more tokens than the base model reads (32,768 for `mo-reasoning`, \
        `jev-latest` and `jev-1.13.0`) and `truncate` is not `true`.";
    DecisionUnavailable = [UpstreamUnavailable, Overloaded]
        "a remote engine could not be reached, or the server computes as many decisions as it \
        takes (`server.max_concurrent_decisions`) and as many wait as it queues \
        (`server.decision_queue`): retry after `Retry-After`.";
}

/// One description for the route and its alias.
macro_rules! decision_route {
    ($name:ident, $path:expr, $operation_id:literal, $summary:literal) => {
        #[utoipa::path(
            post,
            path = $path,
            tag = "decisions",
            operation_id = $operation_id,
            summary = $summary,
            description = "Evaluates each question against `state` and returns one answer per \
                question, keyed by question ID. With a repository model (`<owner>/<model>`, role \
                `reader`) the saved questions at `revision` (default: the default branch) are \
                loaded, and the decision is recorded as an example and a decision unless \
                `capture` is false or the model's sample rate skips it. With an \
                `Idempotency-Key`, a retry of the same request replays the first response.",
            security(("bearerAuth" = ["decisions"])),
            params(IdempotencyKey),
            request_body(content = DecisionRequest, description = "The decision request."),
            responses(
                (status = 200, description = "The answers.", body = DecisionResponse,
                    headers(("Idempotent-Replayed"))),
                problems::NotJsonBody,
                DecisionNotFound,
                problems::KeyConflict,
                problems::TooLarge,
                problems::NotJson,
                DecisionInvalid,
                problems::UpstreamFailed,
                DecisionUnavailable,
            ),
        )]
        pub(crate) async fn $name(
            state: State<AppState>,
            principal: Extension<Principal>,
            info: Extension<RequestInfo>,
            headers: HeaderMap,
            request: axum::extract::Request,
        ) -> ApiResult<Response> {
            decide(state, principal, info, headers, request).await
        }
    };
}

decision_route!(
    create_decision,
    crate::wire::paths::DECISION,
    "createDecision",
    "Create a decision"
);
decision_route!(
    create_decision_systemone,
    crate::wire::paths::DECISION_SYSTEMONE,
    "createDecisionSystemOne",
    "Create a decision (alias of `POST /v1/decision`)"
);

async fn decide(
    State(state): State<AppState>,
    Extension(principal): Extension<Principal>,
    Extension(info): Extension<RequestInfo>,
    headers: HeaderMap,
    request: axum::extract::Request,
) -> ApiResult<Response> {
    principal.require_scope(crate::core::tokens::Scope::Decisions)?;
    // The scope before the body; the model's role once the body names it.
    let JsonBody(body) = JsonBody::read_naming_its_model(request, &state).await?;
    let key = idempotency::key(&headers, false)?;
    let request = DecisionRequest::read(&body)?;
    state.session(&principal).may_decide(&request)?;
    let (ctx, decisions) = (state.ctx.clone(), state.decisions.clone());
    // `/v1/systemone` is `/v1/decision` by another name: one idempotency record for both,
    // so a retry through the alias replays the first answer.
    idempotency::once(
        &state,
        &principal,
        key,
        ("POST", "/v1/decision"),
        &body,
        || async move {
            // Prepared before it waits for a slot: a request that cannot run (a state past
            // the budget, a missing revision) is refused at once, not after the queue.
            let prepared = match core::decide::prepare(&ctx, &request).await {
                Ok(prepared) => prepared,
                Err(error) => return refused(&base_model_of(&ctx, &request, None), error),
            };
            let base = base_model_of(&ctx, &request, Some(&prepared));
            // Held while the decision computes; refused at once when the queue is full.
            let waited = tracing::trace_span!("admission_wait");
            let _slot = match tracing::Instrument::instrument(decisions.admit(), waited).await {
                Ok(slot) => slot,
                Err(error) => return refused(&base, error),
            };
            let started = std::time::Instant::now();
            match core::decide::decide_prepared(&ctx, &request, prepared, &info.id).await {
                Ok(response) => {
                    let computed = (started.elapsed(), response.usage.input_tokens);
                    metrics::decision(
                        &base,
                        Source::Request,
                        metrics::Outcome::Answered,
                        Some(computed),
                    );
                    Json(response).into_response()
                }
                Err(error) => refused(&base, error),
            }
        },
    )
    .await
}

/// The base model a decision is counted under: the one named, or the one a repository
/// model's checkpoint is built on; [`UNRESOLVED`] when the model could not be read. Never a
/// repository model's path, so the label's values stay the engines' few names.
fn base_model_of(
    ctx: &crate::core::Context,
    request: &DecisionRequest,
    prepared: Option<&core::decide::Prepared>,
) -> String {
    match prepared {
        Some(core::decide::Prepared::Repository(loaded)) => loaded.spec.base.clone(),
        _ if ctx.is_base_model(&request.model) => request.model.clone(),
        _ => UNRESOLVED.to_owned(),
    }
}

/// The base model label of a decision whose model was not found or could not be read.
const UNRESOLVED: &str = "unresolved";

/// A decision that ended in `error`: counted, and answered with its problem.
fn refused(base_model: &str, error: crate::error::Error) -> Response {
    let outcome = core::decide::counted_as(&error);
    metrics::decision(base_model, Source::Request, outcome, None);
    crate::server::error::ApiError(error).into_response()
}

#[cfg(test)]
mod tests {
    use crate::core::examples::retention::hold::{self, Sweep};
    use crate::core::model_files::CapturePolicy;
    use crate::core::test_support::home_with_model;
    use crate::core::tokens::{NewToken, Scope};
    use serde_json::{Value, json};
    use std::time::Duration;

    /// Long enough for a debug build's first decision on a loaded machine; a deadline, not
    /// a measure: the answer comes well before it, or (waiting for the sweep) never.
    const PATIENCE: Duration = Duration::from_mins(2);

    /// A capture's `capture.retain_days` sweep runs in the background: the server answers
    /// while the sweep it started is held, and the sweep goes on once let go.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_capturing_decision_is_answered_without_waiting_for_the_retention_sweep() {
        let (_home, ctx, model) = home_with_model(CapturePolicy {
            retain_days: Some(2),
            ..CapturePolicy::default()
        });
        let (_, token) = crate::core::tokens::create(
            &ctx,
            &NewToken {
                name: "ci".to_owned(),
                scopes: Scope::names().map(str::to_owned).collect(),
                roles: vec!["*=admin".to_owned()],
            },
        )
        .unwrap();
        let held = hold::hold(&model.model_id);

        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("http://{}/v1/decision", listener.local_addr().unwrap());
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let server = tokio::spawn(crate::server::serve(ctx.clone(), listener, async {
            let _ = stopped.await;
        }));
        let answer = reqwest::Client::new()
            .post(&url)
            .bearer_auth(&token)
            .json(&json!({"model": "acme/support", "state": {"text": "Refund me, please."}}))
            .send();
        let answer = tokio::time::timeout(PATIENCE, answer)
            .await
            .expect("answered while the sweep is held")
            .unwrap();
        assert_eq!(answer.status(), 200);
        let answer: Value = answer.json().await.unwrap();
        assert_eq!(answer["recorded"], true, "{answer}");

        // The capture started the sweep, which is still held: nothing waited for its end.
        let waited = PATIENCE;
        assert!(hold::reached(&model.model_id, Sweep::Held, waited));
        drop(held);
        assert!(hold::reached(&model.model_id, Sweep::Ended, waited));
        ctx.background().wait().await;
        stop.send(()).unwrap();
        server.await.unwrap().unwrap();
    }
}
