//! Jobs: how many of each kind are in each state (read from the store at each scrape),
//! the items they process, and the jobs taken over from a process that died.

use super::with;
use prometheus_client::encoding::EncodeLabelSet;
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::gauge::Gauge;
use prometheus_client::registry::Registry;

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct StateLabels {
    kind: &'static str,
    status: &'static str,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct ItemLabels {
    kind: &'static str,
    result: &'static str,
}

/// How one item of a job ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ItemResult {
    /// Its result line is an answer.
    Succeeded,
    /// Its result line is an error (a bad item, a refused decision).
    Failed,
}

pub(super) struct Jobs {
    by_state: Family<StateLabels, Gauge>,
    items: Family<ItemLabels, Counter>,
    takeovers: Counter,
}

impl Jobs {
    pub(super) fn new(registry: &mut Registry) -> Self {
        let jobs = Self {
            by_state: Family::default(),
            items: Family::default(),
            takeovers: Counter::default(),
        };
        registry.register(
            "jobs",
            "Jobs in the store by kind and status, as read at the scrape (the whole store: \
             every replica on a shared one reports the same)",
            jobs.by_state.clone(),
        );
        for kind in ["batch", "evaluation", "alignment"] {
            for result in ["succeeded", "failed"] {
                drop(jobs.items.get_or_create(&ItemLabels { kind, result }));
            }
        }
        registry.register(
            "job_items",
            "Items of jobs finished by this process, by kind and result: a batch's or an \
             evaluation's inputs, an alignment's questions",
            jobs.items.clone(),
        );
        registry.register(
            "job_takeovers",
            "Unfinished jobs this process claimed from a process whose lease had died",
            jobs.takeovers.clone(),
        );
        jobs
    }
}

/// The jobs in the store now, as `(kind, status, count)`: set at each scrape. Every kind
/// and status should be given (0 for none), so a state that empties reads 0.
pub fn set_jobs(counts: &[(&'static str, &'static str, u64)]) {
    with(|metrics| {
        for &(kind, status, count) in counts {
            metrics
                .jobs
                .by_state
                .get_or_create(&StateLabels { kind, status })
                .set(i64::try_from(count).unwrap_or(i64::MAX));
        }
    });
}

/// One item of a job of `kind` finished.
pub fn job_item(kind: &'static str, result: ItemResult) {
    with(|metrics| {
        let result = match result {
            ItemResult::Succeeded => "succeeded",
            ItemResult::Failed => "failed",
        };
        metrics
            .jobs
            .items
            .get_or_create(&ItemLabels { kind, result })
            .inc();
    });
}

/// `count` jobs claimed from dead processes' leases.
pub fn job_takeovers(count: u64) {
    with(|metrics| {
        metrics.jobs.takeovers.inc_by(count);
    });
}
