//! The engines: the built-in engine's state cache, and calls to remote engines by engine
//! and result, with their latency and retries.

use super::{Histograms, seconds_histogram, with};
use prometheus_client::encoding::EncodeLabelSet;
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use prometheus_client::registry::{Registry, Unit};
use std::time::Duration;

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct LookupLabels {
    result: &'static str,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct CallLabels {
    engine: String,
    result: &'static str,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct EngineLabels {
    engine: String,
}

/// How a call to a remote engine ended, its retries spent.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EngineResult {
    /// A success status with a JSON body.
    Ok,
    /// The engine answered an error status or an unreadable response (502 `upstream_failed`).
    Failed,
    /// The engine could not be reached or did not answer in time, or has no API key (503
    /// `upstream_unavailable`).
    Unavailable,
}

pub(super) struct Engines {
    /// The state cache's hits and misses, resolved once: a lookup is on every decision's
    /// path, so it costs one atomic add.
    hits: Counter,
    misses: Counter,
    calls: Family<CallLabels, Counter>,
    call_seconds: Histograms<EngineLabels>,
    retries: Family<EngineLabels, Counter>,
}

impl Engines {
    pub(super) fn new(registry: &mut Registry) -> Self {
        let lookups = Family::<LookupLabels, Counter>::default();
        let lookup = |result| lookups.get_or_create(&LookupLabels { result }).clone();
        let engines = Self {
            hits: lookup("hit"),
            misses: lookup("miss"),
            calls: Family::default(),
            call_seconds: Family::new_with_constructor(seconds_histogram),
            retries: Family::default(),
        };
        registry.register(
            "state_cache_lookups",
            "Lookups of embedded states in the built-in engine's cache, by result (hit, miss)",
            lookups,
        );
        registry.register(
            "engine_requests",
            "Calls to remote engines, by configured engine and result (ok, failed, \
             unavailable), each counted once whatever its retries",
            engines.calls.clone(),
        );
        registry.register_with_unit(
            "engine_request_duration",
            "Time a call to a remote engine took, its retries and their waits included",
            Unit::Seconds,
            engines.call_seconds.clone(),
        );
        registry.register(
            "engine_retries",
            "Attempts at a remote engine made again after a retryable failure, by engine",
            engines.retries.clone(),
        );
        engines
    }
}

/// One lookup in the built-in engine's state cache.
pub fn state_cache(hit: bool) {
    with(|metrics| {
        if hit {
            metrics.engines.hits.inc();
        } else {
            metrics.engines.misses.inc();
        }
    });
}

/// One call to remote engine `engine` (its configured name), ended as `result` after
/// `took`.
pub fn engine_call(engine: &str, result: EngineResult, took: Duration) {
    with(|metrics| {
        let result = match result {
            EngineResult::Ok => "ok",
            EngineResult::Failed => "failed",
            EngineResult::Unavailable => "unavailable",
        };
        metrics
            .engines
            .calls
            .get_or_create(&CallLabels {
                engine: engine.to_owned(),
                result,
            })
            .inc();
        metrics
            .engines
            .call_seconds
            .get_or_create(&EngineLabels {
                engine: engine.to_owned(),
            })
            .observe(took.as_secs_f64());
    });
}

/// One attempt at remote engine `engine` about to be made again.
pub fn engine_retry(engine: &str) {
    with(|metrics| {
        metrics
            .engines
            .retries
            .get_or_create(&EngineLabels {
                engine: engine.to_owned(),
            })
            .inc();
    });
}
