//! CPU-bound work spread over the cores: the engine's windows and outcome texts, an
//! alignment's states and questions; decisions on one pool, background work on another
//! that yields the cores to them ([`Pool`]).

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

/// `work` run on rayon's global pool (in the background: on [`Pool::Background`]'s),
/// awaited from async code; `Err` when it panicked.
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
    static TURNS: [std::sync::OnceLock<std::sync::Arc<tokio::sync::Semaphore>>; 2] =
        [const { std::sync::OnceLock::new() }; 2];
    let pool = Pool::current();
    let turns = TURNS[pool as usize]
        .get_or_init(|| {
            std::sync::Arc::new(tokio::sync::Semaphore::new(rayon::current_num_threads()))
        })
        .clone();
    let Ok(turn) = turns.acquire_owned().await else {
        return Err(Box::new("the pool's turns were closed"));
    };
    let (done, result) = tokio::sync::oneshot::channel();
    pool.spawn(move || {
        // A panic is sent back, not left to rayon (which would abort the process).
        let _ = done.send(std::panic::catch_unwind(std::panic::AssertUnwindSafe(work)));
        drop(turn);
    });
    result
        .await
        .unwrap_or_else(|_| Err(Box::new("the pool dropped the work")))
}

/// Where CPU-bound work computes: decisions on rayon's global pool, background work
/// (alignments, evaluations, batch shards run by a job queue: a server's, `jobs work`'s)
/// on a pool of its own whose threads yield the cores to decisions, so that a running
/// alignment costs a decision little of its latency (it once made a 0.03 s decision take
/// 11 to 76 s: its tasks filled the global pool's queues ahead of the decision's).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pool {
    Foreground = 0,
    Background = 1,
}

tokio::task_local! {
    static BACKGROUND: ();
}

/// Background work running now in this process (jobs and shards).
static RUNNING: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

/// The nice value of the background pool's threads, as `nice -n 19` gives batch work: a
/// thread at 0 gets about 68 times the CPU of one at 19 when both want it (Linux's nice is
/// per thread; at 10, a decision during a 20-fold alignment took 1.76 × its time alone).
const BACKGROUND_NICE: i32 = 19;

impl Pool {
    /// The pool of the calling task: background inside [`in_the_background`].
    pub fn current() -> Self {
        if BACKGROUND.try_with(|()| ()).is_ok() {
            Self::Background
        } else {
            Self::Foreground
        }
    }

    /// `work` on this pool, every rayon call inside it (candle's products included) too;
    /// the calling thread waits.
    pub fn install<R: Send>(self, work: impl FnOnce() -> R + Send) -> R {
        match self.threads() {
            Some(pool) => pool.install(work),
            None => work(),
        }
    }

    fn spawn(self, work: impl FnOnce() + Send + 'static) {
        match self.threads() {
            Some(pool) => pool.spawn(work),
            None => rayon::spawn(work),
        }
    }

    /// The background pool, made on first use (`None`: the global pool's turn, also when
    /// the background threads could not be started, which is logged once).
    fn threads(self) -> Option<&'static rayon::ThreadPool> {
        static THREADS: std::sync::OnceLock<Option<rayon::ThreadPool>> = std::sync::OnceLock::new();
        if self == Self::Foreground {
            return None;
        }
        THREADS
            .get_or_init(|| {
                rayon::ThreadPoolBuilder::new()
                    .num_threads(rayon::current_num_threads())
                    .thread_name(|i| format!("arbiter-background-{i}"))
                    .start_handler(|_| yield_to_decisions())
                    .build()
                    .inspect_err(|error| {
                        tracing::warn!(%error, "the background pool could not be started; background work computes beside decisions");
                    })
                    .ok()
            })
            .as_ref()
    }
}

/// Lower the calling thread's priority to [`BACKGROUND_NICE`].
fn yield_to_decisions() {
    #[cfg(target_os = "linux")]
    {
        // SAFETY: gettid and setpriority read and write only the calling thread's
        // scheduling attributes; a failure (e.g. a seccomp filter) leaves it as it was.
        let changed = unsafe {
            let tid = libc::gettid();
            libc::setpriority(libc::PRIO_PROCESS, tid as libc::id_t, BACKGROUND_NICE)
        };
        if changed != 0 {
            tracing::debug!("a background thread kept its priority");
        }
    }
}

/// Run `work` as background work: its decisions and alignments compute on
/// [`Pool::Background`], and [`background_running`] counts it while it runs.
pub async fn in_the_background<F: std::future::Future>(work: F) -> F::Output {
    struct Counted;
    impl Drop for Counted {
        fn drop(&mut self) {
            RUNNING.fetch_sub(1, std::sync::atomic::Ordering::Relaxed);
        }
    }
    RUNNING.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let _counted = Counted;
    BACKGROUND.scope((), work).await
}

/// Jobs and shards this process runs in the background now.
pub fn background_running() -> usize {
    RUNNING.load(std::sync::atomic::Ordering::Relaxed)
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

    #[tokio::test]
    async fn background_work_computes_on_its_own_pool_at_a_lower_priority() {
        let foreground = on_the_pool(|| std::thread::current().name().map(str::to_owned))
            .await
            .unwrap();
        assert!(
            !foreground
                .unwrap_or_default()
                .starts_with("arbiter-background"),
            "a decision outside the background runs on the global pool"
        );
        assert_eq!(background_running(), 0);
        let (name, nice, running) = in_the_background(async {
            let running = background_running();
            let seen = on_the_pool(|| {
                // The products inside go where the work is: this pool.
                let inner = rayon::join(|| std::thread::current().name().map(str::to_owned), || ());
                (inner.0, nice_of_this_thread())
            })
            .await
            .unwrap();
            (seen.0, seen.1, running)
        })
        .await;
        assert_eq!(running, 1, "counted while it runs");
        assert_eq!(background_running(), 0, "and not after");
        assert!(name.unwrap().starts_with("arbiter-background"));
        #[cfg(target_os = "linux")]
        assert_eq!(nice, BACKGROUND_NICE);
        let _ = nice;
        // A blocking section installed on the pool it was started from.
        let installed =
            Pool::Background.install(|| std::thread::current().name().map(str::to_owned));
        assert!(installed.unwrap().starts_with("arbiter-background"));
    }

    fn nice_of_this_thread() -> i32 {
        #[cfg(target_os = "linux")]
        {
            // SAFETY: reads the calling thread's nice value only.
            unsafe { libc::getpriority(libc::PRIO_PROCESS, libc::gettid() as libc::id_t) }
        }
        #[cfg(not(target_os = "linux"))]
        0
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
