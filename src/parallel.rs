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
