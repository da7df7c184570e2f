//! Every family the server exports to Prometheus, declared once (name, help, unit, label
//! set) in the file of its area, recorded through the functions there, and encoded by
//! [`encode`] for the listener of its own that `server.metrics_listen` opens (never the
//! API's).
//!
//! Off by default: until [`install`] runs nothing is registered, and recording is one load
//! of an unset `OnceLock`. Labels are bounded: route templates (never raw paths), method
//! and status class, base model and configured engine names (never repository model
//! paths), job kinds and states, backends, and fixed outcome words. The families are
//! named `arbiter_…` with Prometheus's conventions (`_total` for counters, base units in
//! the name: `_seconds`, `_bytes`); the process's own are the standard `process_…`.

mod decisions;
mod engines;
mod git;
mod http;
mod jobs;
mod process;
mod store;

pub use decisions::{Capture, Outcome, Source, capture, decision, overloaded, set_occupancy};
pub use engines::{EngineResult, engine_call, engine_retry, state_cache};
pub use git::{GitOperation, GitResult, git};
pub use http::{Limit, UNMATCHED_ROUTE, auth_failure, http_request, rate_limited};
pub use jobs::{ItemResult, job_item, job_takeovers, set_jobs};
pub use store::{Backend, store_backend, store_error, store_transaction};

use prometheus_client::metrics::histogram::{Histogram, exponential_buckets};
use prometheus_client::registry::Registry;
use std::sync::OnceLock;

static METRICS: OnceLock<Metrics> = OnceLock::new();

/// A family of histograms, each made by a plain function.
type Histograms<S> = prometheus_client::metrics::family::Family<S, Histogram, fn() -> Histogram>;

/// Latency buckets, 1 ms to ~33 s by doubling: a decision, a transaction or a fetch takes
/// milliseconds to seconds.
fn seconds_histogram() -> Histogram {
    Histogram::new(exponential_buckets(0.001, 2.0, 16))
}

struct Metrics {
    registry: Registry,
    http: http::Http,
    decisions: decisions::Decisions,
    engines: engines::Engines,
    jobs: jobs::Jobs,
    store: store::Store,
    git: git::Git,
}

impl Metrics {
    fn new() -> Self {
        let mut registry = Registry::default();
        registry.register_collector(Box::new(process::Process));
        let arbiter = registry.sub_registry_with_prefix("arbiter");
        Self {
            http: http::Http::new(arbiter),
            decisions: decisions::Decisions::new(arbiter),
            engines: engines::Engines::new(arbiter),
            jobs: jobs::Jobs::new(arbiter),
            store: store::Store::new(arbiter),
            git: git::Git::new(arbiter),
            registry,
        }
    }
}

/// Start recording (once per process; later calls change nothing). Only a server with a
/// metrics listener calls it.
pub fn install() {
    METRICS.get_or_init(Metrics::new);
}

/// Calls `record` with the families, when recording is on.
fn with(record: impl FnOnce(&Metrics)) {
    if let Some(metrics) = METRICS.get() {
        record(metrics);
    }
}

/// Every family in the Prometheus text format (0.0.4, which every scraper and `promtool
/// check metrics` read); `None` when recording was never installed. The gauges read at
/// scrape time ([`set_occupancy`], [`set_jobs`]) are set by the caller first.
pub fn encode() -> Option<String> {
    let metrics = METRICS.get()?;
    let mut text = String::new();
    prometheus_client::encoding::prometheus_text::encode(&mut text, &metrics.registry).ok()?;
    Some(text)
}

/// The `Content-Type` of what [`encode`] writes.
pub const CONTENT_TYPE: &str = prometheus_client::encoding::prometheus_text::CONTENT_TYPE;

/// The value of sample `series` (its name and labels as printed) in `text`; 0 when absent.
/// For tests that count what moved.
#[cfg(test)]
pub(crate) fn sample(text: &str, series: &str) -> f64 {
    text.lines()
        .find_map(|line| line.strip_prefix(series)?.strip_prefix(' '))
        .map_or(0.0, |value| value.trim().parse().expect("a sample value"))
}

/// The value of `series` now, recording installed first.
#[cfg(test)]
pub(crate) fn now(series: &str) -> f64 {
    install();
    sample(&encode().unwrap_or_default(), series)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn a_scrape_names_every_family_with_its_prefix_unit_and_suffix() {
        install();
        http_request(
            "/v1/decision",
            &axum::http::Method::POST,
            axum::http::StatusCode::OK,
            Duration::from_millis(3),
        );
        decision(
            "mo",
            Source::Request,
            Outcome::Answered,
            Some((Duration::from_millis(2), 7)),
        );
        // A family is printed once it has a sample.
        rate_limited(Limit::Token);
        engine_call("remote", EngineResult::Ok, Duration::from_millis(4));
        engine_retry("remote");
        job_item("batch", ItemResult::Succeeded);
        job_takeovers(0);
        capture(Capture::Recorded);
        store_transaction(Backend::Sqlite, Duration::from_millis(1), true);
        store_error(Backend::Sqlite);
        git(GitOperation::Fetch, GitResult::Ok, Duration::from_millis(5));
        set_jobs(&[("batch", "queued", 2)]);
        let text = encode().unwrap();
        for family in [
            "# TYPE arbiter_http_requests_total counter",
            "# TYPE arbiter_http_request_duration_seconds histogram",
            "# TYPE arbiter_decisions_total counter",
            "# TYPE arbiter_decision_engine_seconds histogram",
            "# TYPE arbiter_decision_state_tokens_total counter",
            "# TYPE arbiter_decisions_in_flight gauge",
            "# TYPE arbiter_decisions_queued gauge",
            "# TYPE arbiter_decisions_overloaded_total counter",
            "# TYPE arbiter_captures_total counter",
            "# TYPE arbiter_auth_failures_total counter",
            "# TYPE arbiter_rate_limited_total counter",
            "# TYPE arbiter_state_cache_lookups_total counter",
            "# TYPE arbiter_engine_requests_total counter",
            "# TYPE arbiter_engine_request_duration_seconds histogram",
            "# TYPE arbiter_engine_retries_total counter",
            "# TYPE arbiter_jobs gauge",
            "# TYPE arbiter_job_items_total counter",
            "# TYPE arbiter_job_takeovers_total counter",
            "# TYPE arbiter_store_transaction_duration_seconds histogram",
            "# TYPE arbiter_store_transactions_total counter",
            "# TYPE arbiter_store_errors_total counter",
            "# TYPE arbiter_git_duration_seconds histogram",
            "# TYPE arbiter_git_operations_total counter",
            "# TYPE process_cpu_seconds_total counter",
            "# TYPE process_resident_memory_bytes gauge",
            "# TYPE process_open_fds gauge",
            "# TYPE process_start_time_seconds gauge",
        ] {
            assert!(text.contains(family), "{family} in\n{text}");
        }
        assert!(text.contains(
            "arbiter_http_requests_total{route=\"/v1/decision\",method=\"POST\",status=\"2xx\"}"
        ));
        assert!(text.contains("# HELP arbiter_auth_failures_total Requests refused 401"));
        assert!(sample(&text, "arbiter_jobs{kind=\"batch\",status=\"queued\"}") >= 2.0);
        assert!(sample(&text, "process_resident_memory_bytes") > 0.0);
        assert!(
            !text.contains("# EOF") && !text.contains("# UNIT"),
            "{text}"
        );
    }
}
