//! How far a decision has read its state, for whoever watches it (the CLI's spinner).
//!
//! The watcher wraps the decision's future in [`watch`]; an engine that reads the state in
//! windows finds the meter with [`current`] and reports into it. Nothing else on the way
//! (the service, core decide, the engine request) carries it, and a decision nobody
//! watches (the server's, a batch item) costs nothing.

use std::future::Future;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

tokio::task_local! {
    static WATCHED: Arc<ReadProgress>;
}

/// Windows planned and read. Updated by the engine's blocking task, read by the watcher's
/// timer: atomics, no lock.
#[derive(Debug, Default)]
pub struct ReadProgress {
    windows: AtomicUsize,
    read: AtomicUsize,
}

/// A moment of [`ReadProgress`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ReadSnapshot {
    /// The windows the state is cut into (0 until it is cut, and for an engine that does
    /// not read in windows).
    pub windows: usize,
    /// Those embedded so far.
    pub read: usize,
}

impl ReadProgress {
    pub fn snapshot(&self) -> ReadSnapshot {
        ReadSnapshot {
            windows: self.windows.load(Ordering::Relaxed),
            read: self.read.load(Ordering::Relaxed),
        }
    }

    /// The state was cut into `windows`.
    pub(crate) fn planned(&self, windows: usize) {
        self.windows.store(windows, Ordering::Relaxed);
    }

    /// One more window was read.
    pub(crate) fn window_read(&self) {
        self.read.fetch_add(1, Ordering::Relaxed);
    }
}

/// Run `decision` with `progress` as the meter its engine reports into.
pub async fn watch<F: Future>(progress: Arc<ReadProgress>, decision: F) -> F::Output {
    WATCHED.scope(progress, decision).await
}

/// The meter of the decision being run, if someone watches it. Taken in the decision's
/// task, before its work moves to a blocking thread.
pub(crate) fn current() -> Option<Arc<ReadProgress>> {
    WATCHED.try_with(Arc::clone).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn the_meter_is_found_only_inside_watch() {
        assert!(current().is_none());
        let progress = Arc::new(ReadProgress::default());
        watch(progress.clone(), async {
            let meter = current().expect("watched");
            meter.planned(3);
            meter.window_read();
            meter.window_read();
        })
        .await;
        assert_eq!(
            progress.snapshot(),
            ReadSnapshot {
                windows: 3,
                read: 2
            }
        );
        assert!(current().is_none());
    }
}
