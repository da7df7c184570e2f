//! CPU-bound work spread over the cores: the engine's windows and outcome texts, an
//! alignment's states and questions.

/// `work(i)` for every index below `n`, spread over the cores, in index order. Once `stop()`
/// is true no new index is taken: an index left undone, or (of several) whose work panicked,
/// is `None`.
///
/// The work runs on rayon's global pool, the one candle's matrix products split over: a
/// product inside `work` then shares the cores with the other indices instead of competing
/// with them (threads of our own, each running a product split in two, oversubscribed two
/// cores and made a cold `decide` 8% slower).
pub fn map_on_all_cores<R: Send>(
    n: usize,
    stop: impl Fn() -> bool + Sync,
    work: impl Fn(usize) -> R + Sync,
) -> Vec<Option<R>> {
    use rayon::prelude::*;
    if n <= 1 {
        // One index runs on the calling thread (its products still split over the pool):
        // handing it to the pool would only add a hop.
        return (0..n).map(|i| (!stop()).then(|| work(i))).collect();
    }
    (0..n)
        .into_par_iter()
        .with_max_len(1)
        .map(|i| {
            if stop() {
                return None;
            }
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| work(i))).ok()
        })
        .collect()
}

/// `work` run on rayon's global pool, awaited from async code; `Err` when it panicked.
///
/// A decision runs here rather than on a thread of tokio's blocking pool: its matrix
/// products then split over the same threads it runs on, and when every core already runs
/// a decision (a batch's window, a loaded server) the halves stay on the thread that made
/// them instead of going through the pool and back; each of a few decisions at once from
/// threads outside the pool cost a batch 12% of its items/s. At most as many works as the
/// pool has threads are given to it at once; the others wait here, not in the pool's queue,
/// where a thread waiting for a product's half would take up a whole other decision.
pub async fn on_the_pool<R: Send + 'static>(
    work: impl FnOnce() -> R + Send + 'static,
) -> std::thread::Result<R> {
    static TURNS: std::sync::OnceLock<std::sync::Arc<tokio::sync::Semaphore>> =
        std::sync::OnceLock::new();
    let turns = TURNS
        .get_or_init(|| {
            std::sync::Arc::new(tokio::sync::Semaphore::new(rayon::current_num_threads()))
        })
        .clone();
    let Ok(turn) = turns.acquire_owned().await else {
        return Err(Box::new("the pool's turns were closed"));
    };
    let (done, result) = tokio::sync::oneshot::channel();
    rayon::spawn(move || {
        // A panic is sent back, not left to rayon (which would abort the process).
        let _ = done.send(std::panic::catch_unwind(std::panic::AssertUnwindSafe(work)));
        drop(turn);
    });
    result
        .await
        .unwrap_or_else(|_| Err(Box::new("the pool dropped the work")))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

    #[test]
    fn every_index_once_in_order() {
        let seen = AtomicUsize::new(0);
        let out = map_on_all_cores(
            100,
            || false,
            |i| {
                seen.fetch_add(1, Ordering::Relaxed);
                i * 2
            },
        );
        assert_eq!(seen.load(Ordering::Relaxed), 100);
        assert_eq!(out, (0..100).map(|i| Some(i * 2)).collect::<Vec<_>>());
        assert!(map_on_all_cores(0, || false, |i| i).is_empty());
        assert_eq!(map_on_all_cores(1, || false, |i| i), vec![Some(0)]);
    }

    #[tokio::test]
    async fn work_on_the_pool_returns_its_result_and_a_panic_as_an_error() {
        let on = on_the_pool(|| rayon::current_thread_index().is_some()).await;
        assert!(on.expect("no panic"), "it ran on one of the pool's threads");
        let panicked = on_the_pool(|| -> usize { panic!("a decision panicked") }).await;
        assert!(panicked.is_err());
        // The pool goes on.
        assert_eq!(on_the_pool(|| 2 + 2).await.expect("no panic"), 4);
    }

    #[test]
    fn nothing_new_is_taken_once_stopped() {
        let stop = AtomicBool::new(false);
        let out = map_on_all_cores(
            1000,
            || stop.load(Ordering::Relaxed),
            |i| {
                if i == 10 {
                    stop.store(true, Ordering::Relaxed);
                }
                i
            },
        );
        let done = out.iter().filter(|r| r.is_some()).count();
        assert!(done < 1000, "{done} done");
        assert_eq!(out[10], Some(10));
    }
}
