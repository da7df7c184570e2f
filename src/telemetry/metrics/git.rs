//! The shared repositories' remote (`repos.remote`): fetches and pushes, their latency,
//! and the pushes whose compare-and-swap the remote refused.

use super::{Histograms, seconds_histogram, with};
use prometheus_client::encoding::EncodeLabelSet;
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use prometheus_client::registry::{Registry, Unit};
use std::time::Duration;

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct OperationLabels {
    operation: &'static str,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct ResultLabels {
    operation: &'static str,
    result: &'static str,
}

/// What was done with the remote.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GitOperation {
    /// Refs and objects fetched into a mirror (a clone's first fetch included).
    Fetch,
    /// A ref moved on the remote (with a compare-and-swap on its old value).
    Push,
}

/// How a fetch or a push ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GitResult {
    Ok,
    /// The remote could not be reached, or refused for another reason than the CAS.
    Failed,
    /// A push whose compare-and-swap failed: the ref had moved on the remote.
    Rejected,
}

pub(super) struct Git {
    duration: Histograms<OperationLabels>,
    operations: Family<ResultLabels, Counter>,
}

impl Git {
    pub(super) fn new(registry: &mut Registry) -> Self {
        let git = Self {
            duration: Family::new_with_constructor(seconds_histogram),
            operations: Family::default(),
        };
        registry.register_with_unit(
            "git_duration",
            "Time a fetch from or a push to the repositories' remote took, by operation",
            Unit::Seconds,
            git.duration.clone(),
        );
        registry.register(
            "git_operations",
            "Fetches and pushes with the repositories' remote, by operation and result (ok, \
             failed, rejected: a push whose compare-and-swap found the ref moved)",
            git.operations.clone(),
        );
        git
    }
}

/// One fetch or push that ended as `result` after `took`.
pub fn git(operation: GitOperation, result: GitResult, took: Duration) {
    with(|metrics| {
        let operation = match operation {
            GitOperation::Fetch => "fetch",
            GitOperation::Push => "push",
        };
        let result = match result {
            GitResult::Ok => "ok",
            GitResult::Failed => "failed",
            GitResult::Rejected => "rejected",
        };
        metrics
            .git
            .duration
            .get_or_create(&OperationLabels { operation })
            .observe(took.as_secs_f64());
        metrics
            .git
            .operations
            .get_or_create(&ResultLabels { operation, result })
            .inc();
    });
}
