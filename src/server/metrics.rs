//! `/metrics` in the Prometheus text format: every family the server exports
//! is declared here once (name, help, unit, label set), recorded through the functions
//! below, and served on a listener of its own (`server.metrics_listen`), never the API's.
//!
//! Off by default: until [`install`] runs nothing is registered, and recording is one load
//! of an unset `OnceLock`. Labels are bounded: route templates (never raw paths), method
//! and status class, base model names (built-in or configured engines, never repository
//! model paths), and fixed outcome words.

use axum::http::{Method, StatusCode};
use prometheus_client::encoding::EncodeLabelSet;
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::gauge::Gauge;
use prometheus_client::metrics::histogram::{Histogram, exponential_buckets};
use prometheus_client::registry::{Registry, Unit};
use std::sync::OnceLock;
use std::time::Duration;

static METRICS: OnceLock<Metrics> = OnceLock::new();

/// The route label of a request no route took: one value, whatever its path.
pub(crate) const UNMATCHED_ROUTE: &str = "unmatched";

type Histograms<S> = Family<S, Histogram, fn() -> Histogram>;

/// Latency buckets, 1 ms to ~33 s by doubling: a decision takes milliseconds to seconds.
fn seconds_histogram() -> Histogram {
    Histogram::new(exponential_buckets(0.001, 2.0, 16))
}

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
struct DecisionLabels {
    base_model: String,
    outcome: &'static str,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct BaseModelLabels {
    base_model: String,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct LimitLabels {
    limit: &'static str,
}

/// How a decision ended, as the `outcome` label says it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Outcome {
    /// Answered.
    Answered,
    /// Refused for what the request asked (a 4xx).
    Refused,
    /// Refused for want of a slot: 503 `overloaded`.
    Overloaded,
    /// Failed on the server's side or an engine's (a 5xx other than `overloaded`).
    Failed,
}

impl Outcome {
    fn label(self) -> &'static str {
        match self {
            Self::Answered => "answered",
            Self::Refused => "refused",
            Self::Overloaded => "overloaded",
            Self::Failed => "failed",
        }
    }
}

/// Which limit refused a request with 429.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Limit {
    /// A token's own rate limit.
    Token,
    /// Too many failed authentications from one address.
    AuthFailures,
}

struct Metrics {
    registry: Registry,
    http_requests: Family<HttpLabels, Counter>,
    http_duration: Histograms<RouteLabels>,
    decisions: Family<DecisionLabels, Counter>,
    engine_seconds: Histograms<BaseModelLabels>,
    state_tokens: Family<BaseModelLabels, Counter>,
    in_flight: Gauge,
    queued: Gauge,
    overloaded: Counter,
    auth_failures: Counter,
    rate_limited: Family<LimitLabels, Counter>,
}

impl Metrics {
    fn new() -> Self {
        let mut registry = Registry::with_prefix("arbiter");
        let metrics = Self {
            http_requests: Family::default(),
            http_duration: Family::new_with_constructor(seconds_histogram),
            decisions: Family::default(),
            engine_seconds: Family::new_with_constructor(seconds_histogram),
            state_tokens: Family::default(),
            in_flight: Gauge::default(),
            queued: Gauge::default(),
            overloaded: Counter::default(),
            auth_failures: Counter::default(),
            rate_limited: Family::default(),
            registry: Registry::default(),
        };
        registry.register(
            "http_requests",
            "HTTP requests answered, by route template, method and status class",
            metrics.http_requests.clone(),
        );
        registry.register_with_unit(
            "http_request_duration",
            "Time from a request's head to its answer, by route template and method",
            Unit::Seconds,
            metrics.http_duration.clone(),
        );
        registry.register(
            "decisions",
            "Decisions asked over HTTP, by base model and outcome",
            metrics.decisions.clone(),
        );
        registry.register_with_unit(
            "decision_engine",
            "Time a decision spent computing once it had a slot, by base model",
            Unit::Seconds,
            metrics.engine_seconds.clone(),
        );
        registry.register(
            "decision_state_tokens",
            "State tokens read by answered decisions, by base model",
            metrics.state_tokens.clone(),
        );
        registry.register(
            "decisions_in_flight",
            "Decisions computing now (holding a slot)",
            metrics.in_flight.clone(),
        );
        registry.register(
            "decisions_queued",
            "Decisions waiting for a slot now",
            metrics.queued.clone(),
        );
        registry.register(
            "decisions_overloaded",
            "Decisions refused with 503 overloaded: every slot and the queue were taken",
            metrics.overloaded.clone(),
        );
        registry.register(
            "auth_failures",
            "Requests refused 401: no bearer token, a malformed one, an unknown or revoked one",
            metrics.auth_failures.clone(),
        );
        registry.register(
            "rate_limited",
            "Requests refused 429, by the limit that refused them",
            metrics.rate_limited.clone(),
        );
        Self {
            registry,
            ..metrics
        }
    }
}

/// Start recording (once per process; later calls change nothing). Only a server with a
/// metrics listener calls it.
pub(crate) fn install() {
    METRICS.get_or_init(Metrics::new);
}

/// One answered HTTP request.
pub(crate) fn http_request(route: &str, method: &Method, status: StatusCode, took: Duration) {
    let Some(metrics) = METRICS.get() else {
        return;
    };
    let method = method_label(method);
    metrics
        .http_requests
        .get_or_create(&HttpLabels {
            route: route.to_owned(),
            method,
            status: status_class(status),
        })
        .inc();
    metrics
        .http_duration
        .get_or_create(&RouteLabels {
            route: route.to_owned(),
            method,
        })
        .observe(took.as_secs_f64());
}

/// One decision's end: `base_model` must be a base model's name (a bounded set), never a
/// repository model's path; `computed` is its engine time and state tokens, when answered.
pub(crate) fn decision(base_model: &str, outcome: Outcome, computed: Option<(Duration, u64)>) {
    let Some(metrics) = METRICS.get() else {
        return;
    };
    let base_model = base_model.to_owned();
    metrics
        .decisions
        .get_or_create(&DecisionLabels {
            base_model: base_model.clone(),
            outcome: outcome.label(),
        })
        .inc();
    if let Some((took, tokens)) = computed {
        let labels = BaseModelLabels { base_model };
        metrics
            .engine_seconds
            .get_or_create(&labels)
            .observe(took.as_secs_f64());
        metrics.state_tokens.get_or_create(&labels).inc_by(tokens);
    }
}

/// A decision refused 503 `overloaded`.
pub(crate) fn overloaded() {
    if let Some(metrics) = METRICS.get() {
        metrics.overloaded.inc();
    }
}

/// A request refused 401.
pub(crate) fn auth_failure() {
    if let Some(metrics) = METRICS.get() {
        metrics.auth_failures.inc();
    }
}

/// A request refused 429 by `limit`.
pub(crate) fn rate_limited(limit: Limit) {
    if let Some(metrics) = METRICS.get() {
        let limit = match limit {
            Limit::Token => "token",
            Limit::AuthFailures => "auth_failures",
        };
        metrics
            .rate_limited
            .get_or_create(&LimitLabels { limit })
            .inc();
    }
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

/// The text a scrape answers, with the decisions in flight and queued now; `None` when
/// recording was never installed.
fn scrape((in_flight, queued): (usize, usize)) -> Option<String> {
    let metrics = METRICS.get()?;
    metrics
        .in_flight
        .set(i64::try_from(in_flight).unwrap_or(i64::MAX));
    metrics
        .queued
        .set(i64::try_from(queued).unwrap_or(i64::MAX));
    let mut text = String::new();
    prometheus_client::encoding::text::encode(&mut text, &metrics.registry).ok()?;
    Some(classic(&text))
}

/// `OpenMetrics` text, as the client encodes it, in the classic Prometheus text format
/// (0.0.4) that every scraper and `promtool check metrics` read: a counter's family is
/// named for its `_total` samples, and the `# UNIT` and `# EOF` lines, which that format
/// lacks, are left out. Samples are the same in both.
fn classic(open_metrics: &str) -> String {
    let counters: std::collections::HashSet<&str> = open_metrics
        .lines()
        .filter_map(|line| line.strip_prefix("# TYPE ")?.strip_suffix(" counter"))
        .collect();
    let mut out = String::with_capacity(open_metrics.len() + 16 * counters.len());
    for line in open_metrics.lines() {
        if line.starts_with("# UNIT ") || line == "# EOF" {
            continue;
        }
        let described = ["# HELP ", "# TYPE "].into_iter().find_map(|kind| {
            let (name, rest) = line.strip_prefix(kind)?.split_once(' ')?;
            counters
                .contains(name)
                .then(|| format!("{kind}{name}_total {rest}"))
        });
        out.push_str(described.as_deref().unwrap_or(line));
        out.push('\n');
    }
    out
}

/// The metrics listener's whole application: `GET /metrics`, and 404 for anything else.
/// `occupancy` reads the decisions in flight and queued at each scrape (the admission's,
/// which records its refusals here: it is passed in rather than imported).
pub(crate) fn router(
    occupancy: impl Fn() -> (usize, usize) + Clone + Send + Sync + 'static,
) -> axum::Router {
    use axum::response::IntoResponse;
    axum::Router::new().route(
        "/metrics",
        axum::routing::get(move || async move {
            match scrape(occupancy()) {
                Some(text) => (
                    [(
                        axum::http::header::CONTENT_TYPE,
                        "text/plain; version=0.0.4; charset=utf-8",
                    )],
                    text,
                )
                    .into_response(),
                None => StatusCode::SERVICE_UNAVAILABLE.into_response(),
            }
        }),
    )
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

    #[test]
    fn a_scrape_names_every_family_with_its_prefix_and_unit() {
        install();
        http_request(
            "/v1/decision",
            &Method::POST,
            StatusCode::OK,
            Duration::from_millis(3),
        );
        decision("mo", Outcome::Answered, Some((Duration::from_millis(2), 7)));
        // A family is printed once it has a sample.
        rate_limited(Limit::Token);
        let text = scrape((0, 0)).unwrap();
        for family in [
            "# TYPE arbiter_http_requests_total counter",
            "# TYPE arbiter_http_request_duration_seconds histogram",
            "# TYPE arbiter_decisions_total counter",
            "# TYPE arbiter_decision_engine_seconds histogram",
            "# TYPE arbiter_decision_state_tokens_total counter",
            "# TYPE arbiter_decisions_in_flight gauge",
            "# TYPE arbiter_decisions_queued gauge",
            "# TYPE arbiter_decisions_overloaded_total counter",
            "# TYPE arbiter_auth_failures_total counter",
            "# TYPE arbiter_rate_limited_total counter",
        ] {
            assert!(text.contains(family), "{family} in\n{text}");
        }
        assert!(text.contains(
            "arbiter_http_requests_total{route=\"/v1/decision\",method=\"POST\",status=\"2xx\"}"
        ));
        assert!(text.contains("# HELP arbiter_auth_failures_total Requests refused 401"));
        assert!(
            !text.contains("# EOF") && !text.contains("# UNIT"),
            "{text}"
        );
    }
}
