//! What a job keeps on this machine, `ARBITER_HOME/jobs/<jobId>/`: only what a detached
//! worker (`arbiter jobs worker`) leaves for people, since a job's input, results and
//! owner live in the store, where every replica sees them:
//!
//! - `worker.log`: what the worker logged;
//! - `worker.pid`: the process ID of the last worker started for it.

use crate::ids::JobId;
use std::path::{Path, PathBuf};

/// The paths of one job on this machine.
#[derive(Debug, Clone)]
pub struct JobFiles {
    dir: PathBuf,
}

impl JobFiles {
    pub fn new(jobs_dir: &Path, job_id: &JobId) -> Self {
        Self {
            dir: jobs_dir.join(job_id.to_string()),
        }
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    pub fn log(&self) -> PathBuf {
        self.dir.join("worker.log")
    }

    pub fn worker_pid(&self) -> PathBuf {
        self.dir.join("worker.pid")
    }
}
