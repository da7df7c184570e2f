//! A job's directory, `ARBITER_HOME/jobs/<jobId>/`:
//!
//! - `input.ndjson`: the items, one JSON value per line, staged before the job is queued,
//!   so a resumed job reads exactly what the first run read;
//! - `results.ndjson`: one line per finished item, in input order; a line counts once it
//!   ends in a newline, which is what makes resuming exact;
//! - `lock`: held (an OS file lock) by the one process that owns the job. The OS drops it
//!   when that process dies, even by `kill -9`, so a free lock on an unfinished job means
//!   its owner is gone;
//! - `worker.log`: what a detached worker logged.

use crate::error::{Error, Result};
use crate::ids::JobId;
use std::fs::{File, OpenOptions};
use std::io::{self, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

/// The paths of one job.
#[derive(Debug, Clone)]
pub struct JobFiles {
    job_id: JobId,
    dir: PathBuf,
}

impl JobFiles {
    pub fn new(jobs_dir: &Path, job_id: &JobId) -> Self {
        Self {
            job_id: *job_id,
            dir: jobs_dir.join(job_id.to_string()),
        }
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    pub fn input(&self) -> PathBuf {
        self.dir.join("input.ndjson")
    }

    pub fn results(&self) -> PathBuf {
        self.dir.join("results.ndjson")
    }

    pub fn log(&self) -> PathBuf {
        self.dir.join("worker.log")
    }

    fn lock_path(&self) -> PathBuf {
        self.dir.join("lock")
    }

    /// Take the job's lock if no live process holds it. `None` when one does.
    pub fn try_lock(&self) -> Result<Option<JobLock>> {
        std::fs::create_dir_all(&self.dir)
            .map_err(|e| Error::internal(&format!("creating {}", self.dir.display()), e))?;
        let path = self.lock_path();
        let mut file = OpenOptions::new()
            .create(true)
            .truncate(false)
            .read(true)
            .write(true)
            .open(&path)
            .map_err(|e| Error::internal(&format!("opening {}", path.display()), e))?;
        match file.try_lock() {
            Ok(()) => {}
            Err(std::fs::TryLockError::WouldBlock) => return Ok(None),
            Err(std::fs::TryLockError::Error(e)) => {
                return Err(Error::internal(&format!("locking {}", path.display()), e));
            }
        }
        // Who holds it, for people and tests; the lock itself is what counts.
        let _ = file.set_len(0).and_then(|()| {
            file.seek(SeekFrom::Start(0))?;
            write!(file, "{}", std::process::id())
        });
        Ok(Some(JobLock {
            job_id: self.job_id,
            files: self.clone(),
            _file: file,
        }))
    }

    /// The process ID written by the lock's last holder, if any.
    pub fn holder_pid(&self) -> Option<u32> {
        std::fs::read_to_string(self.lock_path())
            .ok()?
            .trim()
            .parse()
            .ok()
    }

    /// The results file opened for reading, limited to its complete lines.
    pub fn complete_results(&self) -> Result<Option<io::Take<File>>> {
        let path = self.results();
        let mut file = match File::open(&path) {
            Ok(file) => file,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(Error::internal(&format!("opening {}", path.display()), e)),
        };
        let complete = complete_len(&mut file)
            .map_err(|e| Error::internal(&format!("reading {}", path.display()), e))?;
        file.seek(SeekFrom::Start(0))
            .map_err(|e| Error::internal(&format!("reading {}", path.display()), e))?;
        Ok(Some(file.take(complete)))
    }
}

/// Ownership of a job, for as long as this value lives.
#[derive(Debug)]
pub struct JobLock {
    job_id: JobId,
    files: JobFiles,
    _file: File,
}

impl JobLock {
    pub fn job_id(&self) -> &JobId {
        &self.job_id
    }

    pub fn files(&self) -> &JobFiles {
        &self.files
    }
}

/// The length of `file` up to and including its last newline.
pub fn complete_len(file: &mut File) -> io::Result<u64> {
    const CHUNK: u64 = 64 * 1024;
    let mut end = file.seek(SeekFrom::End(0))?;
    let mut buffer = vec![0; CHUNK as usize];
    while end > 0 {
        let start = end.saturating_sub(CHUNK);
        let len = (end - start) as usize;
        file.seek(SeekFrom::Start(start))?;
        file.read_exact(&mut buffer[..len])?;
        if let Some(at) = buffer[..len].iter().rposition(|&b| b == b'\n') {
            return Ok(start + at as u64 + 1);
        }
        end = start;
    }
    Ok(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_holder_at_a_time_and_the_lock_frees_when_dropped() {
        let dir = tempfile::tempdir().unwrap();
        let id = JobId::new_v4();
        let files = JobFiles::new(dir.path(), &id);
        let held = files.try_lock().unwrap().expect("free");
        assert_eq!(held.job_id(), &id);
        assert_eq!(files.holder_pid(), Some(std::process::id()));
        assert!(files.try_lock().unwrap().is_none(), "held elsewhere");
        drop(held);
        assert!(files.try_lock().unwrap().is_some());
    }

    #[test]
    fn only_complete_lines_are_read() {
        let dir = tempfile::tempdir().unwrap();
        let files = JobFiles::new(dir.path(), &JobId::new_v4());
        assert!(files.complete_results().unwrap().is_none());
        std::fs::create_dir_all(files.dir()).unwrap();
        std::fs::write(files.results(), "{\"index\":0}\n{\"index\":1}\n{\"ind").unwrap();
        let mut text = String::new();
        files
            .complete_results()
            .unwrap()
            .unwrap()
            .read_to_string(&mut text)
            .unwrap();
        assert_eq!(text, "{\"index\":0}\n{\"index\":1}\n");
        // Past the 64 KiB chunk: the last newline is found however long the tail.
        let long = format!("a\n{}", "x".repeat(200_000));
        std::fs::write(files.results(), long).unwrap();
        let mut file = File::open(files.results()).unwrap();
        assert_eq!(complete_len(&mut file).unwrap(), 2);
    }
}
