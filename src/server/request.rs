//! Request identity and the access log: the caller's `x-request-id` (a valid UUID) or a new
//! one, the base URL for problem `type` URIs, and one log line per request.

use axum::extract::{MatchedPath, Request};
use axum::http::{HeaderValue, StatusCode};
use axum::middleware::Next;
use axum::response::Response;
use std::time::Instant;

pub const REQUEST_ID_HEADER: &str = "x-request-id";

/// The route template that answered a request (`/v1/models/{modelId}`), never its path:
/// the `route` label of the HTTP metrics.
#[derive(Debug, Clone)]
pub(crate) struct RouteTemplate(std::sync::Arc<str>);

impl RouteTemplate {
    /// The template of the route `request` matched, once a router matched it.
    fn of(request: &Request) -> Option<Self> {
        let route = request.extensions().get::<MatchedPath>()?;
        Some(Self(route.as_str().into()))
    }
}

/// Puts the template of the route that answers on the answer, for [`identify`] to read
/// when the route was matched by a router inside a fallback (`model_paths`).
pub(crate) async fn tag_route(request: Request, next: Next) -> Response {
    let matched = RouteTemplate::of(&request);
    let mut response = next.run(request).await;
    if let Some(route) = matched {
        response.extensions_mut().insert(route);
    }
    response
}

/// What a response being built needs to know about its request.
#[derive(Debug, Clone)]
pub(crate) struct RequestInfo {
    pub(crate) id: String,
    pub(crate) problems_url: std::sync::Arc<str>,
}

tokio::task_local! {
    /// Set for the whole handling of a request, panics included, so every problem document
    /// carries the request's ID without threading it through each handler.
    pub(crate) static REQUEST: RequestInfo;
}

/// The current request, or a placeholder outside one (unit tests).
pub(crate) fn current() -> RequestInfo {
    REQUEST
        .try_with(Clone::clone)
        .unwrap_or_else(|_| RequestInfo {
            id: uuid::Uuid::new_v4().to_string(),
            problems_url: "/problems".into(),
        })
}

/// Logs a request whose answer is never produced: the client went away, hyper dropped the
/// handler's future (and with it the work it was waiting for), and the access log records
/// it as 499, as nginx does, with its duration.
struct Abandoned {
    method: axum::http::Method,
    path: String,
    id: String,
    started: Instant,
    answered: bool,
}

impl Drop for Abandoned {
    fn drop(&mut self) {
        if !self.answered {
            let ms = self.started.elapsed().as_secs_f64() * 1e3;
            let (method, path, id) = (&self.method, &self.path, &self.id);
            tracing::warn!(%method, %path, status = 499, ms = format!("{ms:.1}"), request_id = %id, "request abandoned by the client");
        }
    }
}

pub(crate) async fn identify(
    problems_url: std::sync::Arc<str>,
    mut request: Request,
    next: Next,
) -> Response {
    let started = Instant::now();
    let id = request
        .headers()
        .get(REQUEST_ID_HEADER)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| uuid::Uuid::parse_str(v.trim()).ok())
        .unwrap_or_else(uuid::Uuid::new_v4)
        .to_string();
    let info = RequestInfo {
        id: id.clone(),
        problems_url,
    };
    let (method, path) = (request.method().clone(), request.uri().path().to_owned());
    let matched = RouteTemplate::of(&request);
    request.extensions_mut().insert(info.clone());
    let mut abandoned = Abandoned {
        method: method.clone(),
        path: path.clone(),
        id: id.clone(),
        started,
        answered: false,
    };
    // Every line logged while the request is handled carries its ID (and, when traces are
    // exported, its trace ID). ERROR is the span's level only so that it is on whenever
    // any line is: a filter of `warn` keeps the IDs. Exported, it is the trace's server
    // span, the child of the caller's `traceparent` if it sent one; its HTTP fields are
    // recorded only then, so the log lines stay as they were without traces.
    let span = tracing::span!(
        tracing::Level::ERROR,
        "request",
        request_id = %id,
        trace_id = tracing::field::Empty,
        otel.name = tracing::field::Empty,
        otel.kind = tracing::field::Empty,
        http.request.method = tracing::field::Empty,
        http.route = tracing::field::Empty,
        http.response.status_code = tracing::field::Empty,
        otel.status_code = tracing::field::Empty,
    );
    let traced = crate::telemetry::traces::enabled();
    if traced {
        start_trace(&span, matched.as_ref(), &method, request.headers());
    }
    let mut response =
        tracing::Instrument::instrument(REQUEST.scope(info, next.run(request)), span.clone()).await;
    abandoned.answered = true;
    if let Ok(value) = HeaderValue::from_str(&id) {
        response.headers_mut().insert(REQUEST_ID_HEADER, value);
    }
    let status = response.status();
    let took = started.elapsed();
    // A path taken only once its model path was encoded has its route on the answer.
    let route = matched.or_else(|| response.extensions().get::<RouteTemplate>().cloned());
    let route = route
        .as_ref()
        .map_or(crate::telemetry::metrics::UNMATCHED_ROUTE, |r| &r.0);
    crate::telemetry::metrics::http_request(route, &method, status, took);
    if traced {
        span.record("http.route", route);
        span.record("http.response.status_code", status.as_u16());
        if status.is_server_error() {
            span.record("otel.status_code", "error");
        }
    }
    let ms = took.as_secs_f64() * 1e3;
    if status == StatusCode::INTERNAL_SERVER_ERROR {
        tracing::error!(%method, %path, status = status.as_u16(), ms = format!("{ms:.1}"), request_id = %id, "request");
    } else {
        tracing::info!(%method, %path, status = status.as_u16(), ms = format!("{ms:.1}"), request_id = %id, "request");
    }
    response
}

/// Make the `request` span a trace's server span: named and kinded before it starts (the
/// exporter takes both then), `POST /v1/decision`, or the method alone for a route known
/// only once it answers; the child of the caller's `traceparent`, if it sent one.
fn start_trace(
    span: &tracing::Span,
    matched: Option<&RouteTemplate>,
    method: &axum::http::Method,
    headers: &axum::http::HeaderMap,
) {
    match matched {
        Some(route) => span.record("otel.name", format!("{method} {}", route.0)),
        None => span.record("otel.name", method.as_str()),
    };
    span.record("otel.kind", "server");
    span.record("http.request.method", method.as_str());
    crate::telemetry::traces::continue_from(span, |name| {
        headers.get(name).and_then(|v| v.to_str().ok())
    });
}
