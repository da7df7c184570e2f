//! Work an operation starts and does not wait for (the `capture.retain_days` sweep after a
//! capture): run on the blocking pool and kept on the [`Context`](super::Context), so that
//! a server's answer never waits for it while a process that is one command waits for all
//! of it before it exits ([`Background::wait`], which `arbiter`'s command line calls once
//! the command is done). What a task finds is its own to log: nothing waits for its result.

use std::sync::{Mutex, PoisonError};
use tokio::task::JoinSet;

/// The tasks started in the background, not yet waited for.
#[derive(Default)]
pub struct Background {
    tasks: Mutex<JoinSet<()>>,
}

impl Background {
    /// Run `work` on the blocking pool (within the current span) without waiting for it.
    /// Must be called within the async runtime.
    pub(crate) fn spawn_blocking(&self, work: impl FnOnce() + Send + 'static) {
        let span = tracing::Span::current();
        let mut tasks = self.tasks.lock().unwrap_or_else(PoisonError::into_inner);
        // Those done are let go here, so a long-running server keeps none of them.
        while let Some(done) = tasks.try_join_next() {
            log_panic(done);
        }
        tasks.spawn_blocking(move || span.in_scope(work));
    }

    /// Wait until every task started so far has ended (and any they started in turn). A
    /// wait given up before it ends lets the tasks it took go unwaited (one that has
    /// started runs to its end all the same).
    pub async fn wait(&self) {
        loop {
            // Taken out, so no lock is held across the wait.
            let mut tasks =
                std::mem::take(&mut *self.tasks.lock().unwrap_or_else(PoisonError::into_inner));
            if tasks.is_empty() {
                return;
            }
            while let Some(done) = tasks.join_next().await {
                log_panic(done);
            }
        }
    }
}

fn log_panic(done: Result<(), tokio::task::JoinError>) {
    if let Err(error) = done {
        tracing::error!(%error, "a background task failed");
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use futures_util::FutureExt as _;
    use std::sync::mpsc;

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn wait_returns_once_every_task_has_ended_and_not_before() {
        let background = Background::default();
        background.wait().await;
        let (release, held) = mpsc::channel::<()>();
        let (ended, ended_rx) = mpsc::channel();
        background.spawn_blocking(move || {
            held.recv().unwrap();
            ended.send(()).unwrap();
        });
        let mut waiting = std::pin::pin!(background.wait());
        assert!(
            (&mut waiting).now_or_never().is_none(),
            "the held task has not ended"
        );
        release.send(()).unwrap();
        waiting.await;
        assert!(ended_rx.try_recv().is_ok(), "waited for the task's end");
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_task_that_panics_is_logged_and_waited_for_like_the_others() {
        let background = Background::default();
        let (ended, ended_rx) = mpsc::channel();
        background.spawn_blocking(|| panic!("a sweep's bug"));
        background.spawn_blocking(move || ended.send(()).unwrap());
        background.wait().await;
        assert!(ended_rx.try_recv().is_ok());
    }
}
