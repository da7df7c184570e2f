//! What a kind of job reports to whoever runs it: progress and result lines as they come
//! ([`Observer`]), and how its work ended ([`Ending`]); and how a job run elsewhere is
//! followed to its end ([`follow`], [`Lines`]).

use crate::error::Result;
use crate::wire::jobs::{Job, JobResult, Progress};
use std::time::Duration;

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

/// How often a follower looks again at a job run elsewhere: `first` after the first look,
/// each wait then `growth` times the last, at most `most`.
#[derive(Debug, Clone, Copy)]
pub struct Pace {
    pub first: Duration,
    pub growth: f64,
    pub most: Duration,
}

/// Follow `job`, run elsewhere (another process, a server), until it ends: the observer is
/// told its progress at each look, and `look` (told how many waits there have been) fetches
/// it again after each wait. The one polling loop of a local home and of the client.
pub async fn follow<Look, Looked>(
    mut job: Job,
    observer: &dyn Observer,
    pace: Pace,
    mut look: Look,
) -> Result<Job>
where
    Look: FnMut(u32) -> Looked,
    Looked: Future<Output = Result<Job>>,
{
    let (mut wait, mut waits) = (pace.first, 0u32);
    loop {
        observer.progress(job.progress);
        if job.status.is_finished() {
            return Ok(job);
        }
        tokio::time::sleep(wait).await;
        wait = wait.mul_f64(pace.growth).min(pace.most);
        waits += 1;
        job = look(waits).await?;
    }
}

/// A job's results, read in chunks that may end mid-line, handed to an observer a whole
/// line at a time.
pub struct Lines<'a> {
    observer: &'a dyn Observer,
    partial: Vec<u8>,
}

impl<'a> Lines<'a> {
    pub fn new(observer: &'a dyn Observer) -> Self {
        Self {
            observer,
            partial: Vec::new(),
        }
    }

    /// The next chunk: every line it completes reaches the observer.
    pub fn feed(&mut self, chunk: &[u8]) {
        self.partial.extend_from_slice(chunk);
        let Some(end) = self.partial.iter().rposition(|&b| b == b'\n') else {
            return;
        };
        for line in self.partial[..=end].split_inclusive(|&b| b == b'\n') {
            self.observer.line(line);
        }
        self.partial.drain(..=end);
    }

    /// The results ended: a last line without its newline reaches the observer too.
    pub fn finish(self) {
        if !self.partial.is_empty() {
            self.observer.line(&self.partial);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Mutex;

    #[derive(Default)]
    struct Recorder(Mutex<Vec<Vec<u8>>>);

    impl Observer for Recorder {
        fn line(&self, line: &[u8]) {
            self.0.lock().unwrap().push(line.to_vec());
        }
    }

    #[test]
    fn chunks_cut_anywhere_reach_the_observer_as_whole_lines_in_order() {
        let recorder = Recorder::default();
        let mut lines = Lines::new(&recorder);
        for chunk in [
            &b"{\"a\""[..],
            b":1}\n{\"b\":2}\n{",
            b"\"c\"",
            b":3}\n",
            b"tail",
        ] {
            lines.feed(chunk);
        }
        lines.finish();
        let seen = recorder.0.into_inner().unwrap();
        let expected: Vec<&[u8]> = vec![b"{\"a\":1}\n", b"{\"b\":2}\n", b"{\"c\":3}\n", b"tail"];
        assert_eq!(seen, expected);
    }
}
