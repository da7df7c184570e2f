//! Where a job is in its life, with the data each stage has: a queued job has nothing
//! yet, a running one a start time, a finished one an end time and an outcome that carries
//! its own data (a completed job's result, a failed job's problem).
//!
//! The store reads its rows into this type once; nothing above it re-parses a status. It
//! lives here, below `core` (which re-exports it as `core::jobs::JobState`), so the store
//! can return typed records without depending on the layer above it.

use crate::wire::time::Recorded;

use crate::wire::Problem;
use crate::wire::jobs::{JobResult, JobStatus};

/// A job's state.
#[derive(Debug, Clone, PartialEq)]
pub enum JobState {
    /// Waiting for a worker.
    Queued,
    /// Being worked on since `since` (the first start, kept across resumes).
    Running { since: Recorded },
    /// Past changing: ended `at`, having started `started` (never, when cancelled while
    /// queued).
    Finished {
        started: Option<Recorded>,
        at: Recorded,
        outcome: Outcome,
    },
}

/// How a finished job ended.
#[derive(Debug, Clone, PartialEq)]
pub enum Outcome {
    /// Every item done; the job's result, of its kind.
    Completed { result: JobResult },
    /// The job as a whole failed; why, as a problem document.
    Failed { problem: Problem },
    /// A cancel was asked for; what finished is kept.
    Cancelled,
}

impl JobState {
    /// The status name the contract shows for this state.
    #[must_use]
    pub fn status(&self) -> JobStatus {
        match self {
            Self::Queued => JobStatus::Queued,
            Self::Running { .. } => JobStatus::Running,
            Self::Finished { outcome, .. } => outcome.status(),
        }
    }

    #[must_use]
    pub fn is_finished(&self) -> bool {
        matches!(self, Self::Finished { .. })
    }

    /// When the job first started, if it has.
    #[must_use]
    pub fn started_at(&self) -> Option<Recorded> {
        match self {
            Self::Queued => None,
            Self::Running { since } => Some(*since),
            Self::Finished { started, .. } => *started,
        }
    }

    /// When the job ended, if it has.
    #[must_use]
    pub fn finished_at(&self) -> Option<Recorded> {
        match self {
            Self::Finished { at, .. } => Some(*at),
            Self::Queued | Self::Running { .. } => None,
        }
    }

    /// The outcome, once finished.
    #[must_use]
    pub fn outcome(&self) -> Option<&Outcome> {
        match self {
            Self::Finished { outcome, .. } => Some(outcome),
            Self::Queued | Self::Running { .. } => None,
        }
    }
}

impl Outcome {
    /// The status name of a job that ended this way.
    #[must_use]
    pub fn status(&self) -> JobStatus {
        match self {
            Self::Completed { .. } => JobStatus::Completed,
            Self::Failed { .. } => JobStatus::Failed,
            Self::Cancelled => JobStatus::Cancelled,
        }
    }
}
