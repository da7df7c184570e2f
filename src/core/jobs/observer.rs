//! What a kind of job reports to whoever runs it: progress and result lines as they come
//! ([`Observer`]), and how its work ended ([`Ending`]).

use crate::wire::jobs::{JobResult, Progress};

/// Someone watching a job run in this process (the command line's progress bar and output).
pub trait Observer: Send + Sync {
    /// Progress, a few times a second and once at the end.
    fn progress(&self, _progress: Progress) {}
    /// A result line, newline included, as it is written.
    fn line(&self, _line: &[u8]) {}
    /// Whether [`Self::line`] is wanted when the job is followed rather than run here (a
    /// job of another process or of a server): then the lines are read once it ends.
    fn wants_lines(&self) -> bool {
        false
    }
}

/// Nobody watching: a server job, a detached worker.
pub struct NoObserver;

impl Observer for NoObserver {}

/// How a job's work ended, when it did not fail.
pub(crate) enum Ending {
    /// Every item is done; the result.
    Completed(JobResult),
    /// A cancel was asked for; what finished is kept.
    Cancelled,
}
