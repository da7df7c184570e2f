//! How far a ranking has decided its candidates, for whoever watches it (`arbiter
//! annotate`'s progress line while the first example is looked for).
//!
//! As [`crate::engine::progress`] does for a decision's windows: the watcher wraps the
//! ranking's future in [`watch`], and [`super::rank`] finds the meter with [`current`].
//! Nothing on the way (the service, the claim) carries it, and a ranking nobody watches (a
//! server's) costs nothing.

use std::future::Future;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

tokio::task_local! {
    static WATCHED: Arc<RankProgress>;
}

/// Candidates to decide and decided so far: atomics, read by the watcher's timer.
#[derive(Debug, Default)]
pub struct RankProgress {
    candidates: AtomicUsize,
    decided: AtomicUsize,
}

/// A moment of [`RankProgress`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct RankSnapshot {
    /// The candidates to decide (0 until they are listed).
    pub candidates: usize,
    /// Those decided so far (from the answers cache or by the engine).
    pub decided: usize,
}

impl RankProgress {
    pub fn snapshot(&self) -> RankSnapshot {
        RankSnapshot {
            candidates: self.candidates.load(Ordering::Relaxed),
            decided: self.decided.load(Ordering::Relaxed),
        }
    }

    /// `candidates` are to be decided (a ranking starts over).
    pub(super) fn planned(&self, candidates: usize) {
        self.decided.store(0, Ordering::Relaxed);
        self.candidates.store(candidates, Ordering::Relaxed);
    }

    /// One more candidate decided (or given up on).
    pub(super) fn decided(&self) {
        self.decided.fetch_add(1, Ordering::Relaxed);
    }
}

/// Run `ranking` with `progress` as the meter it reports into.
pub async fn watch<F: Future>(progress: Arc<RankProgress>, ranking: F) -> F::Output {
    WATCHED.scope(progress, ranking).await
}

/// The meter of the ranking being run, if someone watches it.
pub(super) fn current() -> Option<Arc<RankProgress>> {
    WATCHED.try_with(Arc::clone).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn the_meter_is_found_only_inside_watch_and_counts_from_its_plan() {
        assert!(current().is_none());
        let progress = Arc::new(RankProgress::default());
        watch(progress.clone(), async {
            let meter = current().expect("watched");
            meter.planned(3);
            meter.decided();
            meter.decided();
        })
        .await;
        assert_eq!(
            progress.snapshot(),
            RankSnapshot {
                candidates: 3,
                decided: 2
            }
        );
        progress.planned(5);
        assert_eq!(progress.snapshot().decided, 0);
    }
}
