//! The async runtime every command runs on: tokio's multi-threaded scheduler, whose pool
//! for blocking work lets a thread go once it has been idle for [`BLOCKING_KEEP_ALIVE`].
//!
//! Not tokio's 10 s: the pool hands new work to the thread idle the longest, and that
//! restarts the thread's keep-alive. Periodic blocking work (each shard worker's look for a
//! shard every second, the orphan sweep, a health check) so kept about as many idle threads
//! alive as it ran tasks in a keep-alive: a server had 26 threads a minute after a burst of
//! decisions (7 before the shard workers), each holding what a thread keeps for itself,
//! above all the 1 MiB packing buffer of the matrix products (a thread-local of `gemm`),
//! for as long as it ran. With a second, a burst's threads end a second after it, before
//! the server returns its free memory (`server::memory`).

use std::time::Duration;

/// How long a thread of the blocking pool stays idle before it ends.
pub const BLOCKING_KEEP_ALIVE: Duration = Duration::from_secs(1);

/// The runtime `main` runs a command on.
pub fn build() -> std::io::Result<tokio::runtime::Runtime> {
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .thread_keep_alive(BLOCKING_KEEP_ALIVE)
        .build()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_idle_blocking_thread_ends_after_the_keep_alive() {
        let runtime = build().unwrap();
        let thread = || {
            let task = runtime.spawn_blocking(|| std::thread::current().id());
            runtime.block_on(task).unwrap()
        };
        let first = thread();
        // Thread IDs are never reused: another ID is another thread. With tokio's default
        // of 10 s the first thread would still be there to take the task.
        std::thread::sleep(BLOCKING_KEEP_ALIVE * 3);
        assert_ne!(thread(), first, "the idle thread was kept");
    }
}
