//! A server's memory follows the decisions it computes, not the clients it has. A decision
//! allocates a few MiB (the encoder's activations), and the allocator keeps what was freed
//! for the next allocation: mimalloc (`src/lib.rs`) for Rust's allocations, glibc's for
//! the C libraries' (SQLite, libgit2), which keeps one arena per thread that allocated (up
//! to 8 per core), each holding its own peak. Two measures, measured by
//! `benches/http.sh` and `benches/bodies.sh`:
//!
//! - [`limit_arenas`]: as many of glibc's arenas as decisions compute at once;
//! - [`watch`]: once no decision has been admitted, and no large body read, for a quiet
//!   period after some were, both allocators return their free pages (`mi_collect`,
//!   `malloc_trim`). A large body leaves as much behind as a decision: three 10 MB batch
//!   bodies, read, staged and cancelled, left 1.5 GiB held until the next decision when
//!   nothing was returned (`benches/bodies.sh`).
//!
//! A burst's decisions also start threads in the blocking pool, each keeping buffers of its
//! own while it lives; they end a second after their last task
//! ([`crate::runtime::BLOCKING_KEEP_ALIVE`]), before the quiet period is over, so what
//! they kept is returned by the same trim.

use super::admission::Admission;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

/// How long the server must be idle before it trims.
const QUIET: Duration = Duration::from_secs(5);

// The threads a burst started have ended when the trim runs (a trim before would leave
// what they free afterwards in place until the next burst).
const _: () = assert!(crate::runtime::BLOCKING_KEEP_ALIVE.as_millis() < QUIET.as_millis());

/// Request bodies of [`LargeBodies::BYTES`] or more, counted as they are read.
#[derive(Debug, Default)]
pub(crate) struct LargeBodies(AtomicU64);

impl LargeBodies {
    /// A body this large is worth a trim once it is handled (a small one's allocations
    /// are reused by the next request's).
    pub(crate) const BYTES: usize = 256 << 10;

    /// Count a body of `len` bytes just read.
    pub(crate) fn note(&self, len: usize) {
        if len >= Self::BYTES {
            self.0.fetch_add(1, Ordering::AcqRel);
        }
    }

    fn count(&self) -> u64 {
        self.0.load(Ordering::Acquire)
    }
}

/// Watch `decisions` and large `bodies`, and trim after each burst of them, until aborted.
pub(crate) fn watch(
    decisions: Arc<Admission>,
    bodies: Arc<LargeBodies>,
) -> tokio::task::JoinHandle<()> {
    tokio::spawn(async move {
        let mut ticker = tokio::time::interval(QUIET);
        ticker.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        // Decisions admitted and large bodies read, at the last tick and at the last trim.
        let (mut seen, mut trimmed) = (0, 0);
        loop {
            ticker.tick().await;
            let (admitted, idle) = decisions.activity();
            let started = admitted.wrapping_add(bodies.count());
            // Idle, quiet for a whole period, and there was work since the last trim.
            if idle && started == seen && started != trimmed {
                trimmed = started;
                let released = tokio::task::spawn_blocking(trim).await.unwrap_or(false);
                tracing::debug!(released, "idle after work: free memory returned");
            }
            seen = started;
        }
    })
}

/// Let glibc's allocator (the C libraries') keep at most `arenas` arenas, unless the
/// operator chose with `MALLOC_ARENA_MAX`. Called before the server's threads start.
pub(crate) fn limit_arenas(arenas: usize) {
    if std::env::var_os("MALLOC_ARENA_MAX").is_some() {
        return;
    }
    set_arena_max(i32::try_from(arenas.max(1)).unwrap_or(i32::MAX));
}

#[cfg(all(target_os = "linux", target_env = "gnu"))]
fn set_arena_max(arenas: i32) {
    // SAFETY: mallopt only sets one of glibc's allocator parameters; an arena limit below
    // the arenas already made only stops new ones.
    unsafe {
        libc::mallopt(libc::M_ARENA_MAX, arenas);
    }
}

#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
fn set_arena_max(_arenas: i32) {}

/// Return both allocators' free pages to the system; whether glibc's returned any.
fn trim() -> bool {
    // SAFETY: mi_collect only walks mimalloc's own heaps; `force` also takes back what
    // threads that ended left behind. It is safe to call from any thread at any time.
    unsafe { libmimalloc_sys::mi_collect(true) };
    trim_glibc()
}

#[cfg(all(target_os = "linux", target_env = "gnu"))]
fn trim_glibc() -> bool {
    // SAFETY: malloc_trim only walks glibc's own arenas under their locks; it is safe to
    // call from any thread at any time.
    unsafe { libc::malloc_trim(0) == 1 }
}

/// Other C allocators return memory on their own terms.
#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
fn trim_glibc() -> bool {
    false
}
