//! The HTTP API's families: requests by route template, method and status class with
//! their latency, failed authentications and requests refused 429.

use super::{Histograms, seconds_histogram, with};
use axum::http::{Method, StatusCode};
use prometheus_client::encoding::EncodeLabelSet;
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use prometheus_client::registry::{Registry, Unit};
use std::time::Duration;

/// The route label of a request no route took: one value, whatever its path.
pub const UNMATCHED_ROUTE: &str = "unmatched";

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct HttpLabels {
    route: String,
    method: &'static str,
    status: &'static str,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct RouteLabels {
    route: String,
    method: &'static str,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct LimitLabels {
    limit: &'static str,
}

/// Which limit refused a request with 429.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Limit {
    /// A token's own rate limit.
    Token,
    /// Too many failed authentications from one address.
    AuthFailures,
}

pub(super) struct Http {
    requests: Family<HttpLabels, Counter>,
    duration: Histograms<RouteLabels>,
    auth_failures: Counter,
    rate_limited: Family<LimitLabels, Counter>,
}

impl Http {
    pub(super) fn new(registry: &mut Registry) -> Self {
        let http = Self {
            requests: Family::default(),
            duration: Family::new_with_constructor(seconds_histogram),
            auth_failures: Counter::default(),
            rate_limited: Family::default(),
        };
        registry.register(
            "http_requests",
            "HTTP requests answered, by route template, method and status class",
            http.requests.clone(),
        );
        registry.register_with_unit(
            "http_request_duration",
            "Time from a request's head to its answer, by route template and method",
            Unit::Seconds,
            http.duration.clone(),
        );
        registry.register(
            "auth_failures",
            "Requests refused 401: no bearer token, a malformed one, an unknown or revoked one",
            http.auth_failures.clone(),
        );
        for limit in ["token", "auth_failures"] {
            drop(http.rate_limited.get_or_create(&LimitLabels { limit }));
        }
        registry.register(
            "rate_limited",
            "Requests refused 429, by the limit that refused them",
            http.rate_limited.clone(),
        );
        http
    }
}

/// One answered HTTP request.
pub fn http_request(route: &str, method: &Method, status: StatusCode, took: Duration) {
    with(|metrics| {
        let method = method_label(method);
        metrics
            .http
            .requests
            .get_or_create(&HttpLabels {
                route: route.to_owned(),
                method,
                status: status_class(status),
            })
            .inc();
        metrics
            .http
            .duration
            .get_or_create(&RouteLabels {
                route: route.to_owned(),
                method,
            })
            .observe(took.as_secs_f64());
    });
}

/// A request refused 401.
pub fn auth_failure() {
    with(|metrics| {
        metrics.http.auth_failures.inc();
    });
}

/// A request refused 429 by `limit`.
pub fn rate_limited(limit: Limit) {
    with(|metrics| {
        let limit = match limit {
            Limit::Token => "token",
            Limit::AuthFailures => "auth_failures",
        };
        metrics
            .http
            .rate_limited
            .get_or_create(&LimitLabels { limit })
            .inc();
    });
}

/// The method label: the standard methods by name, any other as `other`, so a client
/// cannot add label values.
fn method_label(method: &Method) -> &'static str {
    match *method {
        Method::GET => "GET",
        Method::POST => "POST",
        Method::PUT => "PUT",
        Method::PATCH => "PATCH",
        Method::DELETE => "DELETE",
        Method::HEAD => "HEAD",
        Method::OPTIONS => "OPTIONS",
        _ => "other",
    }
}

fn status_class(status: StatusCode) -> &'static str {
    match status.as_u16() {
        100..=199 => "1xx",
        200..=299 => "2xx",
        300..=399 => "3xx",
        400..=499 => "4xx",
        _ => "5xx",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_are_bounded() {
        assert_eq!(method_label(&Method::GET), "GET");
        assert_eq!(method_label(&Method::from_bytes(b"BREW").unwrap()), "other");
        assert_eq!(status_class(StatusCode::NOT_FOUND), "4xx");
        assert_eq!(status_class(StatusCode::SERVICE_UNAVAILABLE), "5xx");
        assert_eq!(status_class(StatusCode::OK), "2xx");
    }
}
