//! CPU-bound work spread over the cores: the engine's windows and outcome texts, an
//! alignment's states and questions.

use std::sync::atomic::{AtomicUsize, Ordering};

/// `work(i)` for every index below `n`, on as many threads as there are cores (at most `n`),
/// each taking the next index as it frees up; in index order. Once `stop()` is true no new
/// index is taken: an index left undone, or whose thread panicked, is `None`. One index (or
/// one core) runs on the calling thread, without spawning.
pub fn map_on_all_cores<R: Send>(
    n: usize,
    stop: impl Fn() -> bool + Sync,
    work: impl Fn(usize) -> R + Sync,
) -> Vec<Option<R>> {
    let threads = std::thread::available_parallelism()
        .map_or(2, std::num::NonZero::get)
        .min(n);
    if threads <= 1 {
        return (0..n).map(|i| (!stop()).then(|| work(i))).collect();
    }
    let next = AtomicUsize::new(0);
    let done: Vec<Vec<(usize, R)>> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads)
            .map(|_| {
                scope.spawn(|| {
                    let mut done = Vec::new();
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        if i >= n || stop() {
                            return done;
                        }
                        done.push((i, work(i)));
                    }
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or_default())
            .collect()
    });
    let mut slots: Vec<Option<R>> = (0..n).map(|_| None).collect();
    for (i, result) in done.into_iter().flatten() {
        slots[i] = Some(result);
    }
    slots
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicBool;

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
