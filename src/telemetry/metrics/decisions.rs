//! Decisions: how each ended, by base model and by who asked (a request or a job's item),
//! their engine time and state tokens, the admission's slots and queue, and captures.

use super::{Histograms, seconds_histogram, with};
use prometheus_client::encoding::EncodeLabelSet;
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::gauge::Gauge;
use prometheus_client::registry::{Registry, Unit};
use std::time::Duration;

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct DecisionLabels {
    base_model: String,
    source: &'static str,
    outcome: &'static str,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct BaseModelLabels {
    base_model: String,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct CaptureLabels {
    result: &'static str,
}

/// How a decision ended, as the `outcome` label says it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Answered.
    Answered,
    /// Refused for what was asked (a 4xx).
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

/// Who asked for a decision, as the `source` label says it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    /// `POST /v1/decision` (or its alias).
    Request,
    /// An item of a batch job.
    Job,
}

/// How a decision's capture went, as the `result` label of `arbiter_captures_total` says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Capture {
    /// Recorded as an example and a decision.
    Recorded,
    /// Not wanted: the model's policy is off, the request said `capture: false`, or the
    /// sample rate left the state out.
    Skipped,
    /// Wanted, and refused by the store: the request was answered unrecorded (or refused,
    /// when the storage is full), the job's item stopped its job.
    Failed,
}

pub(super) struct Decisions {
    counts: Family<DecisionLabels, Counter>,
    engine_seconds: Histograms<BaseModelLabels>,
    state_tokens: Family<BaseModelLabels, Counter>,
    in_flight: Gauge,
    queued: Gauge,
    overloaded: Counter,
    captures: Family<CaptureLabels, Counter>,
}

impl Decisions {
    pub(super) fn new(registry: &mut Registry) -> Self {
        let decisions = Self {
            counts: Family::default(),
            engine_seconds: Family::new_with_constructor(seconds_histogram),
            state_tokens: Family::default(),
            in_flight: Gauge::default(),
            queued: Gauge::default(),
            overloaded: Counter::default(),
            captures: Family::default(),
        };
        registry.register(
            "decisions",
            "Decisions, by base model, source (a request or a job's item) and outcome",
            decisions.counts.clone(),
        );
        registry.register_with_unit(
            "decision_engine",
            "Time an answered decision spent computing (once it had a slot), by base model",
            Unit::Seconds,
            decisions.engine_seconds.clone(),
        );
        registry.register(
            "decision_state_tokens",
            "State tokens read by answered decisions, by base model",
            decisions.state_tokens.clone(),
        );
        registry.register(
            "decisions_in_flight",
            "Decisions computing now (holding a slot)",
            decisions.in_flight.clone(),
        );
        registry.register(
            "decisions_queued",
            "Decisions waiting for a slot now",
            decisions.queued.clone(),
        );
        registry.register(
            "decisions_overloaded",
            "Decisions refused with 503 overloaded: every slot and the queue were taken",
            decisions.overloaded.clone(),
        );
        // Every result is a series from the start: a rate over one that never moved is 0,
        // not absent.
        for result in ["recorded", "skipped", "failed"] {
            drop(decisions.captures.get_or_create(&CaptureLabels { result }));
        }
        registry.register(
            "captures",
            "Decisions on repository models by how their capture went: recorded, skipped \
             (policy, request or sample rate), failed (the store refused it)",
            decisions.captures.clone(),
        );
        decisions
    }
}

/// One decision's end: `base_model` must be a base model's name (a bounded set), never a
/// repository model's path; `computed` is its engine time and state tokens, when answered.
pub fn decision(
    base_model: &str,
    source: Source,
    outcome: Outcome,
    computed: Option<(Duration, u64)>,
) {
    with(|metrics| {
        let metrics = &metrics.decisions;
        let source = match source {
            Source::Request => "request",
            Source::Job => "job",
        };
        metrics
            .counts
            .get_or_create(&DecisionLabels {
                base_model: base_model.to_owned(),
                source,
                outcome: outcome.label(),
            })
            .inc();
        if let Some((took, tokens)) = computed {
            let labels = BaseModelLabels {
                base_model: base_model.to_owned(),
            };
            metrics
                .engine_seconds
                .get_or_create(&labels)
                .observe(took.as_secs_f64());
            metrics.state_tokens.get_or_create(&labels).inc_by(tokens);
        }
    });
}

/// A decision refused 503 `overloaded`.
pub fn overloaded() {
    with(|metrics| {
        metrics.decisions.overloaded.inc();
    });
}

/// How one decision's capture went.
pub fn capture(capture: Capture) {
    with(|metrics| {
        let result = match capture {
            Capture::Recorded => "recorded",
            Capture::Skipped => "skipped",
            Capture::Failed => "failed",
        };
        metrics
            .decisions
            .captures
            .get_or_create(&CaptureLabels { result })
            .inc();
    });
}

/// The decisions computing and waiting now: set at each scrape.
pub fn set_occupancy((in_flight, queued): (usize, usize)) {
    with(|metrics| {
        let gauge = |n: usize| i64::try_from(n).unwrap_or(i64::MAX);
        metrics.decisions.in_flight.set(gauge(in_flight));
        metrics.decisions.queued.set(gauge(queued));
    });
}
