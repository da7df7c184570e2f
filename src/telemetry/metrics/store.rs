//! The store: its transactions' latency and the failures of its database, by backend.

use super::{Histograms, seconds_histogram, with};
use prometheus_client::encoding::EncodeLabelSet;
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use prometheus_client::registry::{Registry, Unit};
use std::time::Duration;

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct BackendLabels {
    backend: &'static str,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct TransactionLabels {
    backend: &'static str,
    result: &'static str,
}

/// Which database the store is on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Backend {
    Sqlite,
    Postgres,
}

impl Backend {
    fn label(self) -> &'static str {
        match self {
            Self::Sqlite => "sqlite",
            Self::Postgres => "postgres",
        }
    }
}

pub(super) struct Store {
    duration: Histograms<BackendLabels>,
    transactions: Family<TransactionLabels, Counter>,
    errors: Family<BackendLabels, Counter>,
}

impl Store {
    pub(super) fn new(registry: &mut Registry) -> Self {
        let store = Self {
            duration: Family::new_with_constructor(seconds_histogram),
            transactions: Family::default(),
            errors: Family::default(),
        };
        registry.register_with_unit(
            "store_transaction_duration",
            "Time a store transaction took, from its BEGIN to its COMMIT or ROLLBACK, by backend",
            Unit::Seconds,
            store.duration.clone(),
        );
        registry.register(
            "store_transactions",
            "Store transactions by backend and result (committed, rolled_back)",
            store.transactions.clone(),
        );
        registry.register(
            "store_errors",
            "Failures of the database, by backend: a connection not had, a statement, a \
             BEGIN or a COMMIT that failed",
            store.errors.clone(),
        );
        store
    }
}

/// The store this process uses is on `backend`: its error and transaction counts are
/// series from now on, at 0 (a rate over one that never moved is 0, not absent).
pub fn store_backend(backend: Backend) {
    with(|metrics| {
        let backend = backend.label();
        drop(
            metrics
                .store
                .errors
                .get_or_create(&BackendLabels { backend }),
        );
        for result in ["committed", "rolled_back"] {
            let labels = TransactionLabels { backend, result };
            drop(metrics.store.transactions.get_or_create(&labels));
        }
    });
}

/// One transaction on `backend`, which took `took` and committed or not.
pub fn store_transaction(backend: Backend, took: Duration, committed: bool) {
    with(|metrics| {
        let backend = backend.label();
        metrics
            .store
            .duration
            .get_or_create(&BackendLabels { backend })
            .observe(took.as_secs_f64());
        let result = if committed {
            "committed"
        } else {
            "rolled_back"
        };
        metrics
            .store
            .transactions
            .get_or_create(&TransactionLabels { backend, result })
            .inc();
    });
}

/// One failure of the database on `backend`.
pub fn store_error(backend: Backend) {
    with(|metrics| {
        metrics
            .store
            .errors
            .get_or_create(&BackendLabels {
                backend: backend.label(),
            })
            .inc();
    });
}
